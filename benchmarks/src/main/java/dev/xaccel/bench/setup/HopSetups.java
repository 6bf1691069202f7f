package dev.xaccel.bench.setup;

import java.nio.file.Path;

import dev.xaccel.bench.run.BenchFailure;
import dev.xaccel.bench.server.BareAccelServlet;

/**
 * The two setups of the hop from nginx to Tomcat (issue 15): {@code bare}, nginx in front of
 * {@link BareAccelServlet} through the same upstream as setup 3 (the floor of the round trip), and {@code uds},
 * setup 3 with nginx reaching the hop's BenchServer over a Unix domain socket (Tomcat's
 * {@code unixDomainSocketPath}, nginx's {@code server unix:...}) instead of loopback TCP, with the same upstream
 * keep-alive and the same proxy lines. The socket file lies in the run's directory ({@link #socket}); both nginx and
 * the BenchServer derive it from there, so that nothing else has to carry it.
 */
public final class HopSetups {

    /** The socket file's name in the run's directory ({@code work/run/} of a run). */
    static final String SOCKET_NAME = "tomcat.sock";
    /** Longest path a socket address takes on Linux ({@code sun_path} is 108 bytes with the NUL). */
    static final int MAX_SOCKET_PATH = 107;

    private HopSetups() {
    }

    /** The socket file of the run whose directory is {@code runWork}. */
    static Path socket(Path runWork) {
        Path s = runWork.toAbsolutePath().resolve(SOCKET_NAME);
        if (s.toString().getBytes(java.nio.charset.StandardCharsets.UTF_8).length > MAX_SOCKET_PATH) {
            throw new BenchFailure("the Unix socket path " + s + " is longer than " + MAX_SOCKET_PATH
                    + " bytes (sun_path): run the benchmark from a shorter directory");
        }
        return s;
    }

    /** The socket file, from nginx's prefix ({@code <run>/nginx}, BenchDriver). */
    static Path socketOfNginxPrefix(Path nginxPrefix) {
        return socket(nginxPrefix.toAbsolutePath().getParent());
    }

    /**
     * The {@code http {}} part of setups 12 and 13 for {@link BenchNginxConf#template}: the Unix-socket upstream and
     * the two servers, with the harness's proxy lines ({@code proxyLines}, {@code proxy_pass http://tomcat;} the
     * first) and the internal location of the template, as in setup 3.
     */
    static String nginxServers(String proxyLines, String internalLocation, Path socket, String gate) {
        String unixProxy = proxyLines.replace("proxy_pass http://tomcat_hop;", "proxy_pass http://tomcat_unix;");
        if (unixProxy.equals(proxyLines)) {
            throw new IllegalStateException("the proxy lines have no 'proxy_pass http://tomcat_hop;'");
        }
        return """

                    # (12) bare X-Accel servlet: the upstream and proxy lines of (3), context %s: no auth, no filter, no
                    #     file system call, a fixed X-Accel-Redirect per file name (the floor of the round trip); it
                    #     answers only with the header below (the run's secret), which no other server sets
                    server {
                        listen 127.0.0.1:${BARE_PORT};
                        location / {
                %s            proxy_set_header X-Sendfile-Type X-Accel-Redirect;
                            proxy_set_header %s "%s";
                        }
                %s
                    }

                    # (13) xaccel over a Unix domain socket: (3) with the upstream on Tomcat's unixDomainSocketPath,
                    #      the same keepalive and proxy lines (the filter of /accel has trustedProxies ... unix)
                    upstream tomcat_unix {
                        server unix:%s;
                        keepalive 64;
                    }
                    server {
                        listen 127.0.0.1:${UDS_PORT};
                        location / {
                %s            proxy_set_header X-Sendfile-Type X-Accel-Redirect;
                        }
                %s
                    }
                """.formatted(BareAccelServlet.CONTEXT, proxyLines, BareAccelServlet.GATE_HEADER, gate,
                internalLocation, socket, unixProxy, internalLocation);
    }
}
