package dev.xaccel.spring.boot.autoconfigure;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * A real nginx (Debian's) for the Spring Boot tests, from a shipped template with {@code ${NAME}} placeholders.
 * <p>
 * Local to this module until {@code xaccel-test-support} has its {@code NginxServer} (the builder here has the
 * same shape, so the tests can switch by changing the type): the prefix directory with {@code conf/},
 * {@code logs/}, {@code tmp/}, one free loopback port as {@code ${NGINX_PORT}}, nginx in the foreground as a
 * child process, stopped by its PID. A missing nginx fails the test: CI installs it.
 */
final class NginxFixture implements AutoCloseable {

    private static final Pattern PLACEHOLDER = Pattern.compile("\\$\\{([A-Z][A-Z0-9_]*)}");

    private final Path prefix;
    private final int port;
    private final Process process;

    private NginxFixture(Path prefix, int port, Process process) {
        this.prefix = prefix;
        this.port = port;
        this.process = process;
    }

    static Builder builder(Path prefix) {
        return new Builder(prefix);
    }

    static final class Builder {
        private final Path prefix;
        private String template;
        private final Map<String, String> values = new LinkedHashMap<>();
        private final List<Path> read = new ArrayList<>();

        private Builder(Path prefix) {
            this.prefix = prefix.toAbsolutePath();
        }

        /** A file of the repository, found from the working directory upwards (e.g. {@code docs/nginx/x}). */
        Builder template(String repositoryPath) throws IOException {
            template = Files.readString(repositoryFile(repositoryPath), StandardCharsets.UTF_8);
            return this;
        }

        Builder value(String name, String value) {
            values.put(name, value);
            return this;
        }

        /** nginx's workers must read below this directory (started as root: run them as root if others cannot). */
        Builder workersRead(Path dir) {
            read.add(dir.toAbsolutePath());
            return this;
        }

        NginxFixture start() throws IOException {
            deleteTree(prefix);
            for (String dir : List.of("conf", "logs", "tmp")) {
                Files.createDirectories(prefix.resolve(dir));
            }
            Path mime = Path.of("/etc/nginx/mime.types");
            if (Files.isReadable(mime)) {
                Files.copy(mime, prefix.resolve("conf/mime.types"));
            } else {
                Files.writeString(prefix.resolve("conf/mime.types"), "types { text/plain txt; }\n");
            }
            int port = freePort();
            Map<String, String> all = new LinkedHashMap<>(values);
            all.put("NGINX_PORT", Integer.toString(port));
            all.put("PREFIX", prefix.toString());
            Files.writeString(prefix.resolve("conf/nginx.conf"), render(template, all), StandardCharsets.UTF_8);
            String globals = "daemon off;";
            if ("root".equals(System.getProperty("user.name")) && read.stream().anyMatch(d -> !othersCanEnter(d))) {
                globals += " user root;";
            }
            Process process = new ProcessBuilder(binary(), "-p", prefix + "/", "-e", "logs/error.log",
                    "-c", "conf/nginx.conf", "-g", globals)
                    .redirectErrorStream(true).redirectOutput(prefix.resolve("logs/stdout.log").toFile()).start();
            NginxFixture nginx = new NginxFixture(prefix, port, process);
            nginx.awaitListening();
            return nginx;
        }
    }

    /** Replaces every {@code ${NAME}}; one without a value is an error, nginx's own {@code $var} stay. */
    static String render(String template, Map<String, String> values) {
        Matcher m = PLACEHOLDER.matcher(template);
        StringBuilder out = new StringBuilder();
        while (m.find()) {
            String value = values.get(m.group(1));
            if (value == null) {
                throw new IllegalArgumentException("no value for ${" + m.group(1) + "} in the nginx template");
            }
            m.appendReplacement(out, Matcher.quoteReplacement(value));
        }
        return m.appendTail(out).toString();
    }

    static Path repositoryFile(String relative) {
        for (Path dir = Path.of("").toAbsolutePath(); dir != null; dir = dir.getParent()) {
            if (Files.isRegularFile(dir.resolve(relative))) {
                return dir.resolve(relative);
            }
        }
        throw new IllegalStateException(relative + " not found above " + Path.of("").toAbsolutePath());
    }

    int port() {
        return port;
    }

    List<String> accessLog() {
        Path log = prefix.resolve("logs/access.log");
        try {
            return Files.exists(log) ? Files.readAllLines(log, StandardCharsets.UTF_8) : List.of();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The access log line of the request sent with {@code X-Request-Id: id}; nginx may write it just after. */
    String awaitAccessLogLine(String requestId) {
        String needle = "rid=\"" + requestId + "\"";
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        while (System.nanoTime() < deadline) {
            for (String line : accessLog()) {
                if (line.contains(needle)) {
                    return line;
                }
            }
            pause(10);
        }
        throw new AssertionError("no access log line with " + needle + " in " + prefix.resolve("logs"));
    }

    String errorLog() {
        try {
            Path log = prefix.resolve("logs/error.log");
            return Files.exists(log) ? Files.readString(log, StandardCharsets.ISO_8859_1) : "";
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private void awaitListening() throws IOException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(15);
        while (System.nanoTime() < deadline) {
            if (!process.isAlive()) {
                throw new IOException("nginx exited with " + process.exitValue() + ": " + errorLog()
                        + Files.readString(prefix.resolve("logs/stdout.log")));
            }
            try (Socket s = new Socket()) {
                s.connect(new InetSocketAddress("127.0.0.1", port), 200);
                return;
            } catch (IOException notYet) {
                pause(20);
            }
        }
        close();
        throw new IOException("nginx did not listen on 127.0.0.1:" + port + ": " + errorLog());
    }

    /** SIGQUIT (graceful), then TERM, then KILL, for the master and its workers. */
    @Override
    public void close() {
        List<ProcessHandle> workers = process.descendants().toList();
        try {
            if (process.isAlive()) {
                new ProcessBuilder("kill", "-QUIT", Long.toString(process.pid())).start().waitFor(5, TimeUnit.SECONDS);
                if (!process.waitFor(5, TimeUnit.SECONDS)) {
                    process.destroyForcibly().waitFor(2, TimeUnit.SECONDS);
                }
            }
        } catch (IOException e) {
            process.destroyForcibly();
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        }
        workers.stream().filter(ProcessHandle::isAlive).forEach(ProcessHandle::destroyForcibly);
    }

    private static String binary() {
        if (Files.isExecutable(Path.of("/usr/sbin/nginx"))) {
            return "/usr/sbin/nginx";
        }
        for (String dir : System.getenv().getOrDefault("PATH", "").split(":")) {
            if (!dir.isEmpty() && Files.isExecutable(Path.of(dir, "nginx"))) {
                return Path.of(dir, "nginx").toString();
            }
        }
        throw new IllegalStateException("nginx not found: the end-to-end tests need it (apt-get install nginx; "
                + ".ci/run installs it)");
    }

    private static boolean othersCanEnter(Path dir) {
        try {
            for (Path p = dir; p != null; p = p.getParent()) {
                if (!Files.getPosixFilePermissions(p).contains(PosixFilePermission.OTHERS_EXECUTE)) {
                    return false;
                }
            }
            return true;
        } catch (IOException | UnsupportedOperationException e) {
            return false;
        }
    }

    static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket()) {
            s.bind(new InetSocketAddress("127.0.0.1", 0));
            return s.getLocalPort();
        }
    }

    static void deleteTree(Path dir) throws IOException {
        if (!Files.exists(dir)) {
            return;
        }
        try (Stream<Path> all = Files.walk(dir)) {
            for (Path p : all.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(p);
            }
        }
    }

    private static void pause(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
