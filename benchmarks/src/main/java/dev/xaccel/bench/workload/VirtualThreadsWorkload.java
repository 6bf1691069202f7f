package dev.xaccel.bench.workload;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import dev.xaccel.bench.client.SlowClients;
import dev.xaccel.bench.client.Wrk;
import dev.xaccel.bench.run.BenchFailure;
import dev.xaccel.bench.run.Log;
import dev.xaccel.bench.run.RawResults;
import dev.xaccel.bench.server.BenchServer;
import dev.xaccel.bench.setup.BenchRig;
import dev.xaccel.bench.setup.TomcatServer;
import dev.xaccel.bench.system.CpuTicks;
import dev.xaccel.bench.system.Machine;

/**
 * Tomcat's {@code useVirtualThreads} (Java 21+) for direct serving: a second BenchServer JVM on a JDK of 21 or
 * later (this benchmark's own JVM may be 17) with two NIO connectors on the same contexts, {@code platform} (the
 * default pool of 200 threads) and {@code virtual} ({@code useVirtualThreads=true}), both tuned like the plain
 * connector. wrk at the highest small-file concurrency fetches the small files from {@code /stream/files}
 * (XAccelFilter serving them itself, sendfile above 48 KiB), alone and while {@value #SLOW_CLIENTS} slow clients
 * ({@link SlowClients}: half idle, half sending a byte per second) hold connections. Requests/s, p99, the JVM's
 * CPU per request, its thread count and resident memory. The JDK: {@code BENCH_VT_JAVA} (a {@code java} binary),
 * else the newest under {@code /usr/lib/jvm} with {@code JAVA_VERSION} 21 or later; without one the workload is
 * skipped and the report says so.
 */
public final class VirtualThreadsWorkload implements Workload {

    public static final String PREFIX = "threads-";
    public static final int SLOW_CLIENTS = 1000;
    public static final String PLATFORM = "platform";
    public static final String VIRTUAL = "virtual";
    private static final Pattern VERSION = Pattern.compile("(?m)^JAVA_VERSION=\"(\\d+)");

    private String note = "";

    /** What the report says about this workload's limits ("" when nothing). */
    public String note() {
        return note;
    }

    @Override
    public void run(BenchRig rig) {
        if (!Machine.isLinux()) {
            note = "Skipped: not Linux.";
            return;
        }
        Optional<Path> java = java21();
        if (java.isEmpty()) {
            note = "Skipped: no JDK 21+ found (set BENCH_VT_JAVA to its bin/java); useVirtualThreads needs Java 21.";
            Log.info("virtual threads: " + note);
            return;
        }
        String version = rig.processes().run(List.of(java.get().toString(), "-version")).output().lines()
                .findFirst().orElse("?");
        Log.info("virtual threads: a second Tomcat on " + java.get() + " (" + version + ")");
        Server server = start(rig, java.get());
        note = "Tomcat on " + version + " (" + java.get() + "), the benchmark's other setups on Java "
                + Runtime.version().feature() + ".";
        int c = rig.options().highestConcurrency();
        try {
            for (int r = 1; r <= rig.options().sideRuns(); r++) {
                for (String scenario : List.of("none", "slow")) {
                    List<String> order = new ArrayList<>(List.of(PLATFORM, VIRTUAL));
                    if (r % 2 == 0) {
                        Collections.reverse(order);
                    }
                    for (String kind : order) {
                        measure(rig, server, kind, scenario, r, c);
                    }
                }
            }
        } finally {
            rig.processes().stop(server.process());
        }
    }

    /** The second BenchServer: its process and its two ports. */
    record Server(Process process, int platformPort, int virtualPort) {
    }

    private static Server start(BenchRig rig, Path java) {
        Path work = rig.work().resolve("threads");
        Path ready = work.resolve("tomcat.ready");
        try {
            Files.createDirectories(work);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        Path logging = Path.of(System.getProperty("bench.dir", "benchmarks"),
                "src/main/resources/bench-logging.properties");
        List<String> cmd = new ArrayList<>(List.of(java.toString()));
        cmd.addAll(rig.options().jvmOptions());
        cmd.addAll(List.of("-Djava.util.logging.config.file=" + logging.toAbsolutePath(), "-cp", rig.classPath(),
                BenchServer.class.getName(), "--data", rig.data().dir().toString(), "--work",
                work.resolve("tomcat").toString(), "--ready", ready.toString(), "--token", rig.token()));
        for (String p : TomcatServer.PLAIN_PROPS) {
            cmd.addAll(List.of("--plain-prop", p, "--af-plain-prop", p));
        }
        cmd.addAll(List.of("--af-plain-prop", "useVirtualThreads=true"));
        Process p = rig.processes().start(rig.pinning().server(cmd), Map.of(), work.resolve("tomcat.log"));
        Map<String, String> m = TomcatServer.awaitReady(p, ready, work.resolve("tomcat.log"),
                "the virtual-thread Tomcat");
        Server s = new Server(p, Integer.parseInt(m.get("port")), Integer.parseInt(m.get("afPlainPort")));
        Log.info("virtual threads: pid " + p.pid() + ", platform threads on :" + s.platformPort()
                + ", virtual threads on :" + s.virtualPort());
        return s;
    }

    private static void measure(BenchRig rig, Server server, String kind, String scenario, int round, int c) {
        int port = kind.equals(PLATFORM) ? server.platformPort() : server.virtualPort();
        // half idle, half one byte per second, for the whole measurement plus 30 s
        Flood flood = scenario.equals("slow") ? Flood.start(rig, "threads-flood", port, SLOW_CLIENTS / 2,
                SLOW_CLIENTS - SLOW_CLIENTS / 2, rig.options().wrkSeconds() + 30) : null;
        try {
            long pid = server.process().pid();
            long j0 = CpuTicks.of(List.of(pid));
            Wrk.Result res = rig.wrk().run("http://127.0.0.1:" + port + "/stream/files", c,
                    rig.options().wrkSeconds(), Optional.empty());
            long j = CpuTicks.of(List.of(pid)) - j0;
            Map<String, Long> status = status(pid);
            if (res.statusErrors() != 0 || res.requests() <= 0) {
                throw new BenchFailure("virtual threads: " + res.statusErrors() + " non-2xx answers, " + res.requests()
                        + " requests (" + kind + ", " + scenario + ")");
            }
            String w = PREFIX + scenario + "-c" + c;
            RawResults out = rig.results();
            out.value(w, kind, round, "rps", res.requestsPerSecond());
            out.value(w, kind, round, "p99_ms", res.p99Us() / 1000.0);
            out.value(w, kind, round, "jvm_us_per_req", rig.seconds(j) * 1e6 / res.requests());
            out.count(w, kind, round, "threads", status.getOrDefault("Threads", 0L));
            out.count(w, kind, round, "rss_mib", status.getOrDefault("VmRSS", 0L) / 1024);
            rig.load().note();
            Log.info(String.format(Locale.ROOT, "threads %s c=%d %s round %d: %.0f req/s, p99 %d us, %.1f us CPU per"
                    + " request, %d threads", scenario, c, kind, round, res.requestsPerSecond(), res.p99Us(),
                    rig.seconds(j) * 1e6 / res.requests(), status.getOrDefault("Threads", 0L)));
        } finally {
            if (flood != null) {
                rig.processes().stop(flood.process());
            }
        }
    }

    /** {@code Threads} and {@code VmRSS} (kB) of {@code /proc/<pid>/status}. */
    static Map<String, Long> status(long pid) {
        Map<String, Long> m = new LinkedHashMap<>();
        try {
            for (String line : Files.readAllLines(Path.of("/proc", Long.toString(pid), "status"))) {
                for (String key : List.of("Threads", "VmRSS")) {
                    if (line.startsWith(key + ":")) {
                        m.put(key, Long.parseLong(line.substring(key.length() + 1).trim().split("\\s+")[0]));
                    }
                }
            }
        } catch (IOException | NumberFormatException e) {
            // gone or unreadable: nothing to report
        }
        return m;
    }

    /** {@code BENCH_VT_JAVA}, else the newest JDK 21+ under /usr/lib/jvm. */
    static Optional<Path> java21() {
        String env = System.getenv("BENCH_VT_JAVA");
        if (env != null && !env.isBlank()) {
            return Optional.of(Path.of(env));
        }
        Path best = null;
        int bestVersion = 0;
        try (DirectoryStream<Path> jdks = Files.newDirectoryStream(Path.of("/usr/lib/jvm"))) {
            for (Path jdk : jdks) {
                int v = feature(jdk.resolve("release"));
                Path bin = jdk.resolve("bin/java");
                if (v >= 21 && v > bestVersion && Files.isExecutable(bin)) {
                    best = bin;
                    bestVersion = v;
                }
            }
        } catch (IOException e) {
            return Optional.empty();
        }
        return Optional.ofNullable(best);
    }

    /** The feature version of a JDK's {@code release} file, 0 when unreadable. */
    static int feature(Path release) {
        try {
            Matcher m = VERSION.matcher(Files.readString(release));
            return m.find() ? Integer.parseInt(m.group(1)) : 0;
        } catch (IOException | RuntimeException e) {
            return 0;
        }
    }
}
