package dev.xaccel.testsupport.nginx;

import dev.xaccel.testsupport.Poll;
import dev.xaccel.testsupport.Processes;
import dev.xaccel.testsupport.TestPaths;
import dev.xaccel.testsupport.frontend.FrontEndServer;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A real, Debian-packaged nginx, started as a child process of the test JVM ({@link FrontEndServer}: template,
 * free loopback ports with retry, logs, stop by PID).
 * <p>
 * The template is rendered into {@code <prefix>/conf/nginx.conf}; {@code <prefix>} is nginx's own directory (made
 * fresh: {@code logs/}, {@code tmp/}, {@code conf/mime.types}), the directory every relative path of the template
 * resolves against. The listen port placeholder is {@code NGINX_PORT} unless {@linkplain Builder#ports(String...)
 * told otherwise}. nginx runs in the foreground ({@code -g "daemon off;"}) unless {@linkplain Builder#daemon()
 * daemonized}, with {@link NginxUser}'s rule for its workers, and is stopped by its master's PID: SIGQUIT
 * (graceful), then SIGTERM, then SIGKILL, its workers too. {@link #reload()} and {@link #upgrade()} are nginx's
 * documented reload and binary upgrade. A missing nginx fails the test: CI installs Debian's package.
 */
public final class NginxServer extends FrontEndServer {

    /** Where Debian installs nginx. */
    public static final Path DEBIAN_BINARY = Path.of("/usr/sbin/nginx");
    /** The placeholder of the listen port unless the builder names others. */
    public static final String NGINX_PORT = "NGINX_PORT";

    private final List<String> command;
    /** Masters replaced by an upgrade: stopped by close() too, if still there. */
    private final List<ProcessHandle> retired = new CopyOnWriteArrayList<>();

    private NginxServer(Path prefix, Path conf, Map<String, Integer> ports, Process process, List<String> command) {
        super("nginx", prefix, conf, ports, process);
        this.command = List.copyOf(command);
    }

    /** A server with {@code prefix} as its directory (deleted and made again at start). */
    public static Builder builder(Path prefix) {
        return new Builder(prefix);
    }

    /** The nginx binary: Debian's {@code /usr/sbin/nginx}, else {@code nginx} on the PATH. */
    public static Path findBinary() {
        return findBinary(DEBIAN_BINARY, "nginx", "nginx");
    }

    /** SIGQUIT: nginx's graceful shutdown. */
    @Override
    protected String gracefulSignal() {
        return "QUIT";
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
        Path out = prefix().resolve("logs/signal.log");
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
     * {@code nginx -s reopen} (USR1 to the master): nginx reopens its log files, as logrotate's {@code postrotate}
     * does after renaming them. Returns once the signal is sent; the workers reopen soon after.
     */
    public void reopen() {
        if (!Processes.signal(main().pid(), "USR1")) {
            throw new IllegalStateException("could not send USR1 to nginx " + main().pid());
        }
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
        ProcessHandle old = main();
        Path pidFile = prefix().resolve("logs/nginx.pid");
        Path oldbin = prefix().resolve("logs/nginx.pid.oldbin");
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
        main(fresh.get());
        retired.add(old);
        if (!Processes.signal(old.pid(), "WINCH") || !Processes.signal(old.pid(), "QUIT")) {
            throw new IllegalStateException("could not send WINCH and QUIT to the old nginx master " + old.pid());
        }
        return old;
    }

    /** Graceful stop (SIGQUIT to the master, and to masters an upgrade retired), then SIGTERM, then SIGKILL. */
    @Override
    public void close() {
        for (ProcessHandle old : retired) {
            Processes.stop(old, "QUIT", Duration.ofSeconds(5), Duration.ofSeconds(2));
        }
        super.close();
    }

    private static Optional<Long> readPid(Path pidFile) {
        try {
            String text = Files.exists(pidFile) ? Files.readString(pidFile).trim() : "";
            return text.isEmpty() ? Optional.empty() : Optional.of(Long.parseLong(text));
        } catch (IOException | NumberFormatException e) {
            return Optional.empty();
        }
    }

    /** What to start: the template, its values, the port placeholders, the directories the workers read. */
    public static final class Builder extends FrontEndServer.Builder<Builder, NginxServer> {
        private boolean daemon;
        private String user;

        private Builder(Path prefix) {
            super(prefix, "conf/nginx.conf", NGINX_PORT);
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

        /**
         * The workers as {@code account} and {@code group} ({@code user account group;}, for a master started by
         * root), instead of {@link NginxUser}'s rule: a test of who may reach what (a Unix socket's group).
         */
        public Builder user(String account, String group) {
            this.user = account + " " + group;
            return this;
        }

        @Override
        protected void prepare(Path prefix) throws IOException {
            Files.createDirectories(prefix.resolve("tmp"));
            Files.createDirectories(prefix.resolve("conf"));
            copyMimeTypes(prefix.resolve("conf/mime.types"));
        }

        @Override
        protected List<String> command(Path prefix, Path conf) {
            String globals = (daemon ? "daemon on;" : "daemon off;")
                    + (user != null ? " user " + user + ";"
                            : NginxUser.directive(readDirs()).map(d -> " " + d).orElse(""));
            return List.of(findBinary().toString(), "-p", prefix + "/", "-e", "logs/error.log",
                    "-c", prefix.relativize(conf).toString(), "-g", globals);
        }

        @Override
        protected NginxServer create(Path prefix, Path conf, Map<String, Integer> ports, Process process) {
            NginxServer server = new NginxServer(prefix, conf, ports, process, command(prefix, conf));
            if (daemon) {
                server.main(daemonMaster(prefix, process));
            }
            return server;
        }

        /** The daemon's master: the launcher exits once it forked; the master writes logs/nginx.pid. */
        private ProcessHandle daemonMaster(Path prefix, Process launcher) {
            Path pidFile = prefix.resolve("logs/nginx.pid");
            Duration wait = Duration.ofSeconds(15);
            Processes.awaitExit(launcher.toHandle(), wait);
            return Poll.first(wait, () -> readPid(pidFile).flatMap(ProcessHandle::of)).orElse(launcher.toHandle());
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
