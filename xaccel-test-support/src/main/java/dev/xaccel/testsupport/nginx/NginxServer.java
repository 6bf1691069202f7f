package dev.xaccel.testsupport.nginx;

import dev.xaccel.testsupport.frontend.FrontEndServer;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * A real, Debian-packaged nginx, started as a child process of the test JVM ({@link FrontEndServer}: template,
 * free loopback ports with retry, logs, stop by PID).
 * <p>
 * The template is rendered into {@code <prefix>/conf/nginx.conf}; {@code <prefix>} is nginx's own directory (made
 * fresh: {@code logs/}, {@code tmp/}, {@code conf/mime.types}), the directory every relative path of the template
 * resolves against. The listen port placeholder is {@code NGINX_PORT} unless {@linkplain Builder#ports(String...)
 * told otherwise}. nginx runs in the foreground ({@code -g "daemon off;"}), with {@link NginxUser}'s rule for its
 * workers, and is stopped by its PID: SIGQUIT (graceful), then SIGTERM, then SIGKILL, its workers too. A missing
 * nginx fails the test: CI installs Debian's package.
 */
public final class NginxServer extends FrontEndServer {

    /** Where Debian installs nginx. */
    public static final Path DEBIAN_BINARY = Path.of("/usr/sbin/nginx");
    /** The placeholder of the listen port unless the builder names others. */
    public static final String NGINX_PORT = "NGINX_PORT";

    private NginxServer(Path prefix, Path conf, Map<String, Integer> ports, Process process) {
        super("nginx", prefix, conf, ports, process);
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

    /** What to start: the template, its values, the port placeholders, the directories the workers read. */
    public static final class Builder extends FrontEndServer.Builder<Builder, NginxServer> {

        private Builder(Path prefix) {
            super(prefix, "conf/nginx.conf", NGINX_PORT);
        }

        @Override
        protected void prepare(Path prefix) throws IOException {
            Files.createDirectories(prefix.resolve("tmp"));
            Files.createDirectories(prefix.resolve("conf"));
            copyMimeTypes(prefix.resolve("conf/mime.types"));
        }

        @Override
        protected List<String> command(Path prefix, Path conf) {
            String globals = "daemon off;" + NginxUser.directive(readDirs()).map(d -> " " + d).orElse("");
            return List.of(findBinary().toString(), "-p", prefix + "/", "-e", "logs/error.log",
                    "-c", prefix.relativize(conf).toString(), "-g", globals);
        }

        @Override
        protected NginxServer create(Path prefix, Path conf, Map<String, Integer> ports, Process process) {
            return new NginxServer(prefix, conf, ports, process);
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
