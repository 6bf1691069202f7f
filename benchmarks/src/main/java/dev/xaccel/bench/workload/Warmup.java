package dev.xaccel.bench.workload;

import java.util.Locale;
import java.util.Optional;

import dev.xaccel.bench.run.BenchFailure;
import dev.xaccel.bench.run.BenchOptions;
import dev.xaccel.bench.run.Log;
import dev.xaccel.bench.run.Setup;
import dev.xaccel.bench.run.WorkloadKind;
import dev.xaccel.bench.setup.BenchRig;
import dev.xaccel.bench.setup.BenchStats;
import dev.xaccel.bench.setup.DataSet;

/**
 * Not recorded: one large download (when the large-file workload runs), then sweeps of some seconds of wrk per setup
 * until the BenchServer JVMs' JIT has settled, and the accept-filter connectors once each, so that no measured round
 * pays for compilation. One sweep was not enough: with the servers on one CPU the compilers share it with Tomcat,
 * and the first rounds after a single sweep measured up to twice the CPU per request of the later ones.
 */
public final class Warmup implements Workload {

    /** Settled: a sweep during which the JIT compiled for less than this share of the sweep's time. */
    static final double SETTLED_SHARE = 0.02;
    /** At most this many sweeps, settled or not (the log says which). */
    static final int MAX_SWEEPS = 5;

    @Override
    public void run(BenchRig rig) {
        BenchOptions o = rig.options();
        int secs = o.warmupSeconds();
        Log.info("warm-up (not recorded): one large download, then " + secs
                + " s of wrk per setup until the JIT has settled (at most " + MAX_SWEEPS + " sweeps)");
        for (Setup s : o.setups()) {
            if (o.wants(WorkloadKind.LARGE) && !s.smallOnly()) {
                String result = rig.curl().download(rig.endpoints().file(s, DataSet.BIG));
                if (result.contains("curl-failed")) {
                    throw new BenchFailure("warm-up download failed for " + s.id());
                }
            }
        }
        for (int sweep = 1; sweep <= MAX_SWEEPS; sweep++) {
            long compiled = compilationMillis(rig);
            long start = System.nanoTime();
            for (Setup s : o.setups()) {
                rig.wrk(s, 8, secs);
            }
            double millis = (System.nanoTime() - start) / 1e6;
            double share = (compilationMillis(rig) - compiled) / millis;
            boolean settled = share < SETTLED_SHARE;
            Log.info(String.format(Locale.ROOT, "warm-up sweep %d: the JIT compiled for %.1f %% of its %.0f s%s",
                    sweep, share * 100, millis / 1000, settled ? ": settled" : ""));
            if (settled) {
                break;
            }
        }
        if (o.setups().contains(Setup.RECEIPTS)) {
            // nginx flushes the warm-up's last lines up to a second later: not into the first measurement's counts
            rig.stats(Setup.RECEIPTS).awaitReceipts(new BenchStats.ReceiptCounts(0, 0, 0),
                    SmallFileWorkload.RECEIPT_WAIT_MS);
        }
        if (rig.tomcat().acceptFilterPort().isPresent() && o.wants(WorkloadKind.ACCEPT)) {
            rig.wrk().run(AcceptFilterWorkload.base(rig.tomcat().acceptFilterPort().getAsInt()), 4, secs,
                    Optional.empty());
            rig.wrk().run(AcceptFilterWorkload.base(rig.tomcat().acceptPlainPort()), 4, secs,
                    Optional.empty());
        }
    }

    /** Both BenchServer JVMs' compilation time (they compile side by side, on the servers' CPU). */
    private static long compilationMillis(BenchRig rig) {
        return rig.stats().compilationMillis() + rig.hopStats().compilationMillis();
    }
}
