package dev.xaccel.filter;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import dev.xaccel.testsupport.CloseAll;
import dev.xaccel.testsupport.RawHttp;
import dev.xaccel.testsupport.TestPaths;
import dev.xaccel.testsupport.media.MediaFixture;
import dev.xaccel.testsupport.nginx.DocsNginx;
import dev.xaccel.testsupport.nginx.NginxServer;
import dev.xaccel.testsupport.servlet.NotFoundServlet;
import dev.xaccel.testsupport.servlet.WebApp;
import dev.xaccel.testsupport.tomcat.EmbeddedTomcat;

/**
 * {@code frontEnd=nginx} against real Tomcat and real nginx from docs/nginx/xaccel.conf.template: the offload
 * answer leaves out the headers nginx drops across an {@code X-Accel-Redirect} (validators, nosniff, CSP), and the
 * client sees the same answer as with the default {@code any} — status, every header but {@code Date}, body — for a
 * plain GET, HEAD, each conditional and {@code Range}, with the {@code ETag} and {@code Last-Modified} nginx
 * computes from the file.
 */
class FrontEndNginxIT {

    static final byte[] DATA = MediaFixture.randomBytes(new Random(34), 50 * 1024);
    static final String FILE = "Author/Book/chapter 01.mp3";
    static final String URI = "/library/Author/Book/chapter%2001.mp3";

    static EmbeddedTomcat tomcat;
    static NginxServer nginx;
    static Path media;

    @BeforeAll
    static void start() throws Exception {
        Path dir = TestPaths.freshDir("e2e-front-end-nginx");
        media = Files.createDirectories(dir.resolve("media")).toRealPath();
        Files.createDirectories(media.resolve(FILE).getParent());
        Files.write(media.resolve(FILE), DATA);
        tomcat = EmbeddedTomcat.builder(dir.resolve("tomcat"))
                .webapp(context("/any", media, Map.of()))
                .webapp(context("/nginx", media, Map.of("frontEnd", "nginx")))
                .webapp(context("/names", media, NAMES_ALONE))
                .start();
        nginx = DocsNginx.start("front-end-nginx", tomcat.port(), media);
    }

    /** What lets the filter hand a request without conditional or range off by its names alone. */
    static final Map<String, String> NAMES_ALONE = Map.of("frontEnd", "nginx", "frontEndConfines", "true",
            "symlinks", "never");

    static WebApp context(String path, Path media, Map<String, String> extra) {
        Map<String, String> p = new HashMap<>(extra);
        p.put("locations", media + "/ => /_xaccel/media/");
        p.put("mappings", "/library/ => " + media + "/");
        p.put("jmxName", "none");
        return WebApp.at(path).containerMimeMappings().xaccelFilter(p).defaultServlet(new NotFoundServlet());
    }

    @AfterAll
    static void stop() {
        CloseAll.of(nginx, tomcat);
    }

    @Test
    void offloadAnswerLeavesOutWhatNginxDrops() {
        RawHttp.Response any = offloadAnswer("/any");
        RawHttp.Response nginxOnly = offloadAnswer("/nginx");
        for (String dropped : List.of("ETag", "Last-Modified", "X-Content-Type-Options", "Content-Security-Policy")) {
            assertNotNull(any.header(dropped), dropped + " with frontEnd=any: " + any);
            assertNull(nginxOnly.header(dropped), dropped + " with frontEnd=nginx: " + nginxOnly);
        }
        for (String kept : List.of("Content-Type", "X-Accel-Redirect", "Content-Length")) {
            assertEquals(any.header(kept), nginxOnly.header(kept), kept);
        }
    }

    @Test
    void clientSeesTheSameAnswerThroughNginx() {
        RawHttp.Response plain = viaNginx(RawHttp.get("/any" + URI));
        assertEquals(200, plain.status(), plain.toString());
        assertArrayEquals(DATA, plain.body());
        String etag = plain.header("ETag");
        String modified = plain.header("Last-Modified");
        assertNotNull(etag, plain.toString());
        assertNotNull(modified, plain.toString());
        assertEquals("nosniff", plain.header("X-Content-Type-Options"), plain.toString());
        assertNotNull(plain.header("Content-Security-Policy"), plain.toString());

        same(200, "GET", Map.of());
        same(200, "HEAD", Map.of());
        same(304, "GET", Map.of("If-None-Match", etag));
        same(304, "GET", Map.of("If-Modified-Since", modified));
        same(200, "GET", Map.of("If-None-Match", "\"other\""));
        same(412, "GET", Map.of("If-Match", "\"other\""));
        same(206, "GET", Map.of("Range", "bytes=100-1099"));
        same(206, "GET", Map.of("Range", "bytes=-500"));
        same(416, "GET", Map.of("Range", "bytes=999999-"));
        same(206, "GET", Map.of("Range", "bytes=0-9", "If-Range", etag));
        same(200, "GET", Map.of("Range", "bytes=0-9", "If-Range", "\"stale\""));
        same(206, "GET", Map.of("Range", "bytes=0-9", "If-Range", modified));
    }

    /**
     * The same request through nginx to every context ({@code /names} hands off by the names alone when nothing is
     * asked of the file): equal status, headers (but {@code Date}) and body.
     */
    static void same(int status, String method, Map<String, String> headers) {
        RawHttp.Response any = viaNginx(RawHttp.request(method, "/any" + URI).headers(headers));
        String what = method + " " + headers;
        assertEquals(status, any.status(), what + ": " + any);
        for (String context : List.of("/nginx", "/names")) {
            RawHttp.Response other = viaNginx(RawHttp.request(method, context + URI).headers(headers));
            assertEquals(status, other.status(), context + " " + what + ": " + other);
            assertEquals(headersButDate(any), headersButDate(other), context + " " + what);
            assertArrayEquals(any.body(), other.body(), context + " " + what);
        }
    }

    /**
     * By the names alone the filter names what the walk would have refused, and nginx's open answers it: a missing
     * file 404, a link (inside or out) 403 ({@code disable_symlinks on}, as {@code symlinks=never} refuses it), a
     * directory nginx's redirect to the internal name with a '/' (itself 404 from outside); never a byte from outside
     * the root. The names themselves are still the filter's.
     */
    @Test
    void byTheNamesAloneNginxAnswersWhatTheWalkWouldHaveRefused() throws Exception {
        Path outside = Files.write(media.getParent().resolve("outside.bin"), "OUTSIDE-THE-ROOT".getBytes());
        Files.createSymbolicLink(media.resolve("link-in.mp3"), media.resolve(FILE));
        Files.createSymbolicLink(media.resolve("link-out.mp3"), outside);
        Files.createDirectories(media.resolve("a-directory"));
        RawHttp.Response named = RawHttp.get("/names/library/not-there.mp3").header("X-Sendfile-Type",
                "X-Accel-Redirect").send(tomcat.port());
        assertEquals(200, named.status(), "handed off without a look: " + named);
        assertEquals("/_xaccel/media/not-there.mp3", named.header("X-Accel-Redirect"), named.toString());
        assertEquals(404, viaNginx(RawHttp.get("/names/library/not-there.mp3")).status());
        assertEquals(404, viaNginx(RawHttp.get("/nginx/library/not-there.mp3")).status());
        for (String link : List.of("link-in.mp3", "link-out.mp3")) {
            RawHttp.Response r = viaNginx(RawHttp.get("/names/library/" + link));
            assertEquals(403, r.status(), link + ": " + r);
            assertEquals(-1, RawHttp.indexOf(r.raw(), "OUTSIDE-THE-ROOT".getBytes(), 0), link);
        }
        // nginx's static module redirects a directory to its name with a '/': the internal URI, which is internal
        RawHttp.Response dir = viaNginx(RawHttp.get("/names/library/a-directory"));
        assertEquals(301, dir.status(), dir.toString());
        String location = dir.header("Location");
        assertTrue(location.endsWith("/_xaccel/media/a-directory/"), location);
        assertEquals(404, viaNginx(RawHttp.get(location.substring(location.indexOf("/_xaccel/")))).status());
        assertEquals(404, viaNginx(RawHttp.get("/names/library/.hidden.mp3")).status(), "the names are checked");
        RawHttp.Response conditional = viaNginx(RawHttp.get("/names/library/not-there.mp3").header("Range",
                "bytes=0-1"));
        assertEquals(404, conditional.status(), "a range is checked: the filter's 404 " + conditional);
    }

    static List<String> headersButDate(RawHttp.Response r) {
        List<String> lines = new ArrayList<>();
        for (String name : r.headerNames()) {
            if (!name.equalsIgnoreCase("Date")) {
                lines.add(name.toLowerCase(Locale.ROOT) + ": " + r.headers(name));
            }
        }
        lines.sort(null);
        return lines;
    }

    static RawHttp.Response viaNginx(RawHttp.Request request) {
        return request.send(nginx.port());
    }

    /** What Tomcat answers nginx: the marker from loopback, as nginx sends it. */
    static RawHttp.Response offloadAnswer(String context) {
        RawHttp.Response r = RawHttp.get(context + URI).header("X-Sendfile-Type", "X-Accel-Redirect")
                .send(tomcat.port());
        assertEquals(200, r.status(), r.toString());
        assertEquals("/_xaccel/media/Author/Book/chapter%2001.mp3", r.header("X-Accel-Redirect"), r.toString());
        return r;
    }
}
