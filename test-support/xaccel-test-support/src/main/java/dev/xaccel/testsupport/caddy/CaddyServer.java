package dev.xaccel.testsupport.caddy;

import dev.xaccel.testsupport.frontend.FrontEndServer;
import dev.xaccel.testsupport.frontend.ServerUser;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A real, Debian-packaged Caddy 2, started in the foreground ({@code caddy run --adapter caddyfile}) as a child
 * process of the test JVM ({@link FrontEndServer}: template, free loopback ports with retry, logs, stop by PID). The
 * Caddyfile is rendered into {@code <prefix>/conf/Caddyfile}; Caddy's home, data and config directories (its
 * storage) are the prefix.
 * <p>
 * The listen port placeholder is {@code FRONT_PORT}. Caddy cannot drop privileges itself: by {@link ServerUser}'s
 * rule a test started by root runs it as Debian's {@code caddy} account from the start ({@code setpriv --reuid
 * --regid --init-groups}; ports above 1024 need no capability) and gives it the prefix and {@code logs/}; when
 * {@code caddy} cannot reach a directory it reads, Caddy runs as root (only a test's own server). Not started by
 * root, Caddy runs as the test's user. Stopped by SIGTERM (Caddy's graceful stop), then SIGKILL. The access log is
 * Caddy's JSON: one request is found by its {@code "X-Request-Id":["..."]}.
 */
public final class CaddyServer extends FrontEndServer {

    /** Where Debian installs the binary. */
    public static final Path DEBIAN_BINARY = Path.of("/usr/bin/caddy");
    /** The listen port placeholder. */
    public static final String FRONT_PORT = "FRONT_PORT";
    /** Whom Caddy runs as when the test is root. */
    public static final String ACCOUNT = "caddy";

    private CaddyServer(Path prefix, Path conf, Map<String, Integer> ports, Process process) {
        super("caddy", prefix, conf, ports, process);
    }

    /** A server with {@code prefix} as its directory (deleted and made again at start). */
    public static Builder builder(Path prefix) {
        return new Builder(prefix);
    }

    /** Debian's {@code /usr/bin/caddy}, else {@code caddy} on the PATH. */
    public static Path findBinary() {
        return findBinary(DEBIAN_BINARY, "caddy", "caddy");
    }

    @Override
    protected String requestIdInLog(String requestId) {
        return "\"X-Request-Id\":[\"" + requestId + "\"]";
    }

    /** What to start: the template, its values, the port placeholders, the directories Caddy reads. */
    public static final class Builder extends FrontEndServer.Builder<Builder, CaddyServer> {

        private Builder(Path prefix) {
            super(prefix, "conf/Caddyfile", FRONT_PORT);
        }

        private Optional<String> account() {
            return ServerUser.exists(ACCOUNT) ? ServerUser.unprivileged(ACCOUNT, readDirs()) : Optional.empty();
        }

        @Override
        protected void prepare(Path prefix) throws IOException {
            if (account().isPresent()) {
                ServerUser.giveTo(prefix, ACCOUNT, ACCOUNT);
                ServerUser.giveTo(prefix.resolve("logs"), ACCOUNT, ACCOUNT);
            }
        }

        @Override
        protected List<String> command(Path prefix, Path conf) {
            List<String> cmd = new ArrayList<>();
            account().ifPresent(a -> cmd.addAll(List.of("setpriv", "--reuid=" + a, "--regid=" + a, "--init-groups")));
            cmd.addAll(List.of(findBinary().toString(), "run", "--config", conf.toString(), "--adapter", "caddyfile",
                    "--pidfile", prefix.resolve("logs/caddy.pid").toString()));
            return cmd;
        }

        @Override
        protected Map<String, String> environment(Path prefix) {
            String p = prefix.toString();
            return Map.of("HOME", p, "XDG_DATA_HOME", p, "XDG_CONFIG_HOME", p);
        }

        @Override
        protected CaddyServer create(Path prefix, Path conf, Map<String, Integer> ports, Process process) {
            return new CaddyServer(prefix, conf, ports, process);
        }
    }
}
