package dev.xaccel.bench.setup;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;

import dev.xaccel.bench.run.BenchFailure;
import dev.xaccel.bench.run.Log;
import dev.xaccel.bench.run.Sleep;
import dev.xaccel.bench.server.BenchServer;
import dev.xaccel.bench.server.StoreAccount;
import dev.xaccel.bench.system.CpuPinning;
import dev.xaccel.bench.system.Processes;

/**
 * A BenchServer JVM (an embedded Tomcat), started as a process and ready once it has written its ports to the ready
 * file. A run starts two ({@link Role}): the hop's, which only setups 3, 12, 13 and 16 reach, and the one of every
 * other setup (1, 5, 10, 14, 15 and the backends of 2, 6 and 9, plus the accept-filter workload's connectors).
 */
public final class TomcatServer {

    /** The accept-filter connector of xaccel-tomcat-connector, when it is on the class path. */
    static final String ACCEPT_FILTER_PROTOCOL = "dev.xaccel.tomcat.AcceptFilterHttp11NioProtocol";
    /**
     * Tomcat's connector behind nginx (docs/small-files.md, layer 1): no keep-alive request limit, and an idle
     * timeout above nginx's upstream keepalive_timeout (60 s), so that nginx, not Tomcat, closes idle connections.
     */
    public static final List<String> PLAIN_PROPS = List.of("maxKeepAliveRequests=-1", "keepAliveTimeout=75000",
            "socket.appWriteBufSize=65536");
    /** The environment variable that passes the signed-link secret (the filter reads ${env:...}). */
    static final String SECRET_ENV = "BENCH_LINK_SECRET";

    private static final long START_TIMEOUT_MS = 60_000;

    /**
     * Which of the two. The hop's JVM serves nothing but the hop's contexts' requests, so that what its JIT compiles
     * is what one application behind nginx runs (with every setup in one JVM, 62 methods were made not entrant and
     * compiled again during four measured rounds: docs/performance.md); it alone has the Unix socket (setup 13).
     */
    public enum Role {
        /** Setups 1, 2, 5, 6, 9, 10, 14, 15 and the accept-filter workload: {@code tomcat.log}. */
        APPLICATION("tomcat"),
        /** Setups 3, 12, 13 and 16: {@code hop.log}. */
        HOP("hop");

        private final String name;

        Role(String name) {
            this.name = name;
        }

        /** The stem of its log, ready file and work directory in the run's directory. */
        public String fileName() {
            return name;
        }
    }

    /**
     * How to start it; {@code linksOut}, {@code acceptFilterProtocol} and {@code store} may be null (the hop's JVM
     * has none of them).
     */
    public record Launch(Role role, String java, List<String> jvmOptions, String classPath, Path loggingConfig,
            Path data, Path work, String token, String linkSecret, Path linksOut, String acceptFilterProtocol,
            int deferSeconds, BenchStore store, CpuPinning pinning) {
    }

    private final Process process;
    private final int port;
    private final OptionalInt xaccelPort;
    private final int acceptPlainPort;
    private final OptionalInt acceptFilterPort;
    private final int cachedExpires;
    private final Path receiptsFile;

    private TomcatServer(Process process, Map<String, String> ready) {
        this.process = process;
        this.port = Integer.parseInt(ready.get("port"));
        this.xaccelPort = ready.containsKey("xaccelPort") ? OptionalInt.of(Integer.parseInt(ready.get("xaccelPort")))
                : OptionalInt.empty();
        this.acceptPlainPort = Integer.parseInt(ready.get("afPlainPort"));
        this.acceptFilterPort = ready.containsKey("afPort") ? OptionalInt.of(Integer.parseInt(ready.get("afPort")))
                : OptionalInt.empty();
        this.cachedExpires = Integer.parseInt(ready.get("cachedExpires"));
        this.receiptsFile = Path.of(ready.get("receiptsFile"));
    }

    /** The protocol class of the accept-filter connector, or null when this build lacks it. */
    public static String acceptFilterProtocol() {
        try {
            Class.forName(ACCEPT_FILTER_PROTOCOL, false, TomcatServer.class.getClassLoader());
            return ACCEPT_FILTER_PROTOCOL;
        } catch (ClassNotFoundException | LinkageError e) {
            return null;
        }
    }

    public static TomcatServer start(Processes processes, Launch l) {
        Path ready = l.work().resolve(l.role().fileName() + ".ready");
        Path log = l.work().resolve(l.role().fileName() + ".log");
        List<String> cmd = new ArrayList<>(List.of(l.java()));
        cmd.addAll(l.jvmOptions());
        cmd.addAll(List.of("-Djava.util.logging.config.file=" + l.loggingConfig(), "-cp", l.classPath(),
                BenchServer.class.getName(), "--data", l.data().toString(), "--work", l.work().resolve(
                        l.role().fileName()).toString(), "--ready", ready.toString(), "--token", l.token(),
                "--link-secret", "${env:" + SECRET_ENV + "}"));
        if (l.linksOut() != null) {
            cmd.addAll(List.of("--links-out", l.linksOut().toString()));
        }
        for (String p : PLAIN_PROPS) {
            cmd.addAll(List.of("--plain-prop", p));
        }
        if (l.role() == Role.HOP) {
            cmd.addAll(List.of("--uds", HopSetups.socket(l.work()).toString()));
        }
        if (l.acceptFilterProtocol() != null) {
            // setup 1's connector: the xaccel protocol without accept filter, tuned like the plain one
            cmd.addAll(List.of("--xaccel-protocol", l.acceptFilterProtocol()));
            // acceptFilter=httpready is TCP_DEFER_ACCEPT on Linux; fail at startup if it cannot be applied
            cmd.addAll(List.of("--af-protocol", l.acceptFilterProtocol(), "--af-plain-prop", "acceptFilter=none",
                    "--af-prop", "acceptFilter=httpready", "--af-prop", "deferAcceptSeconds=" + l.deferSeconds(),
                    "--af-prop", "acceptFilterFailOnError=true"));
        }
        Map<String, String> env = new LinkedHashMap<>(Map.of(SECRET_ENV, l.linkSecret()));
        if (l.store() != null) {
            // the remote setups' application (/remote): presigns with the store's credentials
            cmd.addAll(List.of("--store-endpoint", l.store().endpoint()));
            env.put(StoreAccount.SECRET_ENV, l.store().secret());
        }
        String what = l.role() == Role.HOP ? "the hop's Tomcat" : "Tomcat";
        Log.info("starting " + what + " (BenchServer)" + (l.acceptFilterProtocol() == null ? ""
                : " with the accept-filter connector " + l.acceptFilterProtocol()));
        Process p = processes.start(l.pinning().server(cmd), env, log);
        TomcatServer t = new TomcatServer(p, awaitReady(p, ready, log, what));
        Log.info(what + " pid " + t.pid() + " on 127.0.0.1:" + t.port + (t.xaccelPort.isPresent()
                ? ", xaccel connector on " + t.xaccelPort.getAsInt() : "") + (l.role() == Role.HOP
                        ? " and " + HopSetups.socket(l.work()) : " (accept workload: plain connector "
                        + t.acceptPlainPort + (t.acceptFilterPort.isPresent() ? ", accept-filter connector "
                                + t.acceptFilterPort.getAsInt() : "") + ")"));
        return t;
    }

    /**
     * The {@code key=value} lines (pid, ports) of a BenchServer's ready file once its process has written it; fails,
     * naming it {@code what}, when the process ends first or takes longer than 60 s.
     */
    public static Map<String, String> awaitReady(Process p, Path ready, Path log, String what) {
        long deadline = System.currentTimeMillis() + START_TIMEOUT_MS;
        while (!Files.exists(ready)) {
            if (!p.isAlive() || System.currentTimeMillis() > deadline) {
                Log.tail(log, 40);
                throw new BenchFailure(what + " did not start" + (p.isAlive() ? " within 60 s" : ""));
            }
            Sleep.millis(100);
        }
        Map<String, String> m = new LinkedHashMap<>();
        try {
            for (String line : Files.readAllLines(ready)) {
                int eq = line.indexOf('=');
                if (eq > 0) {
                    m.put(line.substring(0, eq), line.substring(eq + 1));
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return m;
    }

    public long pid() {
        return process.pid();
    }

    public int port() {
        return port;
    }

    /**
     * The port of setup 1: the xaccel connector ({@value #ACCEPT_FILTER_PROTOCOL}, {@code acceptFilter=none}), or
     * the plain one when this build lacks it.
     */
    public int directPort() {
        return xaccelPort.orElse(port);
    }

    /** Whether setup 1 runs on the xaccel connector. */
    public boolean hasXaccelConnector() {
        return xaccelPort.isPresent();
    }

    public int acceptPlainPort() {
        return acceptPlainPort;
    }

    public OptionalInt acceptFilterPort() {
        return acceptFilterPort;
    }

    public int cachedExpires() {
        return cachedExpires;
    }

    /** The receipt log the {@code /receipts} filter (setup 16) reads, where nginx writes its receipt lines. */
    public Path receiptsFile() {
        return receiptsFile;
    }

    public String url(String path) {
        return "http://127.0.0.1:" + port + path;
    }
}
