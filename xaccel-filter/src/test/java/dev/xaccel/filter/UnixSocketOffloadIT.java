package dev.xaccel.filter;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFileAttributeView;
import java.nio.file.attribute.PosixFileAttributes;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.TimeUnit;

import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import dev.xaccel.testsupport.CloseAll;
import dev.xaccel.testsupport.RawHttp;
import dev.xaccel.testsupport.TestPaths;
import dev.xaccel.testsupport.frontend.ServerUser;
import dev.xaccel.testsupport.media.MediaFixture;
import dev.xaccel.testsupport.nginx.DocsNginx;
import dev.xaccel.testsupport.nginx.NginxServer;
import dev.xaccel.testsupport.servlet.WebApp;
import dev.xaccel.testsupport.tomcat.EmbeddedTomcat;

import org.apache.catalina.LifecycleState;
import org.apache.catalina.connector.Connector;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * {@code offload=auto} on a Unix domain socket, end to end: a real Tomcat NIO connector on a socket file
 * ({@code unixDomainSocketPath}) next to its TCP connector, and real nginx with
 * {@code docs/nginx/xaccel-unix.conf.template} as shipped. Two contexts with the same files: {@code /unix} trusts
 * Unix sockets ({@code trustedProxies=unix}), {@code /default} keeps the default (loopback). The marker is
 * believed over the socket only by {@code /unix} (the fabricated 127.0.0.1 never counts), over TCP only by
 * {@code /default}; the socket file's permissions decide who can connect at all.
 */
class UnixSocketOffloadIT {

    static final String TEMPLATE = "docs/nginx/xaccel-unix.conf.template";
    static final String FILE = "book/cover 1.jpg";

    static Path dir;
    static Path media;
    static Path socket;
    static byte[] content;
    static EmbeddedTomcat tomcat;
    static Connector unixConnector;
    static NginxServer nginx;

    /** What the container reports about the connection, as the filter sees it. */
    static final class ConnectionServlet extends HttpServlet {
        private static final long serialVersionUID = 1L;

        @Override
        protected void doGet(HttpServletRequest req, HttpServletResponse resp) throws IOException {
            resp.setContentType("text/plain");
            resp.getWriter().print("remoteAddr=" + req.getRemoteAddr() + "\nremoteHost=" + req.getRemoteHost()
                    + "\nremotePort=" + req.getRemotePort() + "\nlocalAddr=" + req.getLocalAddr() + "\nlocalPort="
                    + req.getLocalPort() + "\n");
        }
    }

    static WebApp app(String path, Map<String, String> more) {
        Map<String, String> params = new java.util.LinkedHashMap<>();
        params.put("locations", media + "/ => /_xaccel/media/");
        params.put("mappings", "/files/ => " + media + "/");
        params.put("jmxName", "none");
        params.putAll(more);
        return WebApp.at(path).xaccelFilter(params).servlet("/connection", new ConnectionServlet());
    }

    @BeforeAll
    static void start() throws Exception {
        dir = TestPaths.freshDir("e2e-unix-socket").toRealPath();
        media = Files.createDirectories(dir.resolve("media"));
        content = MediaFixture.randomBytes(new Random(15), 60_000);
        Files.createDirectories(media.resolve("book"));
        Files.write(media.resolve(FILE), content);
        socket = dir.resolve("app.sock");
        assumeTrue(socket.toString().getBytes(StandardCharsets.UTF_8).length < 100,
                "socket path too long for sun_path: " + socket);
        tomcat = EmbeddedTomcat.builder(dir.resolve("tomcat"))
                .webapp(app("/unix", Map.of("trustedProxies", "unix")))
                .webapp(app("/default", Map.of()))
                .start();
        // a second connector of the same service: the same contexts, reached over the socket file
        unixConnector = new Connector("org.apache.coyote.http11.Http11NioProtocol");
        assertTrue(unixConnector.setProperty("unixDomainSocketPath", socket.toString()));
        // nginx's workers may run as nobody here (NginxUser): the test's socket lets everybody connect; the
        // permission test below narrows it
        assertTrue(unixConnector.setProperty("unixDomainSocketPathPermissions", "rw-rw-rw-"));
        assertTrue(unixConnector.setProperty("maxKeepAliveRequests", "-1"));
        tomcat.tomcat().getService().addConnector(unixConnector);
        assertEquals(LifecycleState.STARTED, unixConnector.getState());
        nginx = DocsNginx.start("unix-socket", DocsNginx.text(TEMPLATE), Map.of("TOMCAT_SOCKET", socket.toString()),
                0, media);
    }

    @AfterAll
    static void stop() {
        CloseAll.of(nginx, tomcat);
    }

    /** One request over the socket file, read until Tomcat closes ({@code Connection: close}). */
    static RawHttp.Response overSocket(RawHttp.Request request) {
        try (SocketChannel ch = SocketChannel.open(UnixDomainSocketAddress.of(socket))) {
            ch.write(ByteBuffer.wrap(request.bytes()));
            ByteArrayOutputStream all = new ByteArrayOutputStream();
            ByteBuffer buf = ByteBuffer.allocate(64 * 1024);
            while (ch.read(buf) >= 0) {
                all.write(buf.array(), 0, buf.position());
                buf.clear();
            }
            return RawHttp.Response.parse(request.method(), all.toByteArray());
        } catch (IOException e) {
            throw new UncheckedIOException("request over " + socket + " failed: " + e, e);
        }
    }

    static RawHttp.Request marked(String target) {
        return RawHttp.get(target).header("X-Sendfile-Type", "X-Accel-Redirect");
    }

    static String fileTarget(String context) {
        return context + "/files/" + MediaFixture.encodePath(FILE);
    }

    @Test
    void tomcatReportsLoopbackAndPortZeroForBothEndsOfAUnixSocket() {
        // what FrontEndTrust relies on: no TCP peer has port 0; the address is fabricated and never compared
        RawHttp.Response r = overSocket(RawHttp.get("/default/connection"));
        assertEquals(200, r.status(), r.toString());
        assertEquals("remoteAddr=127.0.0.1\nremoteHost=127.0.0.1\nremotePort=0\nlocalAddr=127.0.0.1\nlocalPort=0\n",
                r.bodyText());
        RawHttp.Response tcp = RawHttp.get("/default/connection").send(tomcat.port());
        assertTrue(tcp.bodyText().contains("localPort=" + tomcat.port() + "\n"), tcp.bodyText());
        assertTrue(!tcp.bodyText().contains("remotePort=0\n"), tcp.bodyText());
    }

    @Test
    void overTheSocketOnlyTrustedProxiesUnixBelievesTheMarker() {
        RawHttp.Response trusted = overSocket(marked(fileTarget("/unix")));
        assertEquals(200, trusted.status(), trusted.toString());
        assertEquals("/_xaccel/media/book/cover%201.jpg", trusted.header("X-Accel-Redirect"), trusted.toString());
        assertEquals(0, trusted.body().length);
        // the default (loopback) does not trust the 127.0.0.1 Tomcat reports for the socket: served directly
        RawHttp.Response untrusted = overSocket(marked(fileTarget("/default")));
        assertEquals(200, untrusted.status(), untrusted.toString());
        assertNull(untrusted.header("X-Accel-Redirect"), untrusted.toString());
        assertArrayEquals(content, untrusted.body());
    }

    @Test
    void overTcpTheAddressDecidesAndUnixAloneTrustsNoAddress() {
        RawHttp.Response loopback = marked(fileTarget("/default")).send(tomcat.port());
        assertEquals("/_xaccel/media/book/cover%201.jpg", loopback.header("X-Accel-Redirect"), loopback.toString());
        RawHttp.Response unixOnly = marked(fileTarget("/unix")).send(tomcat.port());
        assertNull(unixOnly.header("X-Accel-Redirect"), unixOnly.toString());
        assertArrayEquals(content, unixOnly.body());
    }

    @Test
    void theShippedUnixTemplateOffloadsThroughTheSocketWithTrustedProxiesUnix() {
        RawHttp.Response r = RawHttp.get(fileTarget("/unix")).header("X-Request-Id", "unix-1").send(nginx.port());
        assertEquals(200, r.status(), r.toString());
        assertArrayEquals(content, r.body());
        assertEquals("nosniff", r.header("X-Content-Type-Options"), r.toString());
        String line = nginx.awaitAccessLogLine("unix-1");
        // nginx got an empty answer from the application over the socket and sent the file itself
        assertTrue(line.contains("ulen=0 "), line);
        assertTrue(line.contains("upstream=unix:" + socket), line);
        assertTrue(line.contains("uri=\"/_xaccel/media/book/cover 1.jpg\""), line);
    }

    @Test
    void withoutUnixInTrustedProxiesTheSameTemplateGetsTheFileServedByTheApplication() {
        RawHttp.Response r = RawHttp.get(fileTarget("/default")).header("X-Request-Id", "unix-2").send(nginx.port());
        assertEquals(200, r.status(), r.toString());
        assertArrayEquals(content, r.body());
        String line = nginx.awaitAccessLogLine("unix-2");
        assertTrue(line.contains("ulen=" + content.length + " "), line);
    }

    @Test
    void theInternalLocationIsNotReachableFromOutside() {
        assertEquals(404, RawHttp.get("/_xaccel/media/" + MediaFixture.encodePath(FILE)).send(nginx.port()).status());
    }

    /**
     * The boundary is the socket file: a process whose user may not write it cannot connect at all. Needs root
     * (to run the client as {@code nobody}) and {@code runuser} and {@code curl}.
     */
    @Test
    void onlyAUserWhoMayWriteTheSocketFileCanConnect() throws Exception {
        assumeTrue(isRoot() && Files.isExecutable(Path.of("/usr/sbin/runuser"))
                && Files.isExecutable(Path.of("/usr/bin/curl")), "needs root, runuser and curl");
        int open = curlAsNobody();
        assumeTrue(open == 0, "nobody cannot reach " + socket + " even with rw-rw-rw- (a parent directory?)");
        var before = Files.getPosixFilePermissions(socket);
        try {
            Files.setPosixFilePermissions(socket, PosixFilePermissions.fromString("rw-rw----"));
            assertEquals(7, curlAsNobody(), "curl's exit code for a refused connect(): permission denied");
        } finally {
            Files.setPosixFilePermissions(socket, before);
        }
        assertEquals(0, curlAsNobody());
    }

    /**
     * The hop as deployed (docs/nginx/tomcat-unix-connector.xml): nginx's master as root, its workers as www-data;
     * the socket in a directory {@code root:www-data 2750}, whose setgid bit gives the socket Tomcat creates the
     * directory's group, and the socket {@code rw-rw----}. Workers in that group get the file byte-exact through the
     * socket; workers outside it ({@code nobody}) get nginx's 502 and no byte of the file.
     */
    @Test
    void workersInTheSocketsGroupGetTheFileAndWorkersOutsideItGet502() throws Exception {
        assumeTrue(isRoot() && ServerUser.exists("www-data") && ServerUser.exists("nobody"),
                "needs root (nginx's master switches its workers to www-data and to nobody) and both accounts");
        assumeTrue(ServerUser.othersCanReach(dir), "www-data cannot reach " + dir
                + ": a directory above it lets no others through (the test does not change it)");
        // what www-data reads, explicitly: the media tree (nginx opens the file) and the way to the socket
        for (Path p : List.of(dir, media, media.resolve("book"))) {
            Files.setPosixFilePermissions(p, PosixFilePermissions.fromString("rwxr-xr-x"));
        }
        Files.setPosixFilePermissions(media.resolve(FILE), PosixFilePermissions.fromString("rw-r--r--"));
        Path run = Files.createDirectory(dir.resolve("run"));
        Files.getFileAttributeView(run, PosixFileAttributeView.class).setGroup(
                run.getFileSystem().getUserPrincipalLookupService().lookupPrincipalByGroupName("www-data"));
        // the setgid bit: Java's permission API cannot set it
        Process chmod = new ProcessBuilder("chmod", "2750", run.toString()).inheritIO().start();
        assertTrue(chmod.waitFor(20, TimeUnit.SECONDS) && chmod.exitValue() == 0, "chmod 2750 " + run);
        Path groupSocket = run.resolve("app.sock");
        Connector c = new Connector("org.apache.coyote.http11.Http11NioProtocol");
        assertTrue(c.setProperty("unixDomainSocketPath", groupSocket.toString()));
        assertTrue(c.setProperty("unixDomainSocketPathPermissions", "rw-rw----"));
        tomcat.tomcat().getService().addConnector(c);
        try (NginxServer inGroup = nginxAs("www-data", "www-data", groupSocket);
                NginxServer outside = nginxAs("nobody", "nogroup", groupSocket)) {
            assertEquals(LifecycleState.STARTED, c.getState());
            assertEquals("www-data", Files.readAttributes(groupSocket, PosixFileAttributes.class).group().getName(),
                    "the socket takes the setgid directory's group");
            assertEquals("rw-rw----", PosixFilePermissions.toString(Files.getPosixFilePermissions(groupSocket)));
            assertEquals(List.of("www-data"), workerUsers(inGroup));
            assertEquals(List.of("nobody"), workerUsers(outside));

            RawHttp.Response r = RawHttp.get(fileTarget("/unix")).header("X-Request-Id", "unix-group")
                    .send(inGroup.port());
            assertEquals(200, r.status(), r.toString());
            assertArrayEquals(content, r.body());
            String line = inGroup.awaitAccessLogLine("unix-group");
            assertTrue(line.contains("ulen=0 ") && line.contains("upstream=unix:" + groupSocket), line);

            RawHttp.Response refused = RawHttp.get(fileTarget("/unix")).header("X-Request-Id", "unix-outside")
                    .send(outside.port());
            assertEquals(502, refused.status(), refused.toString());
            assertTrue(RawHttp.indexOf(refused.raw(), Arrays.copyOf(content, 64), 0) < 0, "no byte of the file");
            outside.awaitAccessLogLine("unix-outside");
            assertTrue(outside.errorLog().contains("(13: Permission denied) while connecting to upstream"),
                    outside.errorLog());
        } finally {
            tomcat.tomcat().getService().removeConnector(c);
            c.destroy();
        }
    }

    /** nginx from the shipped template on {@code sock}, its workers as {@code user}:{@code group}. */
    private static NginxServer nginxAs(String user, String group, Path sock) throws IOException {
        return NginxServer.builder(TestPaths.target().resolve("nginx-unix-socket-" + user))
                .template(DocsNginx.text(TEMPLATE)).value("TOMCAT_SOCKET", sock.toString())
                .value("MEDIA_ROOT", media.toString()).user(user, group).start();
    }

    /** The accounts nginx's workers run as. */
    private static List<String> workerUsers(NginxServer nginx) {
        return nginx.workerPids().stream().map(pid -> ProcessHandle.of(pid).flatMap(h -> h.info().user())
                .orElse("?")).distinct().toList();
    }

    private static int curlAsNobody() throws Exception {
        Process p = new ProcessBuilder(List.of("/usr/sbin/runuser", "-u", "nobody", "--", "/usr/bin/curl", "-s",
                "-o", "/dev/null", "--unix-socket", socket.toString(), "http://app/default/connection"))
                .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
        assertTrue(p.waitFor(20, TimeUnit.SECONDS), "curl did not finish");
        return p.exitValue();
    }

    private static boolean isRoot() {
        try {
            return ((Number) Files.getAttribute(Path.of("/proc/self"), "unix:uid")).intValue() == 0;
        } catch (IOException | UnsupportedOperationException | IllegalArgumentException e) {
            return false;
        }
    }

    /**
     * What an operator meets after a crash (docs/security.md): Tomcat removes its socket file when the connector
     * stops, but a file left by a killed process makes the connector fail to start (it does not unlink it).
     */
    @Test
    void theSocketFileIsRemovedOnStopAndAStaleOneStopsTheConnectorFromStarting() throws Exception {
        Path second = dir.resolve("second.sock");
        Connector c = new Connector("org.apache.coyote.http11.Http11NioProtocol");
        assertTrue(c.setProperty("unixDomainSocketPath", second.toString()));
        tomcat.tomcat().getService().addConnector(c);
        assertTrue(Files.exists(second));
        tomcat.tomcat().getService().removeConnector(c);
        c.destroy();
        assertTrue(!Files.exists(second), "socket file left after the connector stopped");
        // a stale socket file, as a killed process leaves it (Java does not unlink on close)
        try (var stale = java.nio.channels.ServerSocketChannel.open(java.net.StandardProtocolFamily.UNIX)) {
            stale.bind(UnixDomainSocketAddress.of(second));
        }
        assertTrue(Files.exists(second));
        Connector again = new Connector("org.apache.coyote.http11.Http11NioProtocol");
        assertTrue(again.setProperty("unixDomainSocketPath", second.toString()));
        tomcat.tomcat().getService().addConnector(again);
        try {
            assertEquals(LifecycleState.FAILED, again.getState());
        } finally {
            tomcat.tomcat().getService().removeConnector(again);
            again.destroy();
        }
    }
}
