package dev.xaccel.bench.workload;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

import dev.xaccel.bench.client.SlowClients;
import dev.xaccel.bench.client.Wrk;
import dev.xaccel.bench.run.BenchFailure;
import dev.xaccel.bench.run.BenchOptions;
import dev.xaccel.bench.run.Log;
import dev.xaccel.bench.run.RawResults;
import dev.xaccel.bench.run.Sleep;
import dev.xaccel.bench.setup.BenchRig;
import dev.xaccel.bench.setup.BenchStats;
import dev.xaccel.bench.system.Machine;
import dev.xaccel.bench.system.TcpSockets;

/**
 * The accept filter (Linux): normal clients (wrk, small files) against the two dedicated connectors,
 * {@code acceptFilter=none} ("plain") and TCP_DEFER_ACCEPT ("defer"), without and with misbehaving clients
 * ({@link SlowClients}: idle connections that never send, slow ones that send a byte per second). Requests/s,
 * p99, Tomcat's sampled connection and busy-thread maxima, and the connections the kernel holds in SYN-RECV.
 */
public final class AcceptFilterWorkload implements Workload {

    private static final String PLAIN = "plain";
    private static final String DEFER = "defer";

    private String note = "";

    /** What the report should say about this workload's limits ("" when nothing). */
    public String note() {
        return note;
    }

    static String base(int port) {
        return "http://127.0.0.1:" + port + "/stream/files";
    }

    @Override
    public void run(BenchRig rig) {
        if (!Machine.isLinux()) {
            note = "Skipped: not Linux.";
            return;
        }
        List<String> kinds = new ArrayList<>(List.of(PLAIN));
        if (rig.tomcat().acceptFilterPort().isPresent()) {
            kinds.add(DEFER);
        } else {
            note = "The accept-filter connector (xaccel-tomcat-connector) was not found in this build: only the plain"
                    + " NIO connector was measured.";
            Log.info(note);
        }
        // seed 001's shapes first: the flood leaves connections in SYN-RECV for the defer period
        new AcceptShapes().run(rig);
        for (int r = 1; r <= rig.options().sideRuns(); r++) {
            for (String scenario : List.of("none", "flood")) {
                List<String> order = new ArrayList<>(kinds);
                if (r % 2 == 0) {
                    Collections.reverse(order);
                }
                for (String kind : order) {
                    measure(rig, kind, r, scenario);
                }
            }
        }
    }

    private static void measure(BenchRig rig, String kind, int round, String scenario) {
        int port = kind.equals(PLAIN) ? rig.tomcat().acceptPlainPort() : rig.tomcat().acceptFilterPort().getAsInt();
        String name = kind.equals(PLAIN) ? "accept-plain" : "accept-filter";
        awaitIdle(rig, name);
        BenchOptions o = rig.options();
        // the misbehaving clients stay for the whole block: all concurrencies plus 30 s
        Flood flood = scenario.equals("flood") ? Flood.start(rig, "flood", port, o.floodIdle(), o.floodSlow(),
                o.acceptSeconds() * o.acceptConcurrencies().size() + 30) : null;
        long connected = flood == null ? 0 : flood.connected();
        try {
            for (int c : rig.options().acceptConcurrencies()) {
                rig.stats().start();
                Wrk.Result res = rig.wrk().run(base(port), c, rig.options().acceptSeconds(), Optional.empty());
                BenchStats.Snapshot stats = rig.stats().read();
                int synRecv = TcpSockets.atLocalPort(TcpSockets.SYN_RECV, port);
                if (res.statusErrors() != 0) {
                    throw new BenchFailure("accept: non-2xx answers (" + kind + ", " + scenario + ")");
                }
                if (res.requests() <= 0) {
                    throw new BenchFailure("accept: no request completed (" + kind + ", " + scenario + ", c=" + c
                            + ")");
                }
                String w = "accept-" + scenario + "-c" + c;
                RawResults out = rig.results();
                out.value(w, kind, round, "rps", res.requestsPerSecond());
                out.value(w, kind, round, "p99_ms", res.p99Us() / 1000.0);
                out.count(w, kind, round, "maxConnectionCount", stats.number(name, "maxConnectionCount"));
                out.count(w, kind, round, "maxBusyThreads", stats.number(name, "maxBusyThreads"));
                out.count(w, kind, round, "flood_connected", connected);
                out.count(w, kind, round, "syn_recv", synRecv);
                rig.load().note();
                Log.info(String.format(Locale.ROOT, "accept %s c=%d %s round %d: %.6f req/s, max connections %d,"
                        + " SYN-RECV %d", scenario, c, kind, round, res.requestsPerSecond(),
                        stats.number(name, "maxConnectionCount"), synRecv));
            }
        } finally {
            if (flood != null) {
                rig.processes().stop(flood.process());
            }
        }
    }

    /**
     * Waits (up to 25 s) until the connector holds no connection, so that no earlier run is counted (an idle NIO
     * connector reports 1: its acceptor counts itself before it blocks in accept()).
     */
    private static void awaitIdle(BenchRig rig, String name) {
        long n = 0;
        for (int i = 0; i < 250; i++) {
            n = rig.stats().read().get(name, "connectionCount").map(Long::parseLong).orElse(0L);
            if (n <= 1) {
                return;
            }
            Sleep.millis(100);
        }
        Log.info("connector " + name + " still holds " + (n - 1) + " connections after 25 s");
    }
}
