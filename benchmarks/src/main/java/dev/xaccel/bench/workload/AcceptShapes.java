package dev.xaccel.bench.workload;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import dev.xaccel.bench.client.PausingClients;
import dev.xaccel.bench.run.BenchFailure;
import dev.xaccel.bench.run.Log;
import dev.xaccel.bench.run.RawResults;
import dev.xaccel.bench.run.Sleep;
import dev.xaccel.bench.server.BareAccelServlet;
import dev.xaccel.bench.setup.BenchRig;
import dev.xaccel.bench.system.ContextSwitches;
import dev.xaccel.bench.system.StraceCount;
import dev.xaccel.bench.system.TcpSockets;

/**
 * Seed 001 reproduced as far as this machine allows: the article measured FreeBSD's {@code httpready} accept
 * filter with {@code ab} (one request per connection) against an event-driven server at four shapes — local c=4
 * (+10%), LAN c=1000 (+10%), LAN c=4 (+25%), LAN c=1 (2×). Here the same shapes run against Tomcat's two
 * accept-filter connectors ({@code acceptFilter=none} and {@code httpready}, which is {@code TCP_DEFER_ACCEPT} on
 * Linux), with {@link PausingClients}: a LAN client is emulated by a pause of {@value #LAN_PAUSE_US} µs between
 * the established connection and its request (no netem here). The answer is the smallest there is, the bare
 * servlet's empty 200 ({@link BareAccelServlet}, behind the stand-in auth filter), like the article's hello-world
 * server. Per measurement:
 * requests/s, p50/p99, the JVM's CPU per request and its threads' context switches per request (wake-ups); with
 * strace, one extra traced run per shape and connector counts the system calls per request (the rate of that run
 * is not used: tracing slows every call).
 */
public final class AcceptShapes {

    /** One shape of the article. */
    public record Shape(String id, String label, int concurrency, long pauseMicros, double article) {

        public String workload() {
            return PREFIX + id;
        }
    }

    /** Workload names of the raw results start with this. */
    static final String PREFIX = "seed001-";
    /** The emulated round trip of a LAN client between its handshake and its request. */
    public static final long LAN_PAUSE_US = 1000;
    /** The request of every client: an empty 200 after the token check, without file system call. */
    static final String PATH = BareAccelServlet.CONTEXT + "/files/small-000.bin";
    /** Seconds of the traced run per shape and connector. */
    public static final int STRACE_SECONDS = 2;
    /** The system calls whose counts per request the report shows (others are summed as "other"). */
    public static final List<String> CALLS = List.of("accept", "epoll_wait", "read", "write", "writev", "sendfile",
            "close", "setsockopt", "futex", "epoll_ctl");

    public static final List<Shape> SHAPES = List.of(
            new Shape("local-c4", "local, c=4", 4, 0, 1.10),
            new Shape("lan-c1000", "LAN (1 ms pause), c=1000", 1000, LAN_PAUSE_US, 1.10),
            new Shape("lan-c4", "LAN (1 ms pause), c=4", 4, LAN_PAUSE_US, 1.25),
            new Shape("lan-c1", "LAN (1 ms pause), c=1", 1, LAN_PAUSE_US, 2.0));

    private static final String PLAIN = "plain";
    private static final String DEFER = "defer";

    void run(BenchRig rig) {
        if (rig.tomcat().acceptFilterPort().isEmpty()) {
            Log.info("seed 001 shapes: no accept-filter connector in this build, skipped");
            return;
        }
        // --quick: two shapes, enough to see that the client and the report work
        List<Shape> shapes = rig.options().quick() ? List.of(SHAPES.get(0), SHAPES.get(3)) : SHAPES;
        for (int r = 1; r <= rig.options().sideRuns(); r++) {
            for (Shape s : shapes) {
                List<String> order = new ArrayList<>(List.of(PLAIN, DEFER));
                if (r % 2 == 0) {
                    Collections.reverse(order);
                }
                for (String kind : order) {
                    measure(rig, s, kind, r);
                }
            }
        }
        if (!rig.options().quick() && StraceCount.usable(rig.processes())) {
            for (Shape s : SHAPES) {
                for (String kind : List.of(PLAIN, DEFER)) {
                    traced(rig, s, kind);
                }
            }
        }
    }

    /** The previous run's connections close, and none waits in SYN-RECV (up to 10 s). */
    private static void settle(BenchRig rig, String kind) {
        Sleep.millis(200);
        int port = port(rig, kind);
        for (int i = 0; i < 100 && TcpSockets.atLocalPort(TcpSockets.SYN_RECV, port) > 0; i++) {
            Sleep.millis(100);
        }
    }

    private static int port(BenchRig rig, String kind) {
        return kind.equals(PLAIN) ? rig.tomcat().acceptPlainPort() : rig.tomcat().acceptFilterPort().getAsInt();
    }

    private static void measure(BenchRig rig, Shape s, String kind, int round) {
        PausingClients clients = new PausingClients(port(rig, kind), PATH, rig.token(), rig.secret(),
                s.pauseMicros());
        settle(rig, kind);
        long j0 = rig.jvmTicks();
        ContextSwitches.Snapshot w0 = ContextSwitches.of(rig.tomcat().pid());
        PausingClients.Result res = clients.run(s.concurrency(), rig.options().acceptSeconds());
        long j = rig.jvmTicks() - j0;
        long w = ContextSwitches.of(rig.tomcat().pid()).since(w0);
        if (res.statusErrors() != 0) {
            throw new BenchFailure("seed 001 " + s.id() + " " + kind + ": " + res.statusErrors() + " non-2xx answers");
        }
        if (res.requests() <= 0) {
            throw new BenchFailure("seed 001 " + s.id() + " " + kind + ": no request completed (" + res.failures()
                    + " failed connections)");
        }
        RawResults out = rig.results();
        String wl = s.workload();
        out.value(wl, kind, round, "rps", res.requestsPerSecond());
        out.value(wl, kind, round, "p50_ms", res.p50Us() / 1000.0);
        out.value(wl, kind, round, "p99_ms", res.p99Us() / 1000.0);
        out.value(wl, kind, round, "jvm_us_per_req", rig.seconds(j) * 1e6 / res.requests());
        out.value(wl, kind, round, "wakeups_per_req", (double) w / res.requests());
        out.count(wl, kind, round, "failures", res.failures());
        out.count(wl, kind, round, "requests", res.requests());
        rig.load().note();
        Log.info(String.format(Locale.ROOT, "seed001 %s %s round %d: %.0f req/s, p99 %d us, %.1f us CPU and %.2f"
                + " wake-ups per request, %d failed connections", s.id(), kind, round, res.requestsPerSecond(),
                res.p99Us(), rig.seconds(j) * 1e6 / res.requests(), (double) w / res.requests(), res.failures()));
    }

    /** One traced run: system calls per request by name (round 0 marks the traced run in the raw results). */
    private static void traced(BenchRig rig, Shape s, String kind) {
        PausingClients clients = new PausingClients(port(rig, kind), PATH, rig.token(), rig.secret(),
                s.pauseMicros());
        settle(rig, kind);
        StraceCount strace = StraceCount.attach(rig.processes(), rig.tomcat().pid(),
                rig.work().resolve("strace-" + s.id() + "-" + kind + ".txt"));
        PausingClients.Result res;
        Map<String, Long> calls;
        try {
            res = clients.run(s.concurrency(), STRACE_SECONDS);
        } finally {
            calls = strace.stop();
        }
        if (res.requests() <= 0) {
            Log.info("seed001 " + s.id() + " " + kind + " traced: no request completed; no system call counts");
            return;
        }
        RawResults out = rig.results();
        long other = 0;
        long all = 0;
        for (Map.Entry<String, Long> e : calls.entrySet()) {
            all += e.getValue();
            if (!CALLS.contains(e.getKey())) {
                other += e.getValue();
            }
        }
        for (String c : CALLS) {
            out.value(s.workload(), kind, 0, "sc_" + c, (double) calls.getOrDefault(c, 0L) / res.requests());
        }
        out.value(s.workload(), kind, 0, "sc_other", (double) other / res.requests());
        out.value(s.workload(), kind, 0, "sc_all", (double) all / res.requests());
        Log.info(String.format(Locale.ROOT, "seed001 %s %s traced: %d requests, %.1f system calls per request (%s)",
                s.id(), kind, res.requests(), (double) all / res.requests(), calls));
    }
}
