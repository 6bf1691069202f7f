package dev.xaccel.testsupport.frontend;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.ServiceLoader;
import java.util.concurrent.ConcurrentHashMap;

import com.sun.net.httpserver.HttpServer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import dev.xaccel.testsupport.Ports;
import dev.xaccel.testsupport.RawHttp;
import dev.xaccel.testsupport.TestPaths;
import dev.xaccel.testsupport.nginx.NginxFrontEnd;
import dev.xaccel.testsupport.servlet.SuiteApp;

/**
 * Every registered front end (FrontEnd$Factory), with its shipped config, in front of a minimal application (the
 * JDK's HTTP server answering with each front end's offload header): the file arrives, the marker and the client
 * address reach the application as the configs promise, the access log names the request, the request-handling
 * processes run unprivileged when the test is root, and the stop by PID ends every process the server started.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class FrontEndFactoriesIT {

    static final byte[] FILE = "a file below the root, served by the front end\n".repeat(40)
            .getBytes(StandardCharsets.US_ASCII);

    private HttpServer app;
    private Path media;
    private final Map<String, Map<String, String>> seen = new ConcurrentHashMap<>();

    @BeforeAll
    void startApp() throws IOException {
        media = Files.createDirectories(TestPaths.freshDir("frontend-selftest").resolve("media")).toRealPath();
        Files.write(media.resolve("file.bin"), FILE);
        app = HttpServer.create(new InetSocketAddress(Ports.LOOPBACK, 0), 16);
        app.createContext("/", x -> {
            String id = x.getRequestHeaders().getFirst("X-Request-Id");
            Map<String, String> h = new java.util.TreeMap<>(String.CASE_INSENSITIVE_ORDER);
            x.getRequestHeaders().forEach((k, v) -> h.put(k, String.join(",", v)));
            h.put("peer", x.getRemoteAddress().getAddress().getHostAddress());
            if (id != null) {
                seen.put(id, h);
            }
            String marker = Optional.ofNullable(x.getRequestHeaders().getFirst("X-Sendfile-Type")).orElse("");
            String value = marker.equalsIgnoreCase("X-Sendfile") ? media + "/file.bin"
                    : SuiteApp.INTERNAL_PREFIX + "file.bin";
            x.getResponseHeaders().add(marker.isEmpty() ? "X-No-Marker" : marker, value);
            x.getResponseHeaders().add("Content-Type", "application/x-selftest");
            x.sendResponseHeaders(200, -1);
            x.close();
        });
        app.start();
    }

    @AfterAll
    void stopApp() {
        if (app != null) {
            app.stop(0);
        }
    }

    static FrontEnd.Factory factory(String name) {
        return ServiceLoader.load(FrontEnd.Factory.class).stream().map(ServiceLoader.Provider::get)
                .filter(f -> f.name().equals(name)).findFirst().orElseThrow();
    }

    static FrontEndServer server(FrontEnd fe) {
        return fe instanceof NginxFrontEnd n ? n.server() : ((RunningFrontEnd) fe).server();
    }

    @ParameterizedTest
    @ValueSource(strings = {"nginx", "apache", "lighttpd", "caddy"})
    void offloadsMarksStripsLogsDropsPrivilegesAndStopsByPid(String name) throws Exception {
        FrontEnd.Factory fe = factory(name);
        FrontEnd running = fe.start("selftest", app.getAddress().getPort(), media);
        FrontEndServer server = server(running);
        List<ProcessHandle> processes;
        try {
            String id = "selftest-" + name;
            RawHttp.Response r = RawHttp.get("/any").header("X-Request-Id", id)
                    .header("X-Sendfile-Type", "client-spoofed").header("X-Forwarded-For", "6.6.6.6")
                    .header("X-Real-IP", "6.6.6.6").header("Forwarded", "for=6.6.6.6")
                    .header("X-Accel-Mapping", "/=/").send(server.port());
            assertEquals(200, r.status(), r.toString());
            assertArrayEquals(FILE, r.body(), fe + " sent the file");
            assertEquals("application/x-selftest", r.header("Content-Type"));
            assertNull(r.header(fe.offloadHeader()), "the offload header stays inside: " + r);

            Map<String, String> h = seen.get(id);
            assertEquals(fe.offloadHeader(), h.get("X-Sendfile-Type"), "the marker replaces the client's: " + h);
            assertEquals("127.0.0.1", h.get("peer"));
            if (!name.equals("nginx")) {
                // (nginx's template appends to the client's X-Forwarded-For and passes the others; the filter reads
                // none of them, only the peer address)
                assertEquals("127.0.0.1", h.get("X-Forwarded-For"), "no client-supplied address: " + h);
                assertNull(h.get("X-Accel-Mapping"), h.toString());
                assertNull(h.get("X-Real-IP"), h.toString());
                String fwd = h.get("Forwarded");
                assertTrue(fwd == null || !fwd.contains("6.6.6.6"), "Forwarded: " + fwd);
            }
            assertTrue(server.awaitAccessLogLine(id).contains(id));

            processes = ProcessHandle.of(server.pid()).orElseThrow().descendants().toList();
            if (ServerUser.runningAsRoot()) {
                String expected = switch (name) {
                    case "nginx" -> "nobody";
                    case "caddy" -> "caddy";
                    default -> "www-data";
                };
                List<ProcessHandle> handlers = name.equals("lighttpd") || name.equals("caddy")
                        ? List.of(ProcessHandle.of(server.pid()).orElseThrow()) : processes;
                assertFalse(handlers.isEmpty(), fe + " has processes");
                for (ProcessHandle p : handlers) {
                    Optional<String> user = userOnceSettled(p);
                    if (user.isEmpty() && !p.isAlive()) {
                        continue; // a child that ended meanwhile (Apache retires idle ones) serves nobody
                    }
                    assertEquals(Optional.of(expected), user, fe + " process " + p.pid() + " "
                            + p.info().commandLine().orElse(""));
                }
            }
        } finally {
            running.close();
        }
        assertFalse(server.isAlive());
        for (ProcessHandle p : processes) {
            assertFalse(p.isAlive(), fe + " process " + p.pid() + " outlived the stop");
        }
    }

    /**
     * The user a handler process runs as once it has dropped root: Apache forks a new child as root and the child
     * switches user right after, so a child forked just before the look (a busy machine) may still be root for a
     * moment. A child still root after 10 s is reported as it is; one that ended has no user.
     */
    private static Optional<String> userOnceSettled(ProcessHandle p) throws InterruptedException {
        long deadline = System.nanoTime() + 10_000_000_000L;
        Optional<String> user = p.info().user();
        while (user.equals(Optional.of("root")) && p.isAlive() && System.nanoTime() < deadline) {
            Thread.sleep(50);
            user = p.info().user();
        }
        return user;
    }
}
