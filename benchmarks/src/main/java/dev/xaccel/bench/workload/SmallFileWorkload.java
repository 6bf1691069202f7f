package dev.xaccel.bench.workload;

import java.util.List;
import java.util.Locale;

import dev.xaccel.bench.client.Wrk;
import dev.xaccel.bench.run.BenchFailure;
import dev.xaccel.bench.run.Log;
import dev.xaccel.bench.run.RawResults;
import dev.xaccel.bench.run.Setup;
import dev.xaccel.bench.run.SmallCase;
import dev.xaccel.bench.run.SmallPlan;
import dev.xaccel.bench.setup.BenchRig;
import dev.xaccel.bench.setup.BenchStats;
import dev.xaccel.bench.system.TcpSockets;

/**
 * Small files: per round, the cases of {@link SmallPlan} (file set, concurrency, setups), each setup once in an
 * order shuffled per round with the judged pairs next to each other ({@link Shuffle},
 * {@link SmallPlan#NEIGHBOURHOODS}; its position recorded as {@code order}), one wrk run cycling through the set's
 * files. Requests/s, latency, CPU per request of the JVM (its JIT compiler threads apart) and of nginx; for setup 6
 * the requests that reached the application; for setup 16 the offloads and the receipts that came back for them
 * (the filter's MBean, as for setup 6); and the TIME-WAIT sockets towards Tomcat (evidence for nginx's upstream
 * keep-alive). A non-2xx answer fails the run.
 */
public final class SmallFileWorkload implements Workload {

    /** How long a receipts measurement waits for the lines of its last requests (setup 16). */
    static final long RECEIPT_WAIT_MS = 3000;

    @Override
    public void run(BenchRig rig) {
        Shuffle shuffle = new Shuffle(rig.options().seed());
        List<SmallCase> cases = SmallPlan.cases(rig.options());
        for (int r = 1; r <= rig.options().runs(); r++) {
            for (SmallCase k : cases) {
                List<Setup> order = shuffle.order(k.setups(), SmallPlan.NEIGHBOURHOODS, k.workload(), r);
                for (int i = 0; i < order.size(); i++) {
                    measure(rig, order.get(i), r, k, i + 1);
                }
                hopBlocks(rig, shuffle, k, r);
            }
        }
    }

    /** The round's further blocks of the hop's setups ({@link SmallPlan#hopBlock}), after the case's own order. */
    private static void hopBlocks(BenchRig rig, Shuffle shuffle, SmallCase k, int round) {
        List<Setup> hop = SmallPlan.hopBlock(k);
        for (int b = 1; b < rig.options().hopBlocks() && !hop.isEmpty(); b++) {
            int block = rig.options().hopRound(round, b);
            List<Setup> order = shuffle.order(hop, k.workload(), block);
            for (int i = 0; i < order.size(); i++) {
                measure(rig, order.get(i), block, k, i + 1);
            }
        }
    }

    private static void measure(BenchRig rig, Setup s, int round, SmallCase k, int position) {
        int c = k.concurrency();
        boolean counted = s == Setup.CACHED;
        long b0 = counted ? rig.stats().cachedBackendRequests() : 0;
        BenchStats.ReceiptCounts r0 = s == Setup.RECEIPTS ? rig.stats(s).receiptCounts() : null;
        long j0 = rig.jvmTicks();
        long jit0 = rig.jitTicks();
        long n0 = rig.nginxTicks();
        Wrk.Result res = rig.wrk(s, k.files(), c, rig.options().wrkSeconds());
        // the JIT's compiler threads apart: they work off their queue in whichever setup's seconds it reaches, for
        // code of any setup of their JVM (a warm-up a one-application JVM finishes; performance.md)
        long jit = Math.max(0, rig.jitTicks() - jit0);
        long j = Math.max(0, rig.jvmTicks() - j0 - jit);
        long n = rig.nginxTicks() - n0;
        // The CPU over the client's seconds, for every setup alike. With receipts, nginx still holds the lines of
        // its last partial buffer (at most 64 KiB, about 1 % of a measurement's lines) for up to a second; the
        // counts wait for them, the CPU figures do not: waiting, they counted the harness's own reads of the
        // counters (all MBeans every 20 ms, up to 3 s) as the receipt path's cost (docs/performance.md).
        BenchStats.ReceiptCounts r1 = r0 == null ? null : rig.stats(s).awaitReceipts(r0, RECEIPT_WAIT_MS);
        String w = k.workload();
        RawResults out = rig.results();
        out.count(w, s.id(), round, "order", position);
        long backend = 0;
        if (counted) {
            backend = rig.stats().cachedBackendRequests() - b0;
            out.count(w, s.id(), round, "backend_requests", backend);
            out.count(w, s.id(), round, "requests", res.requests());
        }
        String receipted = "";
        if (r0 != null) {
            BenchStats.ReceiptCounts d = r1.since(r0);
            out.count(w, s.id(), round, "offloaded", d.offloaded());
            out.count(w, s.id(), round, "receipted", d.receipted());
            out.count(w, s.id(), round, "aborted", d.aborted());
            out.value(w, s.id(), round, "receipted_per_offload", d.offloaded() == 0 ? 0
                    : (double) d.receipted() / d.offloaded());
            receipted = ", " + d.receipted() + " receipts for " + d.offloaded() + " offloads";
        }
        if (res.statusErrors() != 0) {
            throw new BenchFailure("small files (" + w + "): " + res.statusErrors() + " non-2xx answers from setup "
                    + s.id());
        }
        if (res.requests() <= 0) {
            throw new BenchFailure("small files: no request completed against setup " + s.id());
        }
        double rps = res.requestsPerSecond();
        out.value(w, s.id(), round, "rps", rps);
        out.value(w, s.id(), round, "p50_ms", res.p50Us() / 1000.0);
        out.value(w, s.id(), round, "p99_ms", res.p99Us() / 1000.0);
        out.value(w, s.id(), round, "jvm_us_per_req", rig.seconds(j) * 1e6 / res.requests());
        out.value(w, s.id(), round, "jit_us_per_req", rig.seconds(jit) * 1e6 / res.requests());
        out.value(w, s.id(), round, "nginx_us_per_req", rig.seconds(n) * 1e6 / res.requests());
        // the servers' work per request (a shared machine's load moves it less than the rate)
        out.value(w, s.id(), round, "server_us_per_req", rig.seconds(j + n) * 1e6 / res.requests());
        out.count(w, s.id(), round, "socket_errors", res.socketErrors());
        // client-side TIME-WAIT sockets towards Tomcat's port (closed connections of the last 60 s, from nginx or
        // from wrk): a new upstream connection per request would leave thousands, the keep-alive pool about none
        out.count(w, s.id(), round, "time_wait_to_tomcat",
                TcpSockets.toRemotePort(TcpSockets.TIME_WAIT, rig.server(s).port()));
        rig.load().note();
        Log.info(String.format(Locale.ROOT, "%s %s round %d: %.6f req/s, p99 %d us%s", w, s.id(), round, rps,
                res.p99Us(), (counted ? ", " + backend + " of " + res.requests() + " requests reached the application"
                        : "") + receipted));
    }
}
