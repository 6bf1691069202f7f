package dev.xaccel.it.consumer;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;

import dev.xaccel.testsupport.Poll;
import dev.xaccel.testsupport.Ports;
import dev.xaccel.testsupport.Processes;
import dev.xaccel.testsupport.TestPaths;
import dev.xaccel.testsupport.nginx.NginxServer;

/**
 * nginx as docs/deploy-your-war.md starts it: the page's commands, run by bash in a directory that holds the
 * template, with the page's variables ({@code PREFIX}, {@code NGINX_PORT}, {@code TOMCAT_PORT}, {@code MEDIA_ROOT},
 * {@code NGINX_USER}) in the environment. nginx daemonizes, as the page leaves it; closing stops its master by the
 * PID of {@code logs/nginx.pid} (SIGQUIT, then SIGTERM, then SIGKILL).
 */
final class DocNginx implements AutoCloseable {

    private final Path prefix;
    private final int port;
    private final long pid;

    private DocNginx(Path prefix, int port, long pid) {
        this.prefix = prefix;
        this.port = port;
        this.pid = pid;
    }

    /** Runs {@code commands} in {@code templateDir}; returns once nginx listens on {@code NGINX_PORT}. */
    static DocNginx start(String commands, Path templateDir, Map<String, String> variables) throws IOException {
        Path prefix = Path.of(variables.get("PREFIX"));
        int port = Integer.parseInt(variables.get("NGINX_PORT"));
        Path log = prefix.resolveSibling(prefix.getFileName() + "-commands.log");
        Optional<Integer> status = run(commands, templateDir, variables, log);
        if (status.isEmpty() || status.get() != 0) {
            throw new IllegalStateException("the page's nginx commands failed (" + status.map(s -> "exit " + s)
                    .orElse("timeout") + "):\n" + TestPaths.tail(log, 4000));
        }
        Path pidFile = prefix.resolve("logs/nginx.pid");
        Optional<Long> pid = Poll.first(Duration.ofSeconds(15), () -> readPid(pidFile)
                .filter(p -> Ports.listening(port)));
        if (pid.isEmpty()) {
            readPid(pidFile).ifPresent(p -> Processes.stop(p, "QUIT", Duration.ofSeconds(5), Duration.ofSeconds(5)));
            throw new IllegalStateException("nginx did not listen on " + port + ":\n" + TestPaths.tail(log, 4000)
                    + TestPaths.tail(prefix.resolve("logs/error.log"), 4000));
        }
        return new DocNginx(prefix, port, pid.get());
    }

    /**
     * Runs {@code commands} with bash ({@code -e -o pipefail}) in {@code templateDir}, a fresh {@code PREFIX} and
     * {@code variables} in the environment, their output in {@code log}; the exit status (empty: still running
     * after a minute, then killed).
     */
    static Optional<Integer> run(String commands, Path templateDir, Map<String, String> variables, Path log)
            throws IOException {
        TestPaths.fresh(Path.of(variables.get("PREFIX")));
        ProcessBuilder pb = new ProcessBuilder("bash", "-e", "-o", "pipefail", "-c", commands)
                .directory(templateDir.toFile());
        pb.environment().putAll(variables);
        // the page says `nginx`: the binary the other tests use, first on the PATH
        pb.environment().put("PATH", NginxServer.findBinary().getParent() + ":" + System.getenv("PATH"));
        return Processes.run(pb, log, Duration.ofSeconds(60));
    }

    int port() {
        return port;
    }

    String accessLog() {
        return TestPaths.tail(prefix.resolve("logs/access.log"), 100_000);
    }

    String errorLog() {
        return TestPaths.tail(prefix.resolve("logs/error.log"), 100_000);
    }

    @Override
    public void close() {
        Processes.stop(pid, "QUIT", Duration.ofSeconds(5), Duration.ofSeconds(5));
    }

    private static Optional<Long> readPid(Path file) {
        try {
            String text = Files.exists(file) ? Files.readString(file).trim() : "";
            return text.isEmpty() ? Optional.empty() : Optional.of(Long.parseLong(text));
        } catch (IOException | NumberFormatException e) {
            return Optional.empty();
        }
    }
}
