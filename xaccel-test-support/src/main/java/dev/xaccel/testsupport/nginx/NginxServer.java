package dev.xaccel.testsupport.nginx;

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
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Predicate;
import java.util.stream.Collectors;

/**
 * A real, Debian-packaged nginx, started as a child process of the test JVM.
 * <p>
 * The configuration is a template ({@code ${NAME}} placeholders, {@link TemplateRenderer}) rendered into
 * {@code <prefix>/conf/nginx.conf}; {@code <prefix>} is nginx's own directory (made fresh: {@code logs/},
 * {@code tmp/}, {@code conf/mime.types}), the directory every relative path of the template resolves against.
 * The template's listen ports are placeholders the server fills with free loopback ports ({@code NGINX_PORT}
 * unless {@linkplain Builder#ports(String...) told otherwise}); when another process took one before nginx bound
 * it ("Address already in use"), nginx is started again on other ports. Besides the caller's values,
 * {@code ${PREFIX}} is the prefix directory. nginx runs in the foreground ({@code -g "daemon off;"}) unless
 * {@linkplain Builder#daemon() daemonized}, with {@link NginxUser}'s rule for its workers, and is stopped by its
 * master's PID: SIGQUIT (graceful), then SIGTERM, then SIGKILL, its workers too. {@link #reload()} and
 * {@link #upgrade()} are nginx's documented reload and binary upgrade. A missing nginx fails the test: CI installs
 * Debian's package.
 */
public final class NginxServer implements AutoCloseable {

    /** Where Debian installs nginx. */
    public static final Path DEBIAN_BINARY = Path.of("/usr/sbin/nginx");
    /** The placeholder of the listen port unless the builder names others. */
    public static final String NGINX_PORT = "NGINX_PORT";

    private static final int ATTEMPTS = 3;

    private final Path prefix;
    private final Map<String, Integer> ports;
    private final List<String> command;
    /** The master: the child process in the foreground, the one of the pid file when daemonized or upgraded. */
    private volatile ProcessHandle master;
    /** Masters replaced by an upgrade: stopped by close() too, if still there. */
    private final List<ProcessHandle> retired = new java.util.concurrent.CopyOnWriteArrayList<>();

    private NginxServer(Path prefix, Map<String, Integer> ports, List<String> command, ProcessHandle master) {
        this.prefix = prefix;
        this.ports = ports;
        this.command = List.copyOf(command);
        this.master = master;
    }

    /** A server with {@code prefix} as its directory (deleted and made again at start). */
    public static Builder builder(Path prefix) {
        return new Builder(prefix);
    }

    /** The nginx binary: Debian's {@code /usr/sbin/nginx}, else {@code nginx} on the PATH. */
    public static Path findBinary() {
        if (Files.isExecutable(DEBIAN_BINARY)) {
            return DEBIAN_BINARY;
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

    /** The first (or only) listen port. */
    public int port() {
        return ports.values().iterator().next();
    }

    /** The port that filled placeholder {@code name}. */
    public int port(String name) {
        Integer port = ports.get(name);
        if (port == null) {
            throw new IllegalArgumentException("no port placeholder " + name + " (ports: " + ports.keySet() + ")");
        }
        return port;
    }

    /** {@code http://127.0.0.1:<port()><path>}. */
    public String url(String path) {
        return "http://127.0.0.1:" + port() + path;
    }

    public Path prefix() {
        return prefix;
    }

    /** The rendered configuration, {@code <prefix>/conf/nginx.conf}. */
    public Path conf() {
        return prefix.resolve("conf/nginx.conf");
    }

    /** The master's PID (after {@link #upgrade()}, the new master's). */
    public long pid() {
        return master.pid();
    }

    /** The master's children right now: its workers (and cache manager/loader, where configured). */
    public Set<Long> workerPids() {
        return master.children().filter(ProcessHandle::isAlive).map(ProcessHandle::pid)
                .collect(Collectors.toCollection(TreeSet::new));
    }

    /**
     * {@code nginx -s reload} (the master re-reads the configuration, starts new workers and shuts the old ones down
     * gracefully: they finish what they are sending). Returns once a worker of the new generation runs; the old ones
     * may still be finishing their downloads.
     *
     * @return the old generation's PIDs
     * @throws IllegalStateException when nginx refuses (a bad configuration: the old one stays in effect) or no new
     *                               worker comes within 15 s
     */
    public Set<Long> reload() throws IOException {
        Set<Long> old = workerPids();
        List<String> signal = new ArrayList<>(command);
        signal.addAll(List.of("-s", "reload"));
        Path out = prefix.resolve("logs/signal.log");
        Optional<Integer> status = Processes.run(new ProcessBuilder(signal), out, Duration.ofSeconds(30));
        if (status.isEmpty() || status.get() != 0) {
            throw new IllegalStateException("nginx -s reload failed (" + status.map(st -> "exit " + st)
                    .orElse("timeout") + "): " + TestPaths.tail(out, 2000));
        }
        if (!Poll.until(Duration.ofSeconds(15), () -> workerPids().stream().anyMatch(p -> !old.contains(p)))) {
            throw new IllegalStateException("no new nginx worker within 15 s of the reload: " + errorLog());
        }
        return old;
    }

    /**
     * The binary upgrade as nginx documents it ("Upgrading Executable on the Fly"): USR2 to the master (it renames
     * the pid file to {@code nginx.pid.oldbin} and starts a new master with the same listening sockets, which starts
     * its own workers), then WINCH to the old master (its workers stop accepting and finish gracefully), then QUIT
     * to the old master (it exits once they have). Needs a {@linkplain Builder#daemon() daemonized} nginx: a master
     * in the foreground ignores WINCH. Returns once the new master runs workers and the old one was told to quit;
     * the old generation may still be finishing its downloads ({@link Processes#awaitExit}).
     *
     * @return the old master
     */
    public ProcessHandle upgrade() {
        ProcessHandle old = master;
        Path pidFile = prefix.resolve("logs/nginx.pid");
        Path oldbin = prefix.resolve("logs/nginx.pid.oldbin");
        if (!Processes.signal(old.pid(), "USR2")) {
            throw new IllegalStateException("could not send USR2 to nginx " + old.pid());
        }
        Optional<ProcessHandle> fresh = Poll.first(Duration.ofSeconds(15), () -> Files.exists(oldbin)
                ? readPid(pidFile).filter(p -> p != old.pid()).flatMap(ProcessHandle::of)
                        .filter(p -> p.isAlive() && p.children().findAny().isPresent())
                : Optional.empty());
        if (fresh.isEmpty()) {
            throw new IllegalStateException("no new nginx master with workers within 15 s of USR2: " + errorLog());
        }
        master = fresh.get();
        retired.add(old);
        if (!Processes.signal(old.pid(), "WINCH") || !Processes.signal(old.pid(), "QUIT")) {
            throw new IllegalStateException("could not send WINCH and QUIT to the old nginx master " + old.pid());
        }
        return old;
    }

    private static Optional<Long> readPid(Path pidFile) {
        try {
            String text = Files.exists(pidFile) ? Files.readString(pidFile).trim() : "";
            return text.isEmpty() ? Optional.empty() : Optional.of(Long.parseLong(text));
        } catch (IOException | NumberFormatException e) {
            return Optional.empty();
        }
    }

    /** {@code <prefix>/logs/access.log} (the templates' {@code access_log logs/access.log}). */
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
     * The first access log line that {@code matches}. nginx writes the line when it finalizes the request, which
     * can be just after the client has read the response: polls up to five seconds.
     */
    public String awaitAccessLogLine(Predicate<String> matches, String what) {
        return Poll.first(Duration.ofSeconds(5), () -> accessLog().stream().filter(matches).findFirst())
                .orElseThrow(() -> new AssertionError("no access log line " + what + " in " + accessLogFile()));
    }

    /** The access log line of the request that sent {@code X-Request-Id: requestId} (logged as {@code rid="..."}). */
    public String awaitAccessLogLine(String requestId) {
        String needle = "rid=\"" + requestId + "\"";
        return awaitAccessLogLine(line -> line.contains(needle), "with " + needle);
    }

    /** The error log written so far, with what nginx printed at startup. */
    public String errorLog() {
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

    public boolean isAlive() {
        return master.isAlive();
    }

    /** Graceful stop (SIGQUIT to the master), then SIGTERM, then SIGKILL, for the master and its workers. */
    @Override
    public void close() {
        for (ProcessHandle old : retired) {
            Processes.stop(old, "QUIT", Duration.ofSeconds(5), Duration.ofSeconds(2));
        }
        Processes.stop(master, "QUIT", Duration.ofSeconds(5), Duration.ofSeconds(2));
    }

    private boolean awaitListening(Duration timeout) {
        return Poll.until(timeout, () -> !master.isAlive() || ports.values().stream().allMatch(Ports::accepts))
                && master.isAlive();
    }

    /** What to start: the template, its values, the port placeholders, the directories the workers read. */
    public static final class Builder {
        private final Path prefix;
        private String template;
        private String templateFile;
        private final Map<String, String> values = new LinkedHashMap<>();
        private List<String> portNames = List.of(NGINX_PORT);
        private final List<Path> workerDirs = new ArrayList<>();
        private Duration startTimeout = Duration.ofSeconds(15);
        private boolean daemon;

        private Builder(Path prefix) {
            this.prefix = prefix.toAbsolutePath();
        }

        /** The configuration template's text. */
        public Builder template(String text) {
            this.template = text;
            return this;
        }

        /** The configuration template, read from a UTF-8 file (named in errors). */
        public Builder template(Path file) {
            try {
                this.template = Files.readString(file, StandardCharsets.UTF_8);
                this.templateFile = file.toString();
                return this;
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }

        /** The value of placeholder {@code ${name}}. */
        public Builder value(String name, String value) {
            values.put(name, value);
            return this;
        }

        public Builder values(Map<String, String> more) {
            values.putAll(more);
            return this;
        }

        /** The placeholders that are listen ports, each filled with a free loopback port (default: NGINX_PORT). */
        public Builder ports(String... names) {
            this.portNames = List.of(names);
            return this;
        }

        /**
         * A directory nginx's workers read (a media root, a library): when running as root and it is not reachable
         * by others, the workers run as root ({@link NginxUser}). The prefix always counts.
         */
        public Builder workersRead(Path dir) {
            workerDirs.add(dir.toAbsolutePath());
            return this;
        }

        public Builder startTimeout(Duration timeout) {
            this.startTimeout = timeout;
            return this;
        }

        /**
         * nginx as a daemon ({@code daemon on;}), as init systems run it, instead of in the foreground: needed for
         * {@link NginxServer#upgrade()} (a master in the foreground ignores WINCH). The master is then the process of
         * {@code <prefix>/logs/nginx.pid}, which the template must name ({@code pid logs/nginx.pid;}, as every
         * shipped one does), and it is stopped by that PID like a foreground one.
         */
        public Builder daemon() {
            this.daemon = true;
            return this;
        }

        /** Renders the template and starts nginx; returns once every port accepts connections. */
        public NginxServer start() throws IOException {
            if (template == null) {
                throw new IllegalStateException("no template");
            }
            Path binary = findBinary();
            TestPaths.fresh(prefix);
            for (String d : List.of("conf", "logs", "tmp")) {
                Files.createDirectories(prefix.resolve(d));
            }
            copyMimeTypes(prefix.resolve("conf/mime.types"));
            List<Path> dirs = new ArrayList<>(workerDirs);
            dirs.add(prefix);
            String globals = (daemon ? "daemon on;" : "daemon off;")
                    + NginxUser.directive(dirs).map(d -> " " + d).orElse("");
            IOException last = null;
            for (int attempt = 1; attempt <= ATTEMPTS; attempt++) {
                Map<String, Integer> ports = new LinkedHashMap<>();
                portNames.forEach(n -> ports.put(n, Ports.freeLoopbackPort()));
                Map<String, String> all = new LinkedHashMap<>(values);
                all.put("PREFIX", prefix.toString());
                ports.forEach((n, p) -> all.put(n, Integer.toString(p)));
                String conf;
                try {
                    conf = TemplateRenderer.render(template, all);
                } catch (IllegalArgumentException e) {
                    if (templateFile == null) {
                        throw e;
                    }
                    throw new IllegalArgumentException(e.getMessage() + " " + templateFile, e);
                }
                Files.writeString(prefix.resolve("conf/nginx.conf"), conf, StandardCharsets.UTF_8);
                Files.deleteIfExists(prefix.resolve("logs/error.log"));
                Files.deleteIfExists(prefix.resolve("logs/nginx.pid"));
                List<String> command = List.of(binary.toString(), "-p", prefix + "/", "-e", "logs/error.log",
                        "-c", "conf/nginx.conf", "-g", globals);
                Process process = new ProcessBuilder(command)
                        .redirectErrorStream(true)
                        .redirectOutput(prefix.resolve("logs/stdout.log").toFile())
                        .start();
                ProcessHandle master = daemon ? daemonMaster(process) : process.toHandle();
                NginxServer server = new NginxServer(prefix, Collections.unmodifiableMap(ports), command, master);
                if (server.awaitListening(startTimeout)) {
                    return server;
                }
                boolean exited = !master.isAlive();
                server.close();
                String log = server.errorLog();
                last = new IOException(exited
                        ? "nginx exited at startup: " + log
                        : "nginx did not listen on 127.0.0.1:" + ports.values() + " within " + startTimeout + ": "
                                + log);
                if (!log.contains("Address already in use")) {
                    break;
                }
            }
            throw last;
        }

        /** The daemon's master: the launcher exits once it forked; the master writes logs/nginx.pid. */
        private ProcessHandle daemonMaster(Process launcher) {
            Path pidFile = prefix.resolve("logs/nginx.pid");
            Processes.awaitExit(launcher.toHandle(), startTimeout);
            return Poll.first(startTimeout, () -> readPid(pidFile).flatMap(ProcessHandle::of))
                    .orElse(launcher.toHandle());
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
    }
}
