package dev.xaccel.testsupport.frontend;

import dev.xaccel.testsupport.Poll;
import dev.xaccel.testsupport.Ports;
import dev.xaccel.testsupport.Processes;
import dev.xaccel.testsupport.TemplateRenderer;
import dev.xaccel.testsupport.TestPaths;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Predicate;
import java.util.stream.Collectors;

/**
 * A real, Debian-packaged front-end server (nginx, Apache httpd, lighttpd, Caddy) started as a child process of the
 * test JVM, in the foreground, and stopped by its PID. What all of them share lives here:
 * <ul>
 * <li>the configuration is a template ({@code ${NAME}} placeholders, {@link TemplateRenderer}) rendered into the
 * server's own directory, the <em>prefix</em> (made fresh at start, with {@code logs/}); besides the caller's
 * values {@code ${PREFIX}} is that directory and {@code ${CONF_DIR}} the rendered configuration's, where files it
 * includes are rendered too ({@link Builder#alongside});</li>
 * <li>the template's listen ports are placeholders filled with free loopback ports; when another process took one
 * before the server bound it (every server says "Address already in use"), it is started again on other
 * ports;</li>
 * <li>logs: {@code <prefix>/logs/access.log}, {@code <prefix>/logs/error.log} (what the templates name) and
 * {@code <prefix>/logs/stdout.log} (what the process printed); one request is found in the access log by the
 * {@code X-Request-Id} it sent;</li>
 * <li>the stop: the server's graceful signal, then SIGTERM, then SIGKILL, for the process and its children
 * ({@link Processes#stop}).</li>
 * </ul>
 * Whom the request-handling processes run as is {@link ServerUser}'s rule; each subclass applies it its way.
 */
public abstract class FrontEndServer implements AutoCloseable {

    private static final int ATTEMPTS = 3;

    private final String name;
    private final Path prefix;
    private final Path conf;
    private final Map<String, Integer> ports;
    private final Process process;
    /** The server's main process: the one started, or the one a daemonizing or upgraded server names. */
    private volatile ProcessHandle main;

    /**
     * @param name    for messages: {@code nginx}, {@code apache}, ...
     * @param conf    the rendered configuration
     * @param ports   placeholder name to port, in the builder's order
     * @param process the server, started in the foreground
     */
    protected FrontEndServer(String name, Path prefix, Path conf, Map<String, Integer> ports, Process process) {
        this.name = name;
        this.prefix = prefix;
        this.conf = conf;
        this.ports = ports;
        this.process = process;
        this.main = process.toHandle();
    }

    /**
     * The process that is the server from now on: the master a daemonizing server forked (the process started
     * exits), the new master of a binary upgrade. {@link #pid()}, {@link #isAlive()}, {@link #workerPids()} and
     * {@link #close()} follow it.
     */
    protected void main(ProcessHandle handle) {
        this.main = handle;
    }

    /** The main process (initially the process started). */
    protected ProcessHandle main() {
        return main;
    }

    /** {@code nginx}, {@code apache}, {@code lighttpd} or {@code caddy}. */
    public String name() {
        return name;
    }

    /** The first (or only) listen port. */
    public int port() {
        return ports.values().iterator().next();
    }

    /** The port that filled placeholder {@code portName}. */
    public int port(String portName) {
        Integer port = ports.get(portName);
        if (port == null) {
            throw new IllegalArgumentException("no port placeholder " + portName + " (ports: " + ports.keySet() + ")");
        }
        return port;
    }

    /** {@code http://127.0.0.1:<port()><path>}. */
    public String url(String path) {
        return "http://127.0.0.1:" + port() + path;
    }

    /** The server's own directory. */
    public Path prefix() {
        return prefix;
    }

    /** The rendered configuration. */
    public Path conf() {
        return conf;
    }

    /** The PID of the server's main process (nginx's and Apache's master, lighttpd, Caddy). */
    public long pid() {
        return main.pid();
    }

    /** The main process's live children right now (nginx's and Apache's workers; none for lighttpd and Caddy). */
    public Set<Long> workerPids() {
        return main.children().filter(ProcessHandle::isAlive).map(ProcessHandle::pid)
                .collect(Collectors.toCollection(TreeSet::new));
    }

    /** {@code <prefix>/logs/access.log}. */
    public Path accessLogFile() {
        return prefix.resolve("logs/access.log");
    }

    /** The access log lines written so far. */
    public List<String> accessLog() {
        Path log = accessLogFile();
        try {
            return Files.exists(log) ? Files.readAllLines(log, StandardCharsets.ISO_8859_1) : List.of();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * The first access log line that {@code matches}. A server writes the line when it finalizes the request, which
     * can be just after the client has read the response, or later ({@link #accessLogDelay()}): polls that long.
     */
    public String awaitAccessLogLine(Predicate<String> matches, String what) {
        return Poll.first(accessLogDelay(), () -> accessLog().stream().filter(matches).findFirst())
                .orElseThrow(() -> new AssertionError("no access log line " + what + " in " + accessLogFile()));
    }

    /** How long after a response its access log line may appear: five seconds unless the server batches its log. */
    protected Duration accessLogDelay() {
        return Duration.ofSeconds(5);
    }

    /**
     * Whether the access log line of a request is written as the request ends (nginx, Apache, Caddy), so that a test
     * can wait for it per request; lighttpd writes its access log in batches.
     */
    public boolean logsPromptly() {
        return true;
    }

    /** The access log line of the request that sent {@code X-Request-Id: requestId}. */
    public String awaitAccessLogLine(String requestId) {
        String needle = requestIdInLog(requestId);
        return awaitAccessLogLine(line -> line.contains(needle), "with " + needle);
    }

    /** How the access log shows a request id: the templates' {@code rid="..."} unless a server logs otherwise. */
    protected String requestIdInLog(String requestId) {
        return "rid=\"" + requestId + "\"";
    }

    /** The error log written so far, with what the process printed. */
    public String errorLog() {
        StringBuilder sb = new StringBuilder();
        for (String log : List.of("logs/error.log", "logs/stdout.log")) {
            Path file = prefix.resolve(log);
            try {
                if (Files.exists(file)) {
                    sb.append(Files.readString(file, StandardCharsets.ISO_8859_1));
                }
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        return sb.toString();
    }

    public boolean isAlive() {
        return main.isAlive();
    }

    /** The signal that stops this server gracefully (nginx: QUIT; the others: TERM). */
    protected String gracefulSignal() {
        return "TERM";
    }

    /** The graceful signal to the main process, then SIGTERM, then SIGKILL, for it and its children. */
    @Override
    public void close() {
        Processes.stop(main, gracefulSignal(), Duration.ofSeconds(5), Duration.ofSeconds(2));
        if (process.isAlive()) {
            Processes.stop(process.toHandle(), gracefulSignal(), Duration.ofSeconds(5), Duration.ofSeconds(2));
        }
    }

    private boolean awaitListening(Duration timeout) {
        return Poll.until(timeout, () -> !isAlive() || ports.values().stream().allMatch(Ports::accepts))
                && isAlive();
    }

    /**
     * What to start: the template, its values, the port placeholders, the directories the server's unprivileged
     * processes read. A subclass says how its server is started ({@link #command}), what its prefix needs before
     * ({@link #prepare}) and which values it fills itself ({@link #serverValues}).
     *
     * @param <B> the concrete builder
     * @param <S> the server it starts
     */
    public abstract static class Builder<B extends Builder<B, S>, S extends FrontEndServer> {
        private final Path prefix;
        private String confName;
        private String template;
        private String templateFile;
        private final Map<String, String> values = new LinkedHashMap<>();
        private final Map<String, Path> alongside = new LinkedHashMap<>();
        private List<String> portNames;
        private final List<Path> readDirs = new ArrayList<>();
        private Duration startTimeout = Duration.ofSeconds(15);

        /**
         * @param confName        where the rendered configuration goes, relative to the prefix
         * @param defaultPortName the listen port placeholder unless {@link #ports} names others
         */
        protected Builder(Path prefix, String confName, String defaultPortName) {
            this.prefix = prefix.toAbsolutePath();
            this.confName = confName;
            this.portNames = List.of(defaultPortName);
        }

        @SuppressWarnings("unchecked")
        private B self() {
            return (B) this;
        }

        /** Where the rendered configuration goes, relative to the prefix, instead of the server's usual name. */
        public B confName(String name) {
            this.confName = name;
            return self();
        }

        /** The configuration template's text. */
        public B template(String text) {
            this.template = text;
            this.templateFile = null;
            return self();
        }

        /** The configuration template, read from a UTF-8 file (named in errors). */
        public B template(Path file) {
            try {
                this.template = Files.readString(file, StandardCharsets.UTF_8);
                this.templateFile = file.toString();
                return self();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }

        /**
         * A template the configuration includes (a shipped config that a variant builds on), rendered with the same
         * values into {@code fileName} beside the configuration.
         */
        public B alongside(String fileName, Path template) {
            alongside.put(fileName, template);
            return self();
        }

        /** The value of placeholder {@code ${name}}. */
        public B value(String name, String value) {
            values.put(name, value);
            return self();
        }

        public B values(Map<String, String> more) {
            values.putAll(more);
            return self();
        }

        /** The placeholders that are listen ports, each filled with a free loopback port. */
        public B ports(String... names) {
            this.portNames = List.of(names);
            return self();
        }

        /**
         * A directory the server's unprivileged processes read (a media root): it decides, with {@link ServerUser},
         * whom they run as. The prefix always counts.
         */
        public B workersRead(Path dir) {
            readDirs.add(dir.toAbsolutePath());
            return self();
        }

        public B startTimeout(Duration timeout) {
            this.startTimeout = timeout;
            return self();
        }

        /** The directories of {@link #workersRead} and the prefix. */
        protected List<Path> readDirs() {
            List<Path> dirs = new ArrayList<>(readDirs);
            dirs.add(prefix);
            return dirs;
        }

        /** Makes what the server needs in its fresh prefix (besides {@code logs/}), before rendering. */
        protected void prepare(Path prefix) throws IOException {
        }

        /** Values the server fills itself (besides {@code PREFIX} and the ports), e.g. the account it drops to. */
        protected Map<String, String> serverValues() {
            return Map.of();
        }

        /** The command that runs the server in the foreground with configuration {@code conf}. */
        protected abstract List<String> command(Path prefix, Path conf);

        /** The environment of that command (added to the JVM's). */
        protected Map<String, String> environment(Path prefix) {
            return Map.of();
        }

        /** The server object for a process that listens. */
        protected abstract S create(Path prefix, Path conf, Map<String, Integer> ports, Process process);

        /** Renders the template and starts the server; returns once every port accepts connections. */
        public S start() throws IOException {
            if (template == null) {
                throw new IllegalStateException("no template");
            }
            TestPaths.fresh(prefix);
            Files.createDirectories(prefix.resolve("logs"));
            prepare(prefix);
            Path conf = prefix.resolve(confName);
            Files.createDirectories(conf.getParent());
            IOException last = null;
            for (int attempt = 1; attempt <= ATTEMPTS; attempt++) {
                Map<String, Integer> ports = new LinkedHashMap<>();
                portNames.forEach(n -> ports.put(n, Ports.freeLoopbackPort()));
                Map<String, String> all = new LinkedHashMap<>(values);
                all.putAll(serverValues());
                all.put("PREFIX", prefix.toString());
                all.put("CONF_DIR", conf.getParent().toString());
                ports.forEach((n, p) -> all.put(n, Integer.toString(p)));
                String text;
                try {
                    text = TemplateRenderer.render(template, all);
                } catch (IllegalArgumentException e) {
                    if (templateFile == null) {
                        throw e;
                    }
                    throw new IllegalArgumentException(e.getMessage() + " " + templateFile, e);
                }
                Files.writeString(conf, text, StandardCharsets.UTF_8);
                for (Map.Entry<String, Path> e : alongside.entrySet()) {
                    Files.writeString(conf.resolveSibling(e.getKey()), TemplateRenderer.render(e.getValue(), all),
                            StandardCharsets.UTF_8);
                }
                Files.deleteIfExists(prefix.resolve("logs/error.log"));
                ProcessBuilder pb = new ProcessBuilder(command(prefix, conf)).directory(prefix.toFile())
                        .redirectErrorStream(true)
                        .redirectOutput(prefix.resolve("logs/stdout.log").toFile());
                pb.environment().putAll(environment(prefix));
                Process process = pb.start();
                S server = create(prefix, conf, Collections.unmodifiableMap(ports), process);
                if (((FrontEndServer) server).awaitListening(startTimeout)) {
                    return server;
                }
                boolean exited = !server.isAlive();
                server.close();
                String log = server.errorLog();
                String status = process.isAlive() ? "" : " with " + process.exitValue();
                last = new IOException(exited
                        ? server.name() + " exited" + status + " at startup: " + log
                        : server.name() + " did not listen on 127.0.0.1:" + ports.values() + " within "
                                + startTimeout + ": " + log);
                if (!log.toLowerCase(Locale.ROOT).contains("address already in use")) {
                    break;
                }
            }
            throw last;
        }
    }

    /**
     * The binary: {@code debianPath} when executable, else {@code command} on the PATH.
     *
     * @param install what to say when neither exists (the Debian package to install)
     */
    public static Path findBinary(Path debianPath, String command, String install) {
        if (Files.isExecutable(debianPath)) {
            return debianPath;
        }
        String path = System.getenv("PATH");
        if (path != null) {
            for (String dir : path.split(java.io.File.pathSeparator)) {
                Path candidate = Path.of(dir, command);
                if (!dir.isEmpty() && Files.isExecutable(candidate)) {
                    return candidate;
                }
            }
        }
        throw new IllegalStateException(command + " not found (neither " + debianPath + " nor `" + command
                + "` on PATH). The end-to-end tests need it: run `apt-get install " + install + "` (.ci/run does).");
    }
}
