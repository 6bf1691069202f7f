package dev.xaccel.testsupport.apache;

import dev.xaccel.testsupport.frontend.FrontEndServer;
import dev.xaccel.testsupport.frontend.ServerUser;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * A real, Debian-packaged Apache httpd 2.4 ({@code apache2}, with {@code libapache2-mod-xsendfile} for the shipped
 * config), started in the foreground ({@code apache2 -f <conf> -DFOREGROUND}) as a child process of the test JVM
 * ({@link FrontEndServer}: template, free loopback ports with retry, logs, stop by PID). The config is a complete
 * server config that reads nothing of {@code /etc/apache2}; it is rendered into {@code <prefix>/conf/httpd.conf}.
 * <p>
 * The listen port placeholder is {@code FRONT_PORT}. The server fills {@code ${RUN_USER}} and {@code ${RUN_GROUP}}
 * (the template's {@code User}/{@code Group}) by {@link ServerUser}'s rule: started by root, the parent keeps
 * root and the children that handle requests run as {@code www-data}; Apache refuses to run them as root, so a
 * directory {@code www-data} cannot reach fails the start with a message saying so. Not started by root, Apache
 * runs as the test's user ({@code User} and {@code Group} are then the numeric ids and have no effect). Stopped by
 * SIGTERM to the parent (which stops its children), then SIGKILL.
 */
public final class ApacheServer extends FrontEndServer {

    /** Where Debian installs the binary. */
    public static final Path DEBIAN_BINARY = Path.of("/usr/sbin/apache2");
    /** The listen port placeholder. */
    public static final String FRONT_PORT = "FRONT_PORT";
    /** Whom the children run as when Apache is started by root. */
    public static final String ACCOUNT = "www-data";

    private ApacheServer(Path prefix, Path conf, Map<String, Integer> ports, Process process) {
        super("apache", prefix, conf, ports, process);
    }

    /** A server with {@code prefix} as its directory (deleted and made again at start). */
    public static Builder builder(Path prefix) {
        return new Builder(prefix);
    }

    /** Debian's {@code /usr/sbin/apache2}, else {@code apache2} (or {@code httpd}) on the PATH. */
    public static Path findBinary() {
        try {
            return findBinary(DEBIAN_BINARY, "apache2", "apache2 libapache2-mod-xsendfile");
        } catch (IllegalStateException e) {
            return findBinary(Path.of("/usr/sbin/httpd"), "httpd", "apache2 libapache2-mod-xsendfile");
        }
    }

    /** What to start: the template, its values, the port placeholders, the directories the children read. */
    public static final class Builder extends FrontEndServer.Builder<Builder, ApacheServer> {

        private Builder(Path prefix) {
            super(prefix, "conf/httpd.conf", FRONT_PORT);
        }

        @Override
        protected Map<String, String> serverValues() {
            if (!ServerUser.runningAsRoot()) {
                return Map.of("RUN_USER", "#" + id("uid"), "RUN_GROUP", "#" + id("gid"));
            }
            if (ServerUser.unprivileged(ACCOUNT, readDirs()).isEmpty()) {
                throw new IllegalStateException("Apache's children run as " + ACCOUNT + " (never as root), who "
                        + "cannot reach one of " + readDirs() + ": give every directory up to / the o+x bit, or "
                        + "run the tests from a checkout others can read (e.g. below /tmp)");
            }
            return Map.of("RUN_USER", ACCOUNT, "RUN_GROUP", ACCOUNT);
        }

        @Override
        protected List<String> command(Path prefix, Path conf) {
            return List.of(findBinary().toString(), "-f", conf.toString(), "-DFOREGROUND");
        }

        @Override
        protected ApacheServer create(Path prefix, Path conf, Map<String, Integer> ports, Process process) {
            return new ApacheServer(prefix, conf, ports, process);
        }

        private static long id(String attribute) {
            try {
                return ((Number) Files.getAttribute(Path.of("/proc/self"), "unix:" + attribute)).longValue();
            } catch (IOException | RuntimeException e) {
                throw new IllegalStateException("cannot read the test's own " + attribute + " from /proc/self", e);
            }
        }
    }
}
