package dev.xaccel.testsupport.tomcat;

import dev.xaccel.testsupport.Poll;
import dev.xaccel.testsupport.Ports;
import dev.xaccel.testsupport.Processes;
import dev.xaccel.testsupport.TemplateRenderer;
import dev.xaccel.testsupport.TestPaths;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * The real Tomcat distribution (CATALINA_HOME, unpacked by the build) run the way users run it: a CATALINA_BASE of
 * its own ({@code conf/} from the distribution, the test's {@code server.xml}, jars in {@code lib/}, applications
 * in {@code webapps/}), started and stopped with {@code bin/catalina.sh}, in a clean environment (JAVA_HOME of
 * the test JVM, no JAVA_OPTS/JRE_HOME from outside). Tomcat's own output goes to {@code logs/catalina.out}, what
 * catalina.sh prints to {@code logs/catalina-sh.out}. Stopped through the shutdown port, then by PID if it
 * lingers.
 * <pre>
 * try (CatalinaLauncher tomcat = CatalinaLauncher.builder(home, base)
 *         .serverXml("...&lt;Server port=\"${SHUTDOWN_PORT}\"...&lt;Connector port=\"${HTTP_PORT}\" .../&gt;...")
 *         .library(connectorJar).file("webapps/ROOT/index.html", "hello\n").start()) {
 *     tomcat.awaitLog("Server startup in", Duration.ofSeconds(60));
 * }
 * </pre>
 */
public final class CatalinaLauncher implements AutoCloseable {

    /** What catalina.sh logs once every connector and application has started. */
    public static final String STARTED = "Server startup in";

    private final Path home;
    private final Path base;
    private final int httpPort;
    private final int shutdownPort;
    private final Map<String, String> env;
    private final long pid;
    private boolean running = true;

    private CatalinaLauncher(Builder b, Map<String, String> env, long pid) {
        this.home = b.home;
        this.base = b.base;
        this.httpPort = b.httpPort;
        this.shutdownPort = b.shutdownPort;
        this.env = env;
        this.pid = pid;
    }

    /**
     * A Tomcat of the distribution at {@code catalinaHome} with {@code catalinaBase} as its base (deleted and made
     * again at start).
     */
    public static Builder builder(Path catalinaHome, Path catalinaBase) {
        return new Builder(catalinaHome, catalinaBase);
    }

    public Path home() {
        return home;
    }

    public Path base() {
        return base;
    }

    /** The port of {@code ${HTTP_PORT}}. */
    public int httpPort() {
        return httpPort;
    }

    /** The port of {@code ${SHUTDOWN_PORT}}. */
    public int shutdownPort() {
        return shutdownPort;
    }

    /** {@code http://127.0.0.1:<httpPort><path>}. */
    public String url(String path) {
        return "http://127.0.0.1:" + httpPort + path;
    }

    /** The Tomcat JVM's PID (from CATALINA_PID). */
    public long pid() {
        return pid;
    }

    public boolean isAlive() {
        return Processes.alive(pid);
    }

    /** {@code logs/catalina.out}: what Tomcat printed. */
    public Path catalinaOut() {
        return base.resolve("logs/catalina.out");
    }

    /** The end of catalina.out (up to 200,000 characters), for assertions and failure messages. */
    public String log() {
        return TestPaths.tail(catalinaOut(), 200_000);
    }

    /**
     * Waits for {@code marker} in catalina.out, e.g. {@link #STARTED}; returns the log then.
     *
     * @throws AssertionError with the log when it does not come within {@code timeout} or Tomcat exits
     */
    public String awaitLog(String marker, Duration timeout) {
        boolean found = Poll.until(timeout, Duration.ofMillis(100), () -> log().contains(marker) || !isAlive());
        String log = log();
        if (!found || !log.contains(marker)) {
            throw new AssertionError("no [" + marker + "] within " + timeout + " in " + catalinaOut()
                    + (isAlive() ? "" : " (Tomcat exited)") + ":\n" + log);
        }
        return log;
    }

    /**
     * {@code catalina.sh stop <timeout>} (the shutdown port), then waits for the JVM to end; one that lingers is
     * stopped by PID (SIGTERM, then SIGKILL).
     *
     * @return whether Tomcat ended by itself within {@code timeout}
     * @throws IllegalStateException when catalina.sh stop fails (Tomcat is stopped by PID all the same)
     */
    public boolean stop(Duration timeout) throws IOException {
        if (!running) {
            return true;
        }
        running = false;
        Optional<Integer> status = catalina(env, base, home, Duration.ofSeconds(timeout.toSeconds() + 30), "stop",
                Long.toString(Math.max(1, timeout.toSeconds())));
        boolean exited = ProcessHandle.of(pid).map(p -> Processes.awaitExit(p, timeout.plusSeconds(5))).orElse(true);
        if (!exited) {
            Processes.stop(pid, null, Duration.ZERO, Duration.ofSeconds(5));
        }
        if (status.isEmpty() || status.get() != 0) {
            throw new IllegalStateException("catalina.sh stop failed (" + status.map(s -> "exit " + s)
                    .orElse("timeout") + "):\n" + TestPaths.tail(base.resolve("logs/catalina-sh.out"), 3000));
        }
        return exited;
    }

    /** {@link #stop(Duration) stop} with 20 seconds. */
    @Override
    public void close() throws IOException {
        stop(Duration.ofSeconds(20));
    }

    private static Optional<Integer> catalina(Map<String, String> env, Path base, Path home, Duration timeout,
            String... args) throws IOException {
        List<String> command = new ArrayList<>(List.of("sh", home.resolve("bin/catalina.sh").toString()));
        command.addAll(List.of(args));
        ProcessBuilder pb = new ProcessBuilder(command);
        Map<String, String> environment = pb.environment();
        for (String inherited : List.of("JAVA_OPTS", "CATALINA_OPTS", "JRE_HOME", "CATALINA_TMPDIR")) {
            environment.remove(inherited);
        }
        environment.putAll(env);
        return Processes.run(pb, base.resolve("logs/catalina-sh.out"), timeout);
    }

    /** The CATALINA_BASE, the environment and the ports (chosen when the builder is made). */
    public static final class Builder {
        private final Path home;
        private final Path base;
        private final int httpPort = Ports.freeLoopbackPort();
        private final int shutdownPort = Ports.freeLoopbackPort();
        private String serverXml;
        private final List<Path> baseLibraries = new ArrayList<>();
        private final List<Path> homeLibraries = new ArrayList<>();
        private final Map<String, String> files = new LinkedHashMap<>();
        private final Map<String, Path> copies = new LinkedHashMap<>();
        private final Map<String, String> env = new LinkedHashMap<>();
        private String catalinaOpts = "-Xmx256m";
        private Duration startTimeout = Duration.ofSeconds(90);

        private Builder(Path home, Path base) {
            this.home = home.toAbsolutePath();
            this.base = base.toAbsolutePath();
        }

        /** The port {@code ${HTTP_PORT}} of the server.xml stands for. */
        public int httpPort() {
            return httpPort;
        }

        /** The port {@code ${SHUTDOWN_PORT}} of the server.xml stands for. */
        public int shutdownPort() {
            return shutdownPort;
        }

        /** {@code conf/server.xml}: a template with the placeholders {@code ${HTTP_PORT}}, {@code ${SHUTDOWN_PORT}}. */
        public Builder serverXml(String template) {
            this.serverXml = template;
            return this;
        }

        /** A jar for {@code $CATALINA_BASE/lib}. */
        public Builder library(Path jar) {
            baseLibraries.add(jar);
            return this;
        }

        /** A jar for {@code $CATALINA_HOME/lib} (replacing one of the same name), as users install server jars. */
        public Builder homeLibrary(Path jar) {
            homeLibraries.add(jar);
            return this;
        }

        /** A text file of the base, e.g. {@code webapps/ROOT/index.html}. */
        public Builder file(String relative, String content) {
            files.put(relative, content);
            return this;
        }

        /** A file copied into the base, e.g. a WAR as {@code webapps/ROOT.war}. */
        public Builder copy(Path source, String relative) {
            copies.put(relative, source);
            return this;
        }

        /** An environment variable of Tomcat's JVM (e.g. the application's settings). */
        public Builder env(String name, String value) {
            env.put(name, value);
            return this;
        }

        public Builder env(Map<String, String> more) {
            env.putAll(more);
            return this;
        }

        /** CATALINA_OPTS (default {@code -Xmx256m}). */
        public Builder catalinaOpts(String opts) {
            this.catalinaOpts = opts;
            return this;
        }

        /** How long start waits for the HTTP port (default 90 s). */
        public Builder startTimeout(Duration timeout) {
            this.startTimeout = timeout;
            return this;
        }

        /**
         * Makes the base, runs {@code catalina.sh start} and waits until Tomcat listens on the HTTP port (seen
         * without connecting: {@link Ports#listening}). Waiting for the applications is {@link #awaitLog}'s.
         *
         * @throws IllegalStateException with catalina.sh's and Tomcat's output when it does not start
         */
        public CatalinaLauncher start() throws IOException {
            if (!Files.isRegularFile(home.resolve("bin/catalina.sh"))) {
                throw new IllegalStateException("no Tomcat distribution at " + home
                        + ": the build unpacks org.apache.tomcat:tomcat (tar.gz) there in pre-integration-test");
            }
            if (serverXml == null) {
                throw new IllegalStateException("no server.xml");
            }
            prepareBase();
            Map<String, String> environment = new LinkedHashMap<>(env);
            environment.put("JAVA_HOME", System.getProperty("java.home"));
            environment.put("CATALINA_HOME", home.toString());
            environment.put("CATALINA_BASE", base.toString());
            environment.put("CATALINA_PID", base.resolve("catalina.pid").toString());
            environment.put("CATALINA_OUT", base.resolve("logs/catalina.out").toString());
            environment.put("CATALINA_OPTS", catalinaOpts);
            Optional<Integer> status = catalina(environment, base, home, Duration.ofSeconds(60), "start");
            if (status.isEmpty() || status.get() != 0) {
                throw new IllegalStateException("catalina.sh start failed (" + status.map(s -> "exit " + s)
                        .orElse("timeout") + "):\n" + TestPaths.tail(base.resolve("logs/catalina-sh.out"), 3000));
            }
            long pid = Long.parseLong(Files.readString(base.resolve("catalina.pid")).trim());
            CatalinaLauncher tomcat = new CatalinaLauncher(this, environment, pid);
            boolean bound = Poll.until(startTimeout, Duration.ofMillis(250),
                    () -> !Processes.alive(pid) || Ports.listening(httpPort));
            if (!bound || !Processes.alive(pid)) {
                String why = Processes.alive(pid) ? "did not bind port " + httpPort + " within " + startTimeout
                        : "exited";
                Processes.stop(pid, null, Duration.ZERO, Duration.ofSeconds(5));
                throw new IllegalStateException("Tomcat " + why + ":\n" + TestPaths.tail(tomcat.catalinaOut(), 6000));
            }
            return tomcat;
        }

        private void prepareBase() throws IOException {
            TestPaths.fresh(base);
            for (String d : List.of("conf", "logs", "temp", "work", "lib", "webapps")) {
                Files.createDirectories(base.resolve(d));
            }
            try (Stream<Path> conf = Files.list(home.resolve("conf"))) {
                for (Path f : conf.filter(Files::isRegularFile).toList()) {
                    Files.copy(f, base.resolve("conf").resolve(f.getFileName()));
                }
            }
            Files.writeString(base.resolve("conf/server.xml"), TemplateRenderer.render(serverXml,
                    Map.of("HTTP_PORT", Integer.toString(httpPort), "SHUTDOWN_PORT", Integer.toString(shutdownPort))),
                    StandardCharsets.UTF_8);
            for (Path jar : baseLibraries) {
                Files.copy(jar, base.resolve("lib").resolve(jar.getFileName()));
            }
            for (Path jar : homeLibraries) {
                Files.copy(jar, home.resolve("lib").resolve(jar.getFileName()), StandardCopyOption.REPLACE_EXISTING);
            }
            for (Map.Entry<String, Path> c : copies.entrySet()) {
                Path target = base.resolve(c.getKey());
                Files.createDirectories(target.getParent());
                Files.copy(c.getValue(), target);
            }
            for (Map.Entry<String, String> f : files.entrySet()) {
                Path target = base.resolve(f.getKey());
                Files.createDirectories(target.getParent());
                Files.writeString(target, f.getValue(), StandardCharsets.UTF_8);
            }
        }
    }
}
