package dev.xaccel.filter;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A real, Debian-packaged nginx started as a child process for one test suite.
 * <p>
 * The configuration is rendered from {@code docs/nginx/xaccel.conf.template} (the one documented
 * snippet) into {@code target/nginx-<suite>/conf/nginx.conf}; nginx runs with that directory as prefix,
 * in the foreground, on a free loopback port, and is stopped by its PID. A missing nginx fails the
 * suite: CI installs it.
 */
final class NginxServer implements AutoCloseable {

    static final String TEMPLATE = "docs/nginx/xaccel.conf.template";
    private static final Pattern PLACEHOLDER = Pattern.compile("\\$\\{([A-Z][A-Z0-9_]*)}");
    private static final Duration START_TIMEOUT = Duration.ofSeconds(15);

    private final Path prefix;
    private final int port;
    private final Process process;

    private NginxServer(Path prefix, int port, Process process) {
        this.prefix = prefix;
        this.port = port;
        this.process = process;
    }

    /**
     * Renders the template and starts nginx.
     *
     * @param suite      names the prefix directory {@code target/nginx-<suite>}
     * @param tomcatPort the backend port
     * @param mediaRoot  the data root served by {@code /_xaccel/media/}
     */
    static NginxServer start(String suite, int tomcatPort, Path mediaRoot) throws IOException {
        return start(suite, Files.readString(templatePath(), StandardCharsets.UTF_8), Map.of(), tomcatPort,
                mediaRoot);
    }

    /**
     * Renders another template (e.g. one of the docs/nginx/*.conf.template variants, possibly modified by
     * the test) with the standard placeholders plus {@code extra}, and starts nginx.
     */
    static NginxServer start(String suite, String template, Map<String, String> extra, int tomcatPort,
            Path mediaRoot) throws IOException {
        Path binary = findBinary();
        Path prefix = TestPaths.target().resolve("nginx-" + suite).toAbsolutePath();
        TestPaths.deleteRecursively(prefix);
        Files.createDirectories(prefix.resolve("conf"));
        Files.createDirectories(prefix.resolve("logs"));
        Files.createDirectories(prefix.resolve("tmp"));
        copyMimeTypes(prefix.resolve("conf/mime.types"));
        IOException last = null;
        for (int attempt = 0; attempt < 3; attempt++) {
            int port = freePort();
            Map<String, String> values = new HashMap<>();
            values.put("PREFIX", prefix.toString());
            values.put("NGINX_PORT", Integer.toString(port));
            values.put("TOMCAT_PORT", Integer.toString(tomcatPort));
            values.put("MEDIA_ROOT", stripTrailingSlash(mediaRoot.toAbsolutePath().toString()));
            values.putAll(extra);
            Files.writeString(prefix.resolve("conf/nginx.conf"), render(template, values),
                    StandardCharsets.UTF_8);
            Files.deleteIfExists(prefix.resolve("logs/error.log"));
            Process process = new ProcessBuilder(binary.toString(), "-p", prefix + "/",
                    "-e", "logs/error.log", "-c", "conf/nginx.conf", "-g", globalDirectives(mediaRoot))
                    .redirectErrorStream(true)
                    .redirectOutput(prefix.resolve("logs/stdout.log").toFile())
                    .start();
            NginxServer server = new NginxServer(prefix, port, process);
            try {
                server.awaitListening();
                return server;
            } catch (IOException e) {
                server.close();
                last = e;
                if (!server.errorLog().contains("Address already in use")) {
                    break;
                }
            }
        }
        throw last;
    }

    /** Replaces every {@code ${NAME}}; an unknown placeholder is an error, nginx's {@code $var} stay. */
    static String render(String template, Map<String, String> values) {
        Matcher m = PLACEHOLDER.matcher(template);
        StringBuilder out = new StringBuilder();
        while (m.find()) {
            String value = values.get(m.group(1));
            if (value == null) {
                throw new IllegalArgumentException("No value for placeholder ${" + m.group(1)
                        + "} in the nginx template");
            }
            m.appendReplacement(out, Matcher.quoteReplacement(value));
        }
        m.appendTail(out);
        return out.toString();
    }

    static Path templatePath() {
        return templatePath(TEMPLATE);
    }

    /** A file of the repository, found from the working directory upwards (e.g. {@code docs/nginx/x}). */
    static Path templatePath(String relative) {
        for (Path dir = Path.of("").toAbsolutePath(); dir != null; dir = dir.getParent()) {
            Path candidate = dir.resolve(relative);
            if (Files.isRegularFile(candidate)) {
                return candidate;
            }
        }
        throw new IllegalStateException(relative + " not found above " + Path.of("").toAbsolutePath());
    }

    static Path findBinary() {
        Path debian = Path.of("/usr/sbin/nginx");
        if (Files.isExecutable(debian)) {
            return debian;
        }
        String path = System.getenv("PATH");
        if (path != null) {
            for (String dir : path.split(java.io.File.pathSeparator)) {
                Path candidate = Path.of(dir, "nginx");
                if (!dir.isEmpty() && Files.isExecutable(candidate)) {
                    return candidate;
                }
            }
        }
        throw new IllegalStateException("nginx not found (neither /usr/sbin/nginx nor `nginx` on PATH). "
                + "The end-to-end tests need a real nginx: run `apt-get install nginx` (.ci/run does).");
    }

    /**
     * {@code daemon off;} keeps the master a child of the JVM. Started by root, nginx's workers run as
     * {@code nobody}, who cannot read a checkout below a private home directory (e.g. {@code /root}): only
     * then are the test's workers kept as root. The template itself never sets {@code user}.
     */
    private static String globalDirectives(Path mediaRoot) {
        String directives = "daemon off;";
        if ("root".equals(System.getProperty("user.name")) && !readableByOthers(mediaRoot.toAbsolutePath())) {
            directives += " user root;";
        }
        return directives;
    }

    private static boolean readableByOthers(Path dir) {
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

    int port() {
        return port;
    }

    Path prefix() {
        return prefix;
    }

    long pid() {
        return process.pid();
    }

    /** The access log lines written so far. */
    List<String> accessLog() {
        Path log = prefix.resolve("logs/access.log");
        try {
            return Files.exists(log) ? Files.readAllLines(log, StandardCharsets.UTF_8) : List.of();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * The access log line of the request that sent {@code X-Request-Id: id}. nginx writes the line when
     * it finalizes the request, which can be just after the client has read the response: poll briefly.
     */
    String awaitAccessLogLine(String requestId) {
        String needle = "rid=\"" + requestId + "\"";
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        do {
            for (String line : accessLog()) {
                if (line.contains(needle)) {
                    return line;
                }
            }
            sleep(10);
        } while (System.nanoTime() < deadline);
        throw new AssertionError("no access log line with " + needle + " in " + prefix.resolve("logs"));
    }

    /** The error log written so far (also holds what nginx printed at startup). */
    String errorLog() {
        StringBuilder sb = new StringBuilder();
        for (String name : List.of("logs/error.log", "logs/stdout.log")) {
            Path log = prefix.resolve(name);
            try {
                if (Files.exists(log)) {
                    sb.append(Files.readString(log, StandardCharsets.ISO_8859_1));
                }
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        return sb.toString();
    }

    private void awaitListening() throws IOException {
        long deadline = System.nanoTime() + START_TIMEOUT.toNanos();
        while (System.nanoTime() < deadline) {
            if (!process.isAlive()) {
                throw new IOException("nginx exited with " + process.exitValue() + " at startup: "
                        + errorLog());
            }
            try (Socket s = new Socket()) {
                s.connect(new InetSocketAddress("127.0.0.1", port), 200);
                return;
            } catch (IOException notYet) {
                sleep(20);
            }
        }
        throw new IOException("nginx did not listen on 127.0.0.1:" + port + " within " + START_TIMEOUT
                + ": " + errorLog());
    }

    /** Graceful stop (SIGQUIT to the master's PID), then TERM, then KILL for it and its workers. */
    @Override
    public void close() {
        if (!process.isAlive()) {
            return;
        }
        List<ProcessHandle> workers = new ArrayList<>(process.descendants().toList());
        try {
            new ProcessBuilder("kill", "-QUIT", Long.toString(process.pid()))
                    .redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.DISCARD)
                    .start()
                    .waitFor(5, TimeUnit.SECONDS);
            if (!process.waitFor(5, TimeUnit.SECONDS)) {
                process.destroy();
                if (!process.waitFor(2, TimeUnit.SECONDS)) {
                    process.destroyForcibly().waitFor(2, TimeUnit.SECONDS);
                }
            }
        } catch (IOException e) {
            process.destroyForcibly();
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        }
        for (ProcessHandle worker : workers) {
            if (worker.isAlive()) {
                worker.destroyForcibly();
            }
        }
    }

    static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket()) {
            s.setReuseAddress(false);
            s.bind(new InetSocketAddress("127.0.0.1", 0));
            return s.getLocalPort();
        }
    }

    private static void copyMimeTypes(Path target) throws IOException {
        Path debian = Path.of("/etc/nginx/mime.types");
        if (Files.isReadable(debian)) {
            Files.copy(debian, target);
        } else {
            Files.writeString(target, "types {\n    text/plain txt;\n    audio/mpeg mp3;\n"
                    + "    application/pdf pdf;\n}\n", StandardCharsets.US_ASCII);
        }
    }

    private static String stripTrailingSlash(String s) {
        return s.length() > 1 && s.endsWith("/") ? s.substring(0, s.length() - 1) : s;
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
