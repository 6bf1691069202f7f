package dev.xaccel.filter;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.lang.management.ManagementFactory;
import java.net.http.HttpHeaders;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.logging.Level;
import javax.management.MBeanServer;
import javax.management.ObjectName;

import jakarta.ws.rs.GET;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.WebApplicationException;

import org.glassfish.jersey.server.ResourceConfig;
import org.glassfish.jersey.servlet.ServletContainer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import dev.xaccel.filter.jaxrs.XAccelFeature;
import dev.xaccel.testsupport.JdkHttp;
import dev.xaccel.testsupport.LogCapture;
import dev.xaccel.testsupport.servlet.WebApp;
import dev.xaccel.testsupport.tomcat.EmbeddedTomcat;

/** The filter inside a real embedded Tomcat, configured as web.xml would (FilterDef, init-params, FilterMap). */
class XAccelFilterIT {

    static final String MARKER = "X-Sendfile-Type";
    static final String ACCEL = "X-Accel-Redirect";
    static final String AWKWARD = "a b#?%\u00fc.mp3";
    static final String AWKWARD_URL = "a%20b%23%3F%25%C3%BC.mp3";
    static final byte[] SONG = "ID3 pretend this is music".getBytes(StandardCharsets.US_ASCII);

    @TempDir
    static Path tmp;
    static Path media;
    static Path outside;
    static EmbeddedTomcat tomcat;
    static JdkHttp http;
    static LogCapture log;

    @BeforeAll
    static void start() throws Exception {
        media = Files.createDirectories(tmp.resolve("media"));
        Files.write(media.resolve("song.mp3"), SONG);
        Files.write(media.resolve(AWKWARD), SONG);
        Files.writeString(media.resolve(".hidden.txt"), "secret");
        Files.createDirectories(media.resolve("sub"));
        Files.writeString(media.resolve("sub/doc.pdf"), "%PDF-1.4");
        outside = Files.createDirectories(tmp.resolve("outside"));
        Files.writeString(outside.resolve("secret.txt"), "outside");
        Files.writeString(outside.resolve("free.txt"), "free");
        Files.writeString(outside.resolve(".env"), "free");
        Files.createSymbolicLink(media.resolve("link-out"), outside);
        FilesResource.root = media;
        FilesResource.outside = outside;

        log = LogCapture.exclusive(XAccelFilter.class.getPackageName());
        WebApp root = app("", params())
                .servlet("/declare/*", new DeclaringServlet(media))
                .servlet("/api/*", new ServletContainer(new ResourceConfig(FilesResource.class)
                        .register(XAccelFeature.class).register(JsonForEverything.class)));

        Map<String, String> never = params();
        never.put("offload", "never");

        Map<String, String> untrusted = params();
        untrusted.put("trustedProxies", "10.0.0.0/8, 2001:db8::/32");

        Map<String, String> sendfile = params();
        sendfile.put("offload", "always");
        sendfile.put("headerType", "X-Sendfile");
        sendfile.put("limitRate", "1000");

        Map<String, String> extras = params();
        extras.put("offload", "always");
        extras.put("limitRate", "1000");
        extras.put("charset", "utf-8");
        extras.put("accelExpires", "0");
        extras.put("cacheControl", "private, max-age=60");
        extras.put("disposition", "attachment");
        extras.put("allowUnmapped", "true");
        tomcat = EmbeddedTomcat.builder(tmp.resolve("tomcat"))
                .webapp(root)
                .webapp(app("/never", never).servlet("/declare/*", new DeclaringServlet(media)))
                .webapp(app("/untrusted", untrusted))
                .webapp(app("/xsendfile", sendfile))
                .webapp(app("/extras", extras).servlet("/declare/*", new DeclaringServlet(media)))
                .webapp(app("/jmx", never))
                .webapp(app("/jmx-offload", params()))
                .start();
        http = new JdkHttp(tomcat.port());
    }

    /** A context with Tomcat's MIME table and the filter; whatever it passes on reaches a catch-all "chain". */
    static WebApp app(String contextPath, Map<String, String> initParams) {
        return WebApp.at(contextPath).containerMimeMappings().xaccelFilter(initParams)
                .defaultServlet(new ChainServlet());
    }

    static Map<String, String> params() {
        Map<String, String> p = new HashMap<>();
        p.put("locations", media + " => /_xaccel/media/");
        p.put("mappings", "/library/ => " + media);
        return p;
    }

    @AfterAll
    static void stop() throws Exception {
        tomcat.close();
        log.close();
    }

    static String header(HttpResponse<?> r, String name) {
        return r.headers().firstValue(name).orElse(null);
    }

    static void assertOffloaded(HttpResponse<byte[]> r, String expectedRedirect) {
        assertEquals(200, r.statusCode());
        assertEquals(expectedRedirect, header(r, ACCEL));
        assertEquals("0", header(r, "Content-Length"));
        assertEquals(0, r.body().length);
        HttpHeaders h = r.headers();
        assertFalse(h.firstValue("Accept-Ranges").isPresent(), "nginx and Caddy send their own");
        // the file's validators, those the filter answered the preconditions with (nginx drops them)
        assertEquals(1, h.allValues("ETag").size(), h.toString());
        assertTrue(header(r, "ETag").matches("\"[0-9a-f]+-[0-9a-f]+\""), header(r, "ETag"));
        assertEquals(1, h.allValues("Last-Modified").size(), h.toString());
        assertFalse(h.firstValue("Transfer-Encoding").isPresent());
    }

    static void assertDirect(HttpResponse<byte[]> r, byte[] expected) {
        assertEquals(200, r.statusCode());
        assertFalse(r.headers().firstValue(ACCEL).isPresent());
        assertArrayEquals(expected, r.body());
        assertEquals(Integer.toString(expected.length), header(r, "Content-Length"));
    }

    // ---- mapped mode

    @Test
    void mappedOffloadWithMarkerFromLoopback() throws Exception {
        HttpResponse<byte[]> r = http.get("/library/song.mp3", MARKER, ACCEL);
        assertOffloaded(r, "/_xaccel/media/song.mp3");
        assertEquals("audio/mpeg", header(r, "Content-Type"));
        assertFalse(r.headers().firstValue("Content-Disposition").isPresent());
    }

    @Test
    void markerValueIsCaseInsensitive() throws Exception {
        assertOffloaded(http.get("/library/sub/doc.pdf", MARKER, "x-accel-redirect"),
                "/_xaccel/media/sub/doc.pdf");
    }

    @Test
    void mappedDirectWithoutMarker() throws Exception {
        assertDirect(http.get("/library/song.mp3"), SONG);
    }

    @Test
    void otherMarkerValueServesDirectly() throws Exception {
        assertDirect(http.get("/library/song.mp3", MARKER, "X-Sendfile"), SONG);
    }

    @Test
    void spoofedMarkerFromUntrustedAddressIsIgnored() throws Exception {
        assertDirect(http.get("/untrusted/library/song.mp3", MARKER, ACCEL), SONG);
    }

    @Test
    void offloadNeverServesDirectlyEvenWithMarker() throws Exception {
        assertDirect(http.get("/never/library/song.mp3", MARKER, ACCEL), SONG);
        assertDirect(http.get("/never/declare/x?f=song.mp3", MARKER, ACCEL), SONG);
    }

    @Test
    void awkwardFileNameIsPercentEncoded() throws Exception {
        assertOffloaded(http.get("/library/" + AWKWARD_URL, MARKER, ACCEL), "/_xaccel/media/" + AWKWARD_URL);
        assertDirect(http.get("/library/" + AWKWARD_URL), SONG);
    }

    @Test
    void headIsOffloadedToo() throws Exception {
        HttpResponse<byte[]> r = http.send("HEAD", "/library/song.mp3", MARKER, ACCEL);
        assertEquals(200, r.statusCode());
        assertEquals("/_xaccel/media/song.mp3", header(r, ACCEL));
    }

    @ParameterizedTest
    @ValueSource(strings = {"POST", "PUT", "DELETE"})
    void otherMethodsAre405(String method) throws Exception {
        HttpResponse<byte[]> r = http.send(method, "/library/song.mp3", MARKER, ACCEL);
        assertEquals(405, r.statusCode());
        assertEquals("GET, HEAD", header(r, "Allow"));
        assertFalse(r.headers().firstValue(ACCEL).isPresent());
    }

    @ParameterizedTest
    @ValueSource(strings = {"/library/.hidden.txt", "/library/missing.mp3", "/library/sub/", "/library/",
        "/library/sub/%2e%2e%2esecret", "/library/%2ehidden.txt"})
    void mappedRejectionsAre404WithoutOffload(String path) throws Exception {
        HttpResponse<byte[]> r = http.get(path, MARKER, ACCEL);
        assertTrue(r.statusCode() == 404 || r.statusCode() == 400, path + " -> " + r.statusCode());
        assertFalse(r.headers().firstValue(ACCEL).isPresent());
    }

    /** Tomcat normalizes these before the filter sees them: the result must never leave the mapping. */
    @ParameterizedTest
    @ValueSource(strings = {"/library/sub//doc.pdf", "/library/%2e%2e/outside/secret.txt",
        "/library/sub/%2e%2e/%2e%2e/outside/secret.txt", "/library/sub/..;x=1/../outside/secret.txt"})
    void containerNormalizedPathsStayInside(String path) throws Exception {
        HttpResponse<byte[]> r = http.get(path, MARKER, ACCEL);
        String redirect = header(r, ACCEL);
        assertTrue(redirect == null || redirect.equals("/_xaccel/media/sub/doc.pdf"), path + " -> " + redirect);
        assertFalse(new String(r.body(), StandardCharsets.UTF_8).contains("outside"), path);
    }

    @Test
    void requestsOutsideMappingsGoDownTheChain() throws Exception {
        HttpResponse<byte[]> r = http.get("/libraryx/song.mp3", MARKER, ACCEL);
        assertEquals("chain", new String(r.body(), StandardCharsets.UTF_8));
        assertEquals("chain", new String(http.get("/library").body(), StandardCharsets.UTF_8));
    }

    // ---- declared mode

    @Test
    void declaredOffloadAndDirect() throws Exception {
        assertOffloaded(http.get("/declare/x?f=song.mp3", MARKER, ACCEL), "/_xaccel/media/song.mp3");
        assertDirect(http.get("/declare/x?f=song.mp3"), SONG);
    }

    @Test
    void declaredDownloadNameIsEncoded() throws Exception {
        HttpResponse<byte[]> r = http.get("/declare/x?f=sub/doc.pdf&attachment=1&name=R%C3%A9sum%C3%A9%202024.pdf",
                MARKER, ACCEL);
        assertOffloaded(r, "/_xaccel/media/sub/doc.pdf");
        assertEquals("application/pdf", header(r, "Content-Type"));
        assertEquals("attachment; filename=\"Resume 2024.pdf\"; filename*=UTF-8''R%C3%A9sum%C3%A9%202024.pdf",
                header(r, "Content-Disposition"));
        HttpResponse<byte[]> inline = http.get("/declare/x?f=song.mp3&name=Song.mp3&type=audio/x-test",
                MARKER, ACCEL);
        assertEquals("inline; filename=\"Song.mp3\"", header(inline, "Content-Disposition"));
        assertEquals("audio/x-test", header(inline, "Content-Type"));
    }

    @ParameterizedTest
    @ValueSource(ints = {401, 403, 404, 500})
    void downstreamErrorsPassThroughUnOffloaded(int status) throws Exception {
        HttpResponse<byte[]> r = http.get("/declare/x?f=song.mp3&status=" + status, MARKER, ACCEL);
        assertEquals(status, r.statusCode());
        assertFalse(r.headers().firstValue(ACCEL).isPresent());
        HttpResponse<byte[]> after = http.get("/declare/x?f=song.mp3&when=after&status=" + status, MARKER, ACCEL);
        assertEquals(status, after.statusCode());
        assertFalse(after.headers().firstValue(ACCEL).isPresent());
    }

    @Test
    void downstreamOffloadHeadersAreDroppedAndLoggedOnce() throws Exception {
        HttpResponse<byte[]> r = http.get("/declare/x?f=song.mp3&spoof=1&status=403", MARKER, ACCEL);
        assertEquals(403, r.statusCode());
        assertFalse(r.headers().firstValue(ACCEL).isPresent());
        assertFalse(r.headers().firstValue("X-Sendfile").isPresent());
        HttpResponse<byte[]> ok = http.get("/declare/x?f=song.mp3&spoof=1", MARKER, ACCEL);
        assertOffloaded(ok, "/_xaccel/media/song.mp3");
        assertEquals(1, ok.headers().allValues(ACCEL).size());
        assertEquals(1, log.count(Level.WARNING, "[X-Accel-Redirect]"));
        assertEquals(1, log.count(Level.WARNING, "[X-Sendfile]"));
    }

    @Test
    void bodyWrittenAfterDeclarationIsDiscarded() throws Exception {
        assertOffloaded(http.get("/declare/x?f=song.mp3&body=1", MARKER, ACCEL), "/_xaccel/media/song.mp3");
        assertDirect(http.get("/declare/x?f=song.mp3&body=1"), SONG);
    }

    @Test
    void validatorsSetBeforeDeclaringDoNotReachTheResponse() throws Exception {
        HttpResponse<byte[]> r = http.get("/declare/x?f=song.mp3&validators=1", MARKER, ACCEL);
        assertOffloaded(r, "/_xaccel/media/song.mp3");
        assertFalse(r.headers().firstValue("Content-Range").isPresent());
        assertFalse(header(r, "ETag").contains("app"));
        HttpResponse<byte[]> direct = http.get("/declare/x?f=song.mp3&validators=1");
        assertDirect(direct, SONG);
        assertFalse(direct.headers().firstValue("Content-Range").isPresent());
        assertEquals(1, direct.headers().allValues("ETag").size());
        assertFalse(header(direct, "ETag").contains("app"));
    }

    @Test
    void declaredOutsideLocationsIs500WithSevereLog() throws Exception {
        String path = outside.resolve("secret.txt").toString();
        HttpResponse<byte[]> r = http.get("/declare/x?abs=" + path, MARKER, ACCEL);
        assertEquals(500, r.statusCode());
        assertFalse(r.headers().firstValue(ACCEL).isPresent());
        assertFalse(new String(r.body(), StandardCharsets.UTF_8).contains("outside"));
        assertTrue(log.count(Level.SEVERE, path) >= 1);
    }

    /**
     * A name the application joined below the root, taken out of it by a link in the root: the root's content, not
     * the application's doing. Refused as the mapped mode refuses it (404, not the 500 of an application bug), and
     * with {@code allowUnmapped} too, which is about files declared outside every location, not links below one.
     */
    @Test
    void declaredNameThatALinkTakesOutOfTheRootIs404EvenWhenAllowUnmapped() throws Exception {
        HttpResponse<byte[]> r = http.get("/declare/x?f=link-out/secret.txt", MARKER, ACCEL);
        assertEquals(404, r.statusCode());
        assertFalse(r.headers().firstValue(ACCEL).isPresent());
        assertFalse(new String(r.body(), StandardCharsets.UTF_8).contains("outside"));
        HttpResponse<byte[]> unmapped = http.get("/extras/declare/x?f=link-out/free.txt", MARKER, ACCEL);
        assertEquals(404, unmapped.statusCode());
        assertFalse(new String(unmapped.body(), StandardCharsets.UTF_8).contains("free"));
    }

    @Test
    void declaredOutsideLocationsServedDirectlyWhenAllowUnmapped() throws Exception {
        HttpResponse<byte[]> r = http.get("/extras/declare/x?abs=" + outside.resolve("free.txt"), MARKER, ACCEL);
        assertDirect(r, "free".getBytes(StandardCharsets.US_ASCII));
    }

    @Test
    void declaredDotSegmentsAndHiddenNamesAre404EvenWhenAllowUnmapped() throws Exception {
        // the servlet joins user input to the media root: ../outside/free.txt escapes every location
        HttpResponse<byte[]> r = http.get("/extras/declare/x?f=../outside/free.txt", MARKER, ACCEL);
        assertEquals(404, r.statusCode());
        assertFalse(new String(r.body(), StandardCharsets.UTF_8).contains("free"));
        assertEquals(404, http.get("/extras/declare/x?abs=" + outside.resolve(".env"), MARKER, ACCEL)
                .statusCode());
    }

    @Test
    void declaredMissingAndHiddenAre404() throws Exception {
        assertEquals(404, http.get("/declare/x?f=nope.mp3", MARKER, ACCEL).statusCode());
        assertEquals(404, http.get("/declare/x?f=.hidden.txt", MARKER, ACCEL).statusCode());
        assertEquals(404, http.get("/declare/x?f=sub/../song.mp3", MARKER, ACCEL).statusCode());
    }

    // ---- header types and nginx extras

    @Test
    void xSendfileCarriesAbsolutePathAndNoNginxExtras() throws Exception {
        HttpResponse<byte[]> r = http.get("/xsendfile/library/" + AWKWARD_URL);
        assertEquals(200, r.statusCode());
        // raw UTF-8 bytes, one header char per byte (Apache's mod_xsendfile does not decode, lighttpd decodes %XX)
        assertEquals(new String((media.toRealPath() + "/" + AWKWARD).getBytes(StandardCharsets.UTF_8),
                StandardCharsets.ISO_8859_1), header(r, "X-Sendfile"));
        assertTrue(header(r, "ETag").startsWith("\""), "the file's validators for Apache and lighttpd");
        assertTrue(r.headers().firstValue("Last-Modified").isPresent());
        assertFalse(r.headers().firstValue(ACCEL).isPresent());
        assertFalse(r.headers().firstValue("X-Accel-Limit-Rate").isPresent());
        assertEquals("0", header(r, "Content-Length"));
    }

    @Test
    void perFileSettingsOverrideTheFiltersForThatAnswerOnly() throws Exception {
        HttpResponse<byte[]> r = http.get("/extras/declare/x?f=song.mp3&rate=0&charset=koi8-r&expires=600"
                + "&buffering=no");
        assertOffloaded(r, "/_xaccel/media/song.mp3");
        assertEquals("0", header(r, "X-Accel-Limit-Rate"));
        assertEquals("koi8-r", header(r, "X-Accel-Charset"));
        assertEquals("600", header(r, "X-Accel-Expires"));
        assertFalse(r.headers().firstValue("X-Accel-Buffering").isPresent(), "nginx ignores it on an offload");
        HttpResponse<byte[]> next = http.get("/extras/declare/x?f=song.mp3");
        assertEquals("1000", header(next, "X-Accel-Limit-Rate"));
        assertEquals("utf-8", header(next, "X-Accel-Charset"));
        assertEquals("0", header(next, "X-Accel-Expires"));

        HttpResponse<byte[]> direct = http.get("/never/declare/x?f=song.mp3&charset=utf-8&buffering=no&rate=5",
                MARKER, ACCEL);
        assertEquals(200, direct.statusCode());
        assertEquals("audio/mpeg;charset=utf-8", header(direct, "Content-Type"));
        assertEquals("no", header(direct, "X-Accel-Buffering"));
        assertFalse(direct.headers().firstValue("X-Accel-Limit-Rate").isPresent(), "the filter does not throttle");
        assertArrayEquals(SONG, direct.body());
    }

    @Test
    void nginxExtrasAndDefaultAttachment() throws Exception {
        HttpResponse<byte[]> r = http.get("/extras/declare/x?f=song.mp3");
        assertOffloaded(r, "/_xaccel/media/song.mp3");
        assertEquals("1000", header(r, "X-Accel-Limit-Rate"));
        assertEquals("utf-8", header(r, "X-Accel-Charset"));
        assertEquals("0", header(r, "X-Accel-Expires"));
        assertEquals("private, max-age=60", header(r, "Cache-Control"));
        assertEquals("attachment; filename=\"song.mp3\"", header(r, "Content-Disposition"));
    }

    // ---- JAX-RS

    @Test
    void jerseyResourcesReturningPathFileAndXAccelFile() throws Exception {
        assertOffloaded(http.get("/api/files/path/song.mp3", MARKER, ACCEL), "/_xaccel/media/song.mp3");
        assertDirect(http.get("/api/files/path/song.mp3"), SONG);
        assertOffloaded(http.get("/api/files/file/sub", MARKER, ACCEL), "/_xaccel/media/sub/doc.pdf");
        HttpResponse<byte[]> named = http.get("/api/files/named", MARKER, ACCEL);
        assertOffloaded(named, "/_xaccel/media/" + AWKWARD_URL);
        assertEquals("attachment; filename=\"nice.mp3\"", header(named, "Content-Disposition"));
        assertEquals("audio/x-produced", header(http.get("/api/files/produced", MARKER, ACCEL), "Content-Type"));
    }

    @Test
    void negotiatedMediaTypeOfAnUndeclaredResourceDoesNotBecomeTheFilesType() throws Exception {
        // a JSON provider accepting every type is registered: without @Produces, the runtime negotiates
        // application/json for a Path entity; the file's own type must win
        HttpResponse<byte[]> offloaded = http.get("/api/files/path/song.mp3", MARKER, ACCEL);
        assertEquals("audio/mpeg", header(offloaded, "Content-Type"));
        assertEquals("application/pdf", header(http.get("/api/files/file/sub"), "Content-Type"));
        assertEquals("audio/mpeg", header(http.get("/api/files/named", MARKER, ACCEL), "Content-Type"));
    }

    @Test
    void jerseyErrorsPassThrough() throws Exception {
        HttpResponse<byte[]> r = http.get("/api/files/forbidden", MARKER, ACCEL);
        assertEquals(403, r.statusCode());
        assertFalse(r.headers().firstValue(ACCEL).isPresent());
        HttpResponse<byte[]> gone = http.get("/api/files/path/missing.mp3", MARKER, ACCEL);
        assertEquals(404, gone.statusCode());
        assertFalse(gone.headers().firstValue(ACCEL).isPresent());
    }

    // ---- JMX

    @Test
    void jmxCountersReadableFromPlatformMBeanServer() throws Exception {
        // contexts of their own: a request of another test may still be counted after its client has the last byte
        MBeanServer server = ManagementFactory.getPlatformMBeanServer();
        ObjectName name = new ObjectName("dev.xaccel:type=XAccelFilter,context=/jmx,name=xaccel");
        assertEquals(0L, server.getAttribute(name, "ServedDirectly"));
        http.get("/jmx/library/song.mp3");
        http.get("/jmx/library/nope.mp3");
        http.send("POST", "/jmx/library/song.mp3");
        awaitCounter(server, name, "ServedDirectly", 1);
        awaitCounter(server, name, "BytesServedDirectly", SONG.length);
        awaitCounter(server, name, "NotFound", 1);
        awaitCounter(server, name, "Rejected", 1);
        assertEquals(0L, server.getAttribute(name, "Offloaded"));
        assertTrue(((String) server.getAttribute(name, "Configuration")).contains("offload=never"));

        ObjectName offloading = new ObjectName("dev.xaccel:type=XAccelFilter,context=/jmx-offload,name=xaccel");
        http.get("/jmx-offload/library/song.mp3", MARKER, ACCEL);
        awaitCounter(server, offloading, "Offloaded", 1);
        assertEquals(0L, server.getAttribute(offloading, "ServedDirectly"));
    }

    /** The counter reaches the value within seconds and does not pass it. */
    static void awaitCounter(MBeanServer server, ObjectName name, String attribute, long expected) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while ((Long) server.getAttribute(name, attribute) < expected && System.nanoTime() < deadline) {
            Thread.sleep(10);
        }
        assertEquals(expected, (Long) server.getAttribute(name, attribute), attribute);
    }

    /** A catch-all JSON writer, as JSON providers are: makes the runtime negotiate application/json. */
    @jakarta.ws.rs.ext.Provider
    @Produces("application/json")
    public static class JsonForEverything implements jakarta.ws.rs.ext.MessageBodyWriter<Object> {
        @Override
        public boolean isWriteable(Class<?> type, java.lang.reflect.Type generic,
                java.lang.annotation.Annotation[] annotations, jakarta.ws.rs.core.MediaType mediaType) {
            return true;
        }

        @Override
        public void writeTo(Object o, Class<?> type, java.lang.reflect.Type generic,
                java.lang.annotation.Annotation[] annotations, jakarta.ws.rs.core.MediaType mediaType,
                jakarta.ws.rs.core.MultivaluedMap<String, Object> headers, java.io.OutputStream out)
                throws java.io.IOException {
            out.write("{}".getBytes(java.nio.charset.StandardCharsets.US_ASCII));
        }
    }

    /** JAX-RS resource under test. */
    @jakarta.ws.rs.Path("files")
    public static class FilesResource {
        static volatile Path root;
        static volatile Path outside;

        @GET
        @jakarta.ws.rs.Path("path/{name}")
        public Path path(@PathParam("name") String name) {
            return root.resolve(name);
        }

        @GET
        @jakarta.ws.rs.Path("file/sub")
        public File file() {
            return root.resolve("sub/doc.pdf").toFile();
        }

        @GET
        @jakarta.ws.rs.Path("named")
        public XAccelFile named() {
            return XAccelFile.of(root.resolve(AWKWARD)).downloadName("nice.mp3").attachment();
        }

        @GET
        @jakarta.ws.rs.Path("produced")
        @Produces("audio/x-produced")
        public Path produced() {
            return root.resolve("song.mp3");
        }

        @GET
        @jakarta.ws.rs.Path("forbidden")
        public Path forbidden() {
            throw new WebApplicationException(403);
        }
    }

}
