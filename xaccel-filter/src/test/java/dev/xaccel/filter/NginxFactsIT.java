package dev.xaccel.filter;

import dev.xaccel.testsupport.media.MediaFixture;
import dev.xaccel.testsupport.nginx.DocsNginx;
import dev.xaccel.testsupport.servlet.BearerAuthFilter;
import dev.xaccel.testsupport.servlet.RawAccelServlet;
import dev.xaccel.testsupport.servlet.SuiteApp;

import dev.xaccel.testsupport.RawHttp;
import dev.xaccel.testsupport.nginx.NginxServer;
import dev.xaccel.testsupport.tomcat.EmbeddedTomcat;
import static dev.xaccel.testsupport.media.MediaFixture.encodePath;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.HashSet;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Re-verifies, on the installed nginx and with the documented template, the nginx behaviour the filter
 * is built on. The backend is a test servlet that sets X-Accel-Redirect by itself (no filter involved).
 */
class NginxFactsIT {

    private static final String INTERNAL = "/_xaccel/media/";

    private static MediaFixture media;
    private static final BearerAuthFilter AUTH = new BearerAuthFilter();
    private static EmbeddedTomcat tomcat;
    private static NginxServer nginx;

    @BeforeAll
    static void start() throws Exception {
        media = MediaFixture.create("facts");
        tomcat = EmbeddedTomcat.start("facts", SuiteApp.app(AUTH).servlet("/raw", new RawAccelServlet()));
        nginx = DocsNginx.start("facts", tomcat.port(), media.media);
    }

    @AfterAll
    static void stop() {
        if (nginx != null) {
            nginx.close();
        }
        if (tomcat != null) {
            tomcat.close();
        }
    }

    /** GET /raw via nginx; {@code query} is appended verbatim. */
    private static RawHttp.Response raw(String query) {
        return RawHttp.get("/raw?" + query).header("Authorization", BearerAuthFilter.AUTHORIZATION)
                .send(nginx.port());
    }

    /** Query parameter carrying {@code value} to the servlet: each char &lt; 256 becomes one header byte. */
    private static String param(String value) {
        StringBuilder sb = new StringBuilder();
        for (char c : value.toCharArray()) {
            sb.append(encodePath(String.valueOf(c)).replace("/", "%2F"));
        }
        return sb.toString();
    }

    private static RawHttp.Response redirect(String headerValue) {
        return raw("r=" + param(headerValue));
    }

    @Test
    void redirectValueIsPercentDecodedExactlyOnce() {
        assertArrayEquals(media.content("a b.bin"), redirect(INTERNAL + "a%20b.bin").body());
        assertArrayEquals(media.content("50%25 literal.bin"),
                redirect(INTERNAL + "50%2525%20literal.bin").body(), "%2525 decodes once to a literal %25");
    }

    @Test
    void rawQuestionMarkSplitsOffAQueryButEncodedOneIsAName() {
        assertEquals(404, redirect(INTERNAL + "what?.bin").status());
        assertArrayEquals(media.content("what?.bin"), redirect(INTERNAL + "what%3F.bin").body());
    }

    @Test
    void rawPercentIsEatenButEncodedOneIsAName() {
        assertEquals(404, redirect(INTERNAL + "100%.bin").status());
        assertArrayEquals(media.content("100%.bin"), redirect(INTERNAL + "100%25.bin").body());
    }

    @Test
    void plusStaysPlusAndHashIsAName() {
        assertArrayEquals(media.content("a+b.bin"), redirect(INTERNAL + "a+b.bin").body());
        assertArrayEquals(media.content("hash#tag.bin"), redirect(INTERNAL + "hash%23tag.bin").body());
    }

    @Test
    void utf8MustBePercentEncodedAndNfcNfdAreDistinctFiles() {
        RawHttp.Response nfc = redirect(INTERNAL + encodePath(MediaFixture.NFC_NAME));
        RawHttp.Response nfd = redirect(INTERNAL + encodePath(MediaFixture.NFD_NAME));
        assertArrayEquals(media.content(MediaFixture.NFC_NAME), nfc.body());
        assertArrayEquals(media.content(MediaFixture.NFD_NAME), nfd.body());
        // A Java String with U+00FC in a header leaves Tomcat as the single byte 0xFC: not the file.
        assertEquals(404, redirect(INTERNAL + MediaFixture.NFC_NAME).status());
    }

    @Test
    void dotDotIsRefusedBeforeAndAfterDecoding() {
        for (String value : List.of(INTERNAL + "../canary.txt", INTERNAL + "%2E%2E/canary.txt",
                INTERNAL + "..%2Fcanary.txt", INTERNAL + "nested/../../canary.txt")) {
            RawHttp.Response r = redirect(value);
            assertEquals(404, r.status(), value);
            assertFalse(media.leaksCanary(r.raw()), value);
        }
    }

    @Test
    void backendContentTypeWinsOverNginxGuess() {
        RawHttp.Response r = raw("r=" + param(INTERNAL + "song.mp3") + "&ct=application%2Fx-from-backend");
        assertEquals(200, r.status());
        assertEquals("application/x-from-backend", r.header("Content-Type"));
        RawHttp.Response guessed = redirect(INTERNAL + "song.mp3");
        assertEquals("audio/mpeg", guessed.header("Content-Type"), "without one nginx uses its mime.types");
    }

    @Test
    void backendAcceptRangesIsDuplicatedSoTheFilterMustNotSendIt() {
        assertEquals(List.of("bytes"), redirect(INTERNAL + "song.mp3").headers("Accept-Ranges"));
        RawHttp.Response twice = raw("r=" + param(INTERNAL + "song.mp3") + "&ar=bytes");
        assertEquals(List.of("bytes", "bytes"), twice.headers("Accept-Ranges"));
    }

    @Test
    void backendValidatorsAndLengthAreDroppedNginxUsesItsOwn() {
        RawHttp.Response r = raw("r=" + param(INTERNAL + "song.mp3") + "&validators=1&body=text");
        assertEquals(200, r.status());
        assertNotEquals("\"backend-etag\"", r.header("ETag"));
        assertEquals(1, r.headers("ETag").size());
        assertEquals(String.valueOf(media.content("song.mp3").length), r.header("Content-Length"));
        assertArrayEquals(media.content("song.mp3"), r.body(), "the backend body is discarded");
    }

    @Test
    void rangeAndConditionalsAreHandledByNginxAfterTheRedirect() {
        RawHttp.Response full = redirect(INTERNAL + "song.mp3");
        String etag = full.header("ETag");
        RawHttp.Response range = RawHttp.get("/raw?r=" + param(INTERNAL + "song.mp3"))
                .header("Authorization", BearerAuthFilter.AUTHORIZATION).header("Range", "bytes=10-19")
                .send(nginx.port());
        assertEquals(206, range.status());
        assertEquals("bytes 10-19/4096", range.header("Content-Range"));
        RawHttp.Response notModified = RawHttp.get("/raw?r=" + param(INTERNAL + "song.mp3"))
                .header("Authorization", BearerAuthFilter.AUTHORIZATION).header("If-None-Match", etag)
                .send(nginx.port());
        assertEquals(304, notModified.status());
    }

    @Test
    void postBecomesGetAndHeadStaysHead() {
        RawHttp.Response post = RawHttp.request("POST", "/raw?r=" + param(INTERNAL + "song.mp3"))
                .header("Authorization", BearerAuthFilter.AUTHORIZATION).header("Content-Length", "0")
                .send(nginx.port());
        assertArrayEquals(media.content("song.mp3"), post.body());
        RawHttp.Response head = RawHttp.head("/raw?r=" + param(INTERNAL + "song.mp3"))
                .header("Authorization", BearerAuthFilter.AUTHORIZATION).send(nginx.port());
        assertEquals(200, head.status());
        assertEquals(0, head.body().length);
        assertEquals("4096", head.header("Content-Length"));
    }

    @Test
    void directRequestToTheInternalLocationIs404() {
        RawHttp.Response r = RawHttp.get(INTERNAL + "song.mp3")
                .header("Authorization", BearerAuthFilter.AUTHORIZATION).send(nginx.port());
        assertEquals(404, r.status());
        assertNotEquals(media.content("song.mp3").length, r.body().length);
    }

    @Test
    void xAccelHeadersAreHiddenFromClients() {
        RawHttp.Response r = redirect(INTERNAL + "song.mp3");
        assertTrue(r.headerNames().stream().noneMatch(n -> n.startsWith("x-accel")), r.toString());
    }

    @Test
    void emptyBodyWithLengthZeroKeepsTheUpstreamConnectionAChunkedBodyDoesNot() {
        assertEquals(1, upstreamConnectionsFor(5, "empty"), "Content-Length: 0 keeps the connection");
        assertEquals(5, upstreamConnectionsFor(5, "chunked"), "a chunked body costs a connection each");
    }

    /** Distinct Tomcat-side connections used by {@code n} sequential offloaded requests. */
    private static int upstreamConnectionsFor(int n, String body) {
        RawHttp.Response warmup = raw("r=" + param(INTERNAL + "song.mp3") + "&body=" + body);
        assertEquals(200, warmup.status());
        int before = AUTH.remotePorts().size();
        for (int i = 0; i < n; i++) {
            RawHttp.Response r = raw("r=" + param(INTERNAL + "song.mp3") + "&body=" + body);
            assertEquals(200, r.status());
            assertArrayEquals(media.content("song.mp3"), r.body());
        }
        List<Integer> ports = AUTH.remotePorts();
        return new HashSet<>(ports.subList(before, ports.size())).size();
    }

    @Test
    void accessLogShowsTheInternalUriAndAnEmptyUpstreamBody() {
        RawHttp.Response r = RawHttp.get("/raw?r=" + param(INTERNAL + "song.mp3"))
                .header("Authorization", BearerAuthFilter.AUTHORIZATION).header("X-Request-Id", "facts-log-1")
                .send(nginx.port());
        assertEquals(200, r.status());
        String line = nginx.awaitAccessLogLine("facts-log-1");
        assertTrue(line.contains("uri=\"" + INTERNAL + "song.mp3\""), line);
        assertTrue(line.contains(" 200 4096 "), line);
        assertTrue(line.contains("ulen=0 "), line);
        assertTrue(new String(r.raw(), StandardCharsets.ISO_8859_1).startsWith("HTTP/1.1 200"));
    }
}
