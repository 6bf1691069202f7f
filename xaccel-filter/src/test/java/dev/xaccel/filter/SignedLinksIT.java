package dev.xaccel.filter;

import dev.xaccel.testsupport.CloseAll;
import dev.xaccel.testsupport.media.MediaFixture;
import dev.xaccel.testsupport.nginx.DocsNginx;
import dev.xaccel.testsupport.servlet.BearerAuthFilter;
import dev.xaccel.testsupport.servlet.SuiteApp;

import dev.xaccel.testsupport.RawHttp;
import dev.xaccel.testsupport.nginx.NginxServer;
import dev.xaccel.testsupport.tomcat.EmbeddedTomcat;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Layer 3 against real nginx: links issued by the application through {@code XAccel.signedLinks(context)}
 * (filter init-params {@code signedLinkSecret=${sys:...}}, {@code signedLinkPrefix=/s/media/}) are verified
 * by docs/nginx/xaccel-signed-links.conf.template without any request to the application.
 */
class SignedLinksIT {

    static final String TEMPLATE = "docs/nginx/xaccel-signed-links.conf.template";
    static final String SECRET_PROPERTY = "xaccel.test.linkSecret";
    /** Random per run: nothing can depend on a fixed secret. */
    static final String SECRET = "it-" + java.util.UUID.randomUUID() + "-" + java.util.UUID.randomUUID();

    private static final AtomicInteger IDS = new AtomicInteger();

    static MediaFixture media;
    static EmbeddedTomcat tomcat;
    static NginxServer nginx;

    @BeforeAll
    static void start() throws Exception {
        System.setProperty(SECRET_PROPERTY, SECRET);
        media = MediaFixture.create("signedlinks");
        tomcat = EmbeddedTomcat.start("signedlinks", SuiteApp.app(new BearerAuthFilter())
                .xaccelFilter(Map.of("locations", media.media + "/ => /_xaccel/media/",
                        "signedLinkSecret", "${sys:" + SECRET_PROPERTY + "}",
                        "signedLinkPrefix", "/s/media/",
                        "signedLinkTtl", "600",
                        "jmxName", "none"))
                .servlet("/sign", new SigningServlet()));
        nginx = DocsNginx.start("signedlinks", DocsNginx.text(TEMPLATE), Map.of("LINK_SECRET", SECRET), tomcat.port(),
                media.media);
    }

    @AfterAll
    static void stop() {
        try {
            CloseAll.of(nginx, tomcat);
        } finally {
            System.clearProperty(SECRET_PROPERTY);
        }
    }

    /** Asks the application (directly, not via nginx) for a link. */
    static String link(String relative, String... expires) {
        String target = "/sign?f=" + MediaFixture.encodePath(relative).replace("/", "%2F")
                + (expires.length > 0 ? "&expires=" + expires[0] : "");
        RawHttp.Response r = SuiteApp.authGet(target).send(tomcat.port());
        assertEquals(200, r.status(), r.toString());
        return r.bodyText();
    }

    /** GET via nginx; returns the response and checks from the access log that the app was not asked. */
    static RawHttp.Response fetch(String target, String... headers) {
        String id = "signed-" + IDS.incrementAndGet();
        RawHttp.Request req = RawHttp.get(target).header("X-Request-Id", id);
        for (int i = 0; i < headers.length; i += 2) {
            req.header(headers[i], headers[i + 1]);
        }
        RawHttp.Response r = req.send(nginx.port());
        String line = nginx.awaitAccessLogLine(id);
        assertTrue(line.contains(" upstream=- "), "the application was asked: " + line);
        return r;
    }

    static List<String> names() {
        return MediaFixture.AWKWARD_NAMES;
    }

    @ParameterizedTest
    @MethodSource("names")
    void linkOpensExactlyItsFile(String name) {
        String link = link(name);
        assertTrue(link.startsWith("/s/media/" + MediaFixture.encodePath(name) + "?md5="), link);
        RawHttp.Response r = fetch(link);
        assertEquals(200, r.status(), name + " -> " + r);
        assertArrayEquals(media.content(name), r.body(), name);
    }

    @Test
    void rangeAndHead() {
        String link = link("big.bin");
        byte[] big = media.content("big.bin");
        RawHttp.Response range = fetch(link, "Range", "bytes=1000-1999");
        assertEquals(206, range.status(), range.toString());
        assertEquals("bytes 1000-1999/" + big.length, range.header("Content-Range"));
        assertArrayEquals(Arrays.copyOfRange(big, 1000, 2000), range.body());
        RawHttp.Response head = RawHttp.head(link).send(nginx.port());
        assertEquals(200, head.status());
        assertEquals(String.valueOf(big.length), head.header("Content-Length"));
        assertEquals(0, head.body().length);
    }

    @Test
    void tamperedSignatureIs403() {
        String link = link("small.txt");
        int at = link.indexOf("?md5=") + 5;
        char c = link.charAt(at);
        String flipped = link.substring(0, at) + (c == 'A' ? 'B' : 'A') + link.substring(at + 1);
        assertEquals(403, fetch(flipped).status());
        assertEquals(403, fetch(link.substring(0, link.indexOf('?'))).status(), "no signature");
        assertEquals(403, fetch(link.substring(0, link.indexOf("&expires="))).status(), "no expiry");
        String expires = link.substring(link.indexOf("&expires=") + 9);
        String extended = link.replace("&expires=" + expires, "&expires=" + (Long.parseLong(expires) + 86400));
        assertEquals(403, fetch(extended).status(), "a longer life is a different signature");
        for (String bad : List.of(flipped, extended)) {
            assertEquals(-1, RawHttp.indexOf(fetch(bad).raw(), media.content("small.txt"), 0));
        }
    }

    @Test
    void expiredLinkIs410() {
        String link = link("small.txt", Long.toString(Instant.now().minusSeconds(5).getEpochSecond()));
        RawHttp.Response r = fetch(link);
        assertEquals(410, r.status(), r.toString());
        assertEquals(-1, RawHttp.indexOf(r.raw(), media.content("small.txt"), 0));
    }

    @Test
    void aLinkForOnePathDoesNotOpenAnother() {
        String link = link("small.txt");
        String query = link.substring(link.indexOf('?'));
        for (String other : List.of("/s/media/song.mp3", "/s/media/Small.txt", "/s/media/small.txt.bak",
                "/s/media/nested/../song.mp3", "/s/media/.hidden-canary", "/s/media/link-out")) {
            RawHttp.Response r = fetch(other + query);
            assertEquals(403, r.status(), other + " -> " + r);
            assertTrue(!media.leaksCanary(r.raw()));
        }
        assertEquals(200, fetch("/s/media/./small.txt" + query).status(),
                "nginx verifies the normalized $uri: the same file under a dot segment");
    }

    @Test
    void sessionBoundLinkNeedsTheCookie() {
        SignedLinks bound = SignedLinks.create(SECRET, "/sb/media/", Duration.ofMinutes(5));
        String link = bound.signBound("song.mp3", Instant.now().plusSeconds(300), "sess-42");
        assertArrayEquals(media.content("song.mp3"), fetch(link, "Cookie", "JSESSIONID=sess-42").body());
        assertEquals(403, fetch(link).status(), "without the session cookie");
        assertEquals(403, fetch(link, "Cookie", "JSESSIONID=sess-43").status(), "another session");
        String plain = bound.sign("song.mp3", Instant.now().plusSeconds(300));
        assertEquals(403, fetch(plain, "Cookie", "JSESSIONID=sess-42").status(), "an unbound link on /sb/");
    }

    /**
     * The client chooses the cookie: without a separator between {@code $uri} and {@code $cookie_JSESSIONID},
     * a link for {@code report.pdf.jpg} bound to {@code S} also verified for {@code report.pdf} with the cookie
     * {@code .jpgS} (same MD5 input, see SignedLinksTest), and nginx served the other file.
     */
    @Test
    void aBoundLinkCannotBeShiftedToAShorterNameThroughTheCookie() throws Exception {
        Files.createDirectories(media.media.resolve("alice"));
        byte[] image = "cover image".getBytes(StandardCharsets.UTF_8);
        byte[] report = "confidential report".getBytes(StandardCharsets.UTF_8);
        Files.write(media.media.resolve("alice/report.pdf.jpg"), image);
        Files.write(media.media.resolve("alice/report.pdf"), report);
        SignedLinks bound = SignedLinks.create(SECRET, "/sb/media/", Duration.ofMinutes(5));
        String link = bound.signBound("alice/report.pdf.jpg", Instant.now().plusSeconds(300), "S");
        assertArrayEquals(image, fetch(link, "Cookie", "JSESSIONID=S").body());
        String shifted = link.replace("/alice/report.pdf.jpg?", "/alice/report.pdf?");
        RawHttp.Response r = fetch(shifted, "Cookie", "JSESSIONID=.jpgS");
        assertEquals(403, r.status(), r.toString());
        assertEquals(-1, RawHttp.indexOf(r.raw(), report, 0));
        assertEquals(403, fetch(shifted, "Cookie", "JSESSIONID=.jpg|S").status(), "nor with the separator");
    }
}
