package dev.xaccel.testsupport.lighttpd;

import dev.xaccel.testsupport.frontend.FrontEndServer;
import dev.xaccel.testsupport.frontend.ServerUser;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A real, Debian-packaged lighttpd 1.4, started in the foreground ({@code lighttpd -D -f <conf>}) as a child process
 * of the test JVM ({@link FrontEndServer}: template, free loopback ports with retry, logs, stop by PID). The config
 * is rendered into {@code <prefix>/conf/lighttpd.conf}; {@code <prefix>/empty/} is made for the templates' empty
 * {@code server.document-root}.
 * <p>
 * The listen port placeholder is {@code FRONT_PORT}. The server fills {@code ${RUN_USER}} and {@code ${RUN_GROUP}}
 * ({@code server.username}/{@code server.groupname}) by {@link ServerUser}'s rule: started by root, lighttpd binds
 * its port and then switches to {@code www-data} for good, so it opens its logs as that account and
 * {@code <prefix>/logs} is given to it; when {@code www-data} cannot reach a directory it reads, both values are
 * empty and lighttpd stays root (only a test's own server, never a shipped config). Not started by root, they are
 * empty too (lighttpd runs as the test's user). Stopped by SIGTERM, then SIGKILL.
 */
public final class LighttpdServer extends FrontEndServer {

    /** Where Debian installs the binary. */
    public static final Path DEBIAN_BINARY = Path.of("/usr/sbin/lighttpd");
    /** The listen port placeholder. */
    public static final String FRONT_PORT = "FRONT_PORT";
    /** Whom lighttpd runs as after binding when started by root. */
    public static final String ACCOUNT = "www-data";

    private LighttpdServer(Path prefix, Path conf, Map<String, Integer> ports, Process process) {
        super("lighttpd", prefix, conf, ports, process);
    }

    /**
     * No: mod_accesslog buffers the lines of a log file and writes them when the second of the timestamp changes, the
     * buffer is full, or every four seconds (mod_accesslog.c, {@code log_access_periodic_flush}); a line can appear
     * seconds after its response.
     */
    @Override
    public boolean logsPromptly() {
        return false;
    }

    /** Four seconds of batching plus the usual five. */
    @Override
    protected Duration accessLogDelay() {
        return Duration.ofSeconds(10);
    }

    /** A server with {@code prefix} as its directory (deleted and made again at start). */
    public static Builder builder(Path prefix) {
        return new Builder(prefix);
    }

    /** Debian's {@code /usr/sbin/lighttpd}, else {@code lighttpd} on the PATH. */
    public static Path findBinary() {
        return findBinary(DEBIAN_BINARY, "lighttpd", "lighttpd");
    }

    /** What to start: the template, its values, the port placeholders, the directories lighttpd reads. */
    public static final class Builder extends FrontEndServer.Builder<Builder, LighttpdServer> {

        private Builder(Path prefix) {
            super(prefix, "conf/lighttpd.conf", FRONT_PORT);
        }

        private Optional<String> account() {
            return ServerUser.unprivileged(ACCOUNT, readDirs());
        }

        @Override
        protected void prepare(Path prefix) throws IOException {
            Files.createDirectories(prefix.resolve("empty"));
            if (account().isPresent()) {
                ServerUser.giveTo(prefix.resolve("logs"), ACCOUNT, ACCOUNT);
            }
        }

        @Override
        protected Map<String, String> serverValues() {
            String account = account().orElse("");
            return Map.of("RUN_USER", account, "RUN_GROUP", account);
        }

        @Override
        protected List<String> command(Path prefix, Path conf) {
            return List.of(findBinary().toString(), "-D", "-f", conf.toString());
        }

        @Override
        protected LighttpdServer create(Path prefix, Path conf, Map<String, Integer> ports, Process process) {
            return new LighttpdServer(prefix, conf, ports, process);
        }
    }
}
