package dev.xaccel.bench.workload;

import java.util.List;
import java.util.Locale;

import dev.xaccel.bench.run.BenchFailure;
import dev.xaccel.bench.run.BenchOptions;
import dev.xaccel.bench.run.Log;
import dev.xaccel.bench.run.RawResults;
import dev.xaccel.bench.run.Setup;
import dev.xaccel.bench.setup.BenchRig;
import dev.xaccel.bench.setup.DataSet;

/**
 * The large file: per round and setup (in an order shuffled per round: {@link Shuffle}), {@code --seq} sequential
 * downloads and {@code --parallel}
 * downloaders at once, with curl. Throughput from bytes and wall time; CPU of the JVM and of nginx (master +
 * workers) from /proc.
 */
public final class LargeFileWorkload implements Workload {

    @Override
    public void run(BenchRig rig) {
        Shuffle shuffle = new Shuffle(rig.options().seed());
        for (int r = 1; r <= rig.options().runs(); r++) {
            List<Setup> order = shuffle.order(rig.options().largeSetups(), "large", r);
            for (int i = 0; i < order.size(); i++) {
                measure(rig, order.get(i), r, "seq", i + 1);
                measure(rig, order.get(i), r, "par", i + 1);
            }
        }
    }

    private static void measure(BenchRig rig, Setup s, int round, String mode, int position) {
        BenchOptions o = rig.options();
        String url = rig.endpoints().file(s, DataSet.BIG);
        long j0 = rig.jvmTicks();
        long n0 = rig.nginxTicks();
        long t0 = System.nanoTime();
        List<String> downloads = mode.equals("seq") ? rig.curl().sequential(url, o.seq())
                : rig.curl().parallel(url, o.parallel(), o.parallelEach());
        long t1 = System.nanoTime();
        long j = rig.jvmTicks() - j0;
        long n = rig.nginxTicks() - n0;
        String ok = "200 " + o.bigBytes();
        long count = downloads.stream().filter(ok::equals).count();
        if (count == 0 || count != downloads.size()) {
            Log.raw(String.join("\n", downloads));
            throw new BenchFailure("large download failed for " + s.id() + " (" + url + ")");
        }
        double secs = (t1 - t0) / 1e9;
        double bytes = (double) count * o.bigBytes();
        double gb = bytes / 1e9;
        double mbps = bytes / 1e6 / secs;
        String w = "large-" + mode;
        RawResults out = rig.results();
        out.value(w, s.id(), round, "MBps", mbps);
        out.value(w, s.id(), round, "jvm_s_per_GB", rig.seconds(j) / gb);
        out.value(w, s.id(), round, "nginx_s_per_GB", rig.seconds(n) / gb);
        // the servers' work per GB (JVM + nginx): the CPU ratios of the headline table
        out.value(w, s.id(), round, "server_s_per_GB", rig.seconds(j + n) / gb);
        out.count(w, s.id(), round, "order", position);
        out.value(w, s.id(), round, "jvm_s", rig.seconds(j));
        out.value(w, s.id(), round, "nginx_s", rig.seconds(n));
        out.value(w, s.id(), round, "GB", gb);
        rig.load().note();
        Log.info(String.format(Locale.ROOT, "large %s %s round %d: %.6f MB/s (JVM %d ticks, nginx %d ticks)", mode,
                s.id(), round, mbps, j, n));
    }
}
