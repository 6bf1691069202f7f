package dev.xaccel.filter;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;

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

    @BeforeAll
    static void start() throws Exception {
        Path dir = TestPaths.freshDir("e2e-front-end-nginx");
        Path media = Files.createDirectories(dir.resolve("media")).toRealPath();
        Files.createDirectories(media.resolve(FILE).getParent());
        Files.write(media.resolve(FILE), DATA);
        tomcat = EmbeddedTomcat.builder(dir.resolve("tomcat"))
                .webapp(context("/any", media, Map.of()))
                .webapp(context("/nginx", media, Map.of("frontEnd", "nginx")))
                .start();
        nginx = DocsNginx.start("front-end-nginx", tomcat.port(), media);
    }

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

    /** The same request through nginx to both contexts: equal status, headers (but {@code Date}) and body. */
    static void same(int status, String method, Map<String, String> headers) {
        RawHttp.Response any = viaNginx(RawHttp.request(method, "/any" + URI).headers(headers));
        RawHttp.Response nginxOnly = viaNginx(RawHttp.request(method, "/nginx" + URI).headers(headers));
        String what = method + " " + headers;
        assertEquals(status, any.status(), what + ": " + any);
        assertEquals(status, nginxOnly.status(), what + ": " + nginxOnly);
        assertEquals(headersButDate(any), headersButDate(nginxOnly), what);
        assertArrayEquals(any.body(), nginxOnly.body(), what);
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
