package dev.xaccel.testsupport.tomcat;

import dev.xaccel.testsupport.Poll;
import dev.xaccel.testsupport.Ports;
import dev.xaccel.testsupport.Processes;
import dev.xaccel.testsupport.TestPaths;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * An application server in a child JVM of its own, so that a test can do to it what happens to real servers: kill
 * it with SIGKILL mid-request, start it again on the same port, run several of them side by side. The child runs
 * {@code mainClass} (typically a main that starts an {@link EmbeddedTomcat} on the port it is given) with the test's
 * own class path, as {@code java <options> -Dbasedir=<dir> -cp <class path> <mainClass> --port <port> <args...>}; its
 * output goes to {@code <dir>/console.log}, its java.util.logging to {@code <dir>/target/it-logs/jul.log}
 * ({@code basedir} is {@code <dir>}). It counts as started once its port listens (seen without connecting). Closing
 * stops it by PID (SIGTERM, then SIGKILL).
 * <pre>
 * try (ForkedTomcat node = ForkedTomcat.builder(Node.class.getName(), dir).args("--root", root.toString()).start()) {
 *     node.kill();      // SIGKILL, returns once it is gone
 *     node.restart();   // the same command, the same port
 * }
 * </pre>
 */
public final class ForkedTomcat implements AutoCloseable {

    private final Builder spec;
    private volatile Process process;

    private ForkedTomcat(Builder spec, Process process) {
        this.spec = spec;
        this.process = process;
    }

    /** A child JVM running {@code mainClass} with {@code dir} as its directory (made fresh at the first start). */
    public static Builder builder(String mainClass, Path dir) {
        return new Builder(mainClass, dir);
    }

    /** The class path of the running tests (Surefire's and Failsafe's real one, not their booter jar). */
    public static String testClassPath() {
        return System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
    }

    public int port() {
        return spec.port;
    }

    /** {@code http://127.0.0.1:<port><path>}. */
    public String url(String path) {
        return "http://127.0.0.1:" + spec.port + path;
    }

    public long pid() {
        return process.pid();
    }

    public boolean isAlive() {
        return process.isAlive();
    }

    /** {@code <dir>/console.log}. */
    public Path consoleLog() {
        return spec.dir.resolve("console.log");
    }

    /** The end of the console log, for failure messages. */
    public String log() {
        return TestPaths.tail(consoleLog(), 20_000);
    }

    /** SIGKILL, as the kernel's OOM killer or a crash would end it; returns once the JVM is gone. */
    public void kill() {
        process.destroyForcibly();
        if (!Processes.awaitExit(process.toHandle(), Duration.ofSeconds(10))) {
            throw new IllegalStateException("JVM " + process.pid() + " still alive 10 s after SIGKILL");
        }
    }

    /** Starts the same command again (same port, same arguments) once the previous JVM is gone. */
    public ForkedTomcat restart() throws IOException {
        if (process.isAlive()) {
            throw new IllegalStateException("still running: kill() or close() it first");
        }
        process = spec.launch();
        return this;
    }

    /** SIGTERM (the JVM's shutdown hooks run, Tomcat stops), then SIGKILL after 10 s. */
    @Override
    public void close() {
        Processes.stop(process.toHandle(), null, Duration.ZERO, Duration.ofSeconds(10));
    }

    /** The command: main class, directory, port, arguments, JVM options. */
    public static final class Builder {
        private final String mainClass;
        private final Path dir;
        private int port = Ports.freeLoopbackPort();
        private final List<String> args = new ArrayList<>();
        private final List<String> jvmOptions = new ArrayList<>(List.of("-Xmx192m", "-XX:+UseSerialGC",
                "-XX:TieredStopAtLevel=1", "-Djava.awt.headless=true"));
        private String classPath = testClassPath();
        private Duration startTimeout = Duration.ofSeconds(60);

        private Builder(String mainClass, Path dir) {
            this.mainClass = mainClass;
            this.dir = dir.toAbsolutePath();
        }

        /** The port passed as {@code --port} (default: a free loopback port). */
        public Builder port(int fixed) {
            this.port = fixed;
            return this;
        }

        public int port() {
            return port;
        }

        /** Arguments after {@code --port <port>}. */
        public Builder args(String... more) {
            args.addAll(List.of(more));
            return this;
        }

        /** A JVM option besides the defaults ({@code -Xmx192m -XX:+UseSerialGC -XX:TieredStopAtLevel=1}). */
        public Builder jvmOption(String option) {
            jvmOptions.add(option);
            return this;
        }

        public Builder classPath(String path) {
            this.classPath = path;
            return this;
        }

        public Builder startTimeout(Duration timeout) {
            this.startTimeout = timeout;
            return this;
        }

        /** Makes the directory fresh and starts the JVM; returns once its port listens. */
        public ForkedTomcat start() throws IOException {
            TestPaths.fresh(dir);
            return new ForkedTomcat(this, launch());
        }

        private Process launch() throws IOException {
            List<String> command = new ArrayList<>();
            command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
            command.addAll(jvmOptions);
            command.add("-Dbasedir=" + dir);
            command.addAll(List.of("-cp", classPath, mainClass, "--port", Integer.toString(port)));
            command.addAll(args);
            Files.createDirectories(dir);
            Process p = new ProcessBuilder(command).directory(dir.toFile()).redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.appendTo(dir.resolve("console.log").toFile())).start();
            boolean up = Poll.until(startTimeout, Duration.ofMillis(100), () -> !p.isAlive() || Ports.listening(port));
            if (!up || !p.isAlive()) {
                Processes.stop(p.toHandle(), null, Duration.ZERO, Duration.ofSeconds(5));
                throw new IllegalStateException(mainClass + (p.isAlive() ? " did not listen on " + port + " within "
                        + startTimeout : " exited") + ":\n" + TestPaths.tail(dir.resolve("console.log"), 6000));
            }
            return p;
        }
    }
}
