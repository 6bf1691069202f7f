package dev.xaccel.filter;

import dev.xaccel.testsupport.media.MediaFixture;
import dev.xaccel.testsupport.nginx.DocsNginx;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

import dev.xaccel.filter.jaxrs.XAccelFeature;
import dev.xaccel.testsupport.LogCapture;
import dev.xaccel.testsupport.RawHttp;
import dev.xaccel.testsupport.TestPaths;
import dev.xaccel.testsupport.nginx.NginxServer;
import dev.xaccel.testsupport.servlet.WebApp;
import dev.xaccel.testsupport.tomcat.EmbeddedTomcat;

import jakarta.servlet.AsyncContext;
import jakarta.servlet.DispatcherType;
import jakarta.servlet.Filter;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletRequest;
import jakarta.servlet.ServletResponse;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import jakarta.servlet.http.HttpServletResponseWrapper;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Produces;

import org.glassfish.jersey.message.GZipEncoder;
import org.glassfish.jersey.server.ResourceConfig;
import org.glassfish.jersey.server.filter.EncodingFilter;
import org.glassfish.jersey.servlet.ServletContainer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Findings of the security review about what else travels with a file, each against real Tomcat (and real nginx
 * from docs/nginx/xaccel.conf.template where the front end is part of it): a compressing filter's
 * Content-Encoding, the security headers of user content, a file that shrinks before its first byte, a path too
 * long for nginx's header buffer, declarations from an async dispatch, and the headers of outer filters when
 * downstream code wrote a body before declaring.
 */
class DeliveryHygieneIT {

    static final byte[] DATA = MediaFixture.randomBytes(new Random(9), 100_000);
    static final String CSP = "default-src 'none'; style-src 'unsafe-inline'; sandbox";

    static Path dir;
    static Path media;
    static EmbeddedTomcat tomcat;
    static NginxServer nginx;
    static LogCapture log;
    static String deepPath;

    /** JAX-RS resource of a compressing application: returns the file, declared @Produces. */
    @jakarta.ws.rs.Path("/data")
    public static class DataResource {
        @GET
        @Produces("application/x-test-data")
        public Path get() {
            return media.resolve("data.bin");
        }
    }

    /** Outer filter of an application: security and CORS headers, a cookie; {@code ?shrink=1} truncates the file. */
    static final class OuterFilter implements Filter {
        @Override
        public void doFilter(ServletRequest request, ServletResponse response, FilterChain chain)
                throws IOException, ServletException {
            HttpServletResponse resp = (HttpServletResponse) response;
            resp.setHeader("Strict-Transport-Security", "max-age=31536000");
            resp.setHeader("Access-Control-Allow-Origin", "https://app.example");
            resp.addCookie(new jakarta.servlet.http.Cookie("outer", "1"));
            if (request.getParameter("shrink") != null) {
                // the file loses its bytes after the filter opened it (its length is set), before the first byte
                resp = new HttpServletResponseWrapper(resp) {
                    @Override
                    public void setContentLengthLong(long len) {
                        super.setContentLengthLong(len);
                        truncate(media.resolve(request.getParameter("f")));
                    }
                };
            }
            chain.doFilter(request, resp);
        }
    }

    /** Starts async processing and dispatches to {@code /declare/?f=...}, where the file is declared. */
    static final class DispatchingServlet extends HttpServlet {
        private static final long serialVersionUID = 1L;

        @Override
        protected void doGet(HttpServletRequest req, HttpServletResponse resp) {
            AsyncContext async = req.startAsync();
            async.dispatch("/declare/?" + req.getQueryString());
        }
    }

    static void truncate(Path file) {
        try {
            Files.write(file, new byte[0]);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @BeforeAll
    static void start() throws Exception {
        dir = TestPaths.freshDir("e2e-hygiene");
        media = Files.createDirectories(dir.resolve("media")).toRealPath();
        Files.write(media.resolve("data.bin"), DATA);
        Files.writeString(media.resolve("page.html"), "<script>alert(document.cookie)</script>");
        // ~4.4 KB once percent-encoded: six directories of 80 three-byte characters
        StringBuilder deep = new StringBuilder();
        for (int i = 0; i < 6; i++) {
            deep.append("\u65e5".repeat(80)).append(i).append('/');
        }
        deepPath = deep + "deep.bin";
        Files.createDirectories(media.resolve(deepPath).getParent());
        Files.write(media.resolve(deepPath), DATA);

        log = LogCapture.exclusive(XAccelFilter.class.getPackageName());
        tomcat = EmbeddedTomcat.builder(dir.resolve("tomcat"))
                .webapp(context("/direct", Map.of("offload", "never"))
                        .servlet("/api/*", new ServletContainer(new ResourceConfig(DataResource.class)
                                .register(XAccelFeature.class).register(EncodingFilter.class)
                                .register(GZipEncoder.class))))
                .webapp(context("/offload", Map.of()))
                .webapp(context("/long", Map.of("maxRedirectLength", "16000")))
                .webapp(context("/nocsp", Map.of("offload", "never", "contentSecurityPolicy", "none")))
                .webapp(context("/async", Map.of(), DispatcherType.REQUEST, DispatcherType.ASYNC))
                .start();
        nginx = DocsNginx.start("hygiene", tomcat.port(), media);
    }

    static Map<String, String> params(Map<String, String> extra) {
        Map<String, String> p = new HashMap<>();
        p.put("locations", media + "/ => /_xaccel/media/");
        p.put("mappings", "/library/ => " + media + "/");
        p.put("jmxName", "none");
        p.putAll(extra);
        return p;
    }

    /**
     * A context with Tomcat's MIME table: the outer filter, then the XAccelFilter (for {@code dispatchers}), the
     * declaring and the dispatching servlet; whatever the filter passes on reaches a catch-all "chain".
     */
    static WebApp context(String path, Map<String, String> extra, DispatcherType... dispatchers) {
        return WebApp.at(path).containerMimeMappings()
                .filter("outer", new OuterFilter())
                .xaccelFilter(params(extra), dispatchers)
                .servlet("/declare/*", new DeclaringServlet(media))
                .servlet("/dispatch/*", new DispatchingServlet())
                .defaultServlet(new ChainServlet());
    }

    @AfterAll
    static void stop() throws Exception {
        try {
            if (nginx != null) {
                nginx.close();
            }
        } finally {
            tomcat.close();
            log.close();
        }
    }

    static RawHttp.Response direct(String target, String... headers) {
        RawHttp.Request r = RawHttp.get(target);
        for (int i = 0; i < headers.length; i += 2) {
            r.header(headers[i], headers[i + 1]);
        }
        return r.send(tomcat.port());
    }

    static RawHttp.Response viaNginx(String target) {
        return RawHttp.get(target).send(nginx.port());
    }

    // ---- Content-Encoding of a compressing filter (Jersey's EncodingFilter + GZipEncoder)

    @Test
    void aCompressingFilterLeavesNoContentEncodingOnADirectlyServedFile() {
        RawHttp.Response r = direct("/direct/api/data", "Accept-Encoding", "gzip");
        assertEquals(200, r.status(), r.toString());
        assertNull(r.header("Content-Encoding"), "the body is the raw file: " + r);
        assertNull(r.header("Transfer-Encoding"), r.toString());
        assertEquals("application/x-test-data", r.header("Content-Type"));
        assertArrayEquals(DATA, r.body());
    }

    // ---- security headers of user content

    @ParameterizedTest
    @ValueSource(strings = {"direct", "nginx"})
    void userContentIsNeitherSniffedNorRunAsScript(String via) {
        RawHttp.Response r = via.equals("direct") ? direct("/direct/library/page.html")
                : viaNginx("/offload/library/page.html");
        assertEquals(200, r.status(), r.toString());
        assertEquals("text/html", r.header("Content-Type").replaceAll(";.*", ""));
        assertEquals("nosniff", r.header("X-Content-Type-Options"), r.toString());
        assertEquals(CSP, r.header("Content-Security-Policy"), r.toString());
        if (via.equals("nginx")) {
            assertTrue(nginx.accessLog().stream().anyMatch(l -> l.contains("uri=\"/_xaccel/media/page.html\"")),
                    "offloaded");
        }
    }

    @Test
    void contentSecurityPolicyNoneSendsNone() {
        RawHttp.Response r = direct("/nocsp/library/page.html");
        assertEquals(200, r.status());
        assertNull(r.header("Content-Security-Policy"));
        assertEquals("nosniff", r.header("X-Content-Type-Options"));
    }

    // ---- a file that shrinks between the check and its first byte

    @Test
    void aFileThatShrinksBeforeItsFirstByteIsABare500WithoutPathOrTrace() throws IOException {
        Files.write(media.resolve("shrinks.bin"), DATA);
        RawHttp.Response r = direct("/direct/declare/?f=shrinks.bin&shrink=1");
        assertEquals(500, r.status(), r.toString());
        String all = new String(r.raw(), StandardCharsets.ISO_8859_1);
        assertFalse(all.contains(media.toString()), "absolute path in the response: " + all);
        assertFalse(all.contains("Exception") || all.contains("at dev.") || all.contains("Tomcat"), all);
        assertEquals(0, r.body().length, all);
        assertEquals("max-age=31536000", r.header("Strict-Transport-Security"), "outer headers kept: " + r);
    }

    // ---- a path whose offload header would not fit nginx's header buffer

    @Test
    void aPathTooLongForTheFrontEndsBufferIsServedDirectly() {
        String target = "/offload/library/" + MediaFixture.encodePath(deepPath);
        RawHttp.Response r = viaNginx(target);
        assertEquals(200, r.status(), r.toString());
        assertArrayEquals(DATA, r.body());
        assertEquals(1, log.count(java.util.logging.Level.WARNING, "directly: its offload header would have"),
                "one throttled warning");
    }

    @Test
    void withALargerLimitAndTheTemplatesBufferTheLongPathIsOffloaded() {
        String target = "/long/library/" + MediaFixture.encodePath(deepPath);
        RawHttp.Response r = viaNginx(target);
        assertEquals(200, r.status(), r.toString());
        assertArrayEquals(DATA, r.body());
        String line = nginx.accessLog().stream().filter(l -> l.contains("GET /long/library/")).reduce((a, b) -> b)
                .orElseThrow();
        assertTrue(line.contains("uri=\"/_xaccel/media/"), "offloaded: " + line);
        assertTrue(line.contains("ulen=0"), line);
    }

    // ---- declarations from the target of AsyncContext.dispatch()

    @ParameterizedTest
    @ValueSource(strings = {"/direct", "/async"})
    void aFileDeclaredByTheTargetOfAnAsyncDispatchIsDelivered(String context) {
        RawHttp.Response r = direct(context + "/dispatch/?f=data.bin");
        assertEquals(200, r.status(), r.toString());
        assertArrayEquals(DATA, r.body());
        assertEquals("1", cookie(r, "outer"));
    }

    @ParameterizedTest
    @ValueSource(strings = {"/offload", "/async"})
    void anAsyncDispatchTargetsDeclarationIsOffloadedThroughNginx(String context) {
        RawHttp.Response r = viaNginx(context + "/dispatch/?f=data.bin");
        assertEquals(200, r.status(), r.toString());
        assertArrayEquals(DATA, r.body());
    }

    // ---- body bytes before the declaration: outer filters' headers survive

    @Test
    void bodyWrittenBeforeTheDeclarationKeepsTheHeadersOfOuterFilters() {
        RawHttp.Response r = direct("/direct/declare/?f=data.bin&pre=1");
        assertEquals(200, r.status(), r.toString());
        assertArrayEquals(DATA, r.body());
        assertEquals("max-age=31536000", r.header("Strict-Transport-Security"), r.toString());
        assertEquals("https://app.example", r.header("Access-Control-Allow-Origin"), r.toString());
        assertEquals("1", cookie(r, "outer"), r.toString());
        assertEquals("application/octet-stream", r.header("Content-Type"));
    }

    static String cookie(RawHttp.Response r, String name) {
        List<String> cookies = r.headers("Set-Cookie");
        for (String c : cookies) {
            if (c.startsWith(name + "=")) {
                return c.substring(name.length() + 1).replaceAll(";.*", "");
            }
        }
        assertNotNull(null, "no cookie " + name + " in " + r);
        return null;
    }
}
