package dev.xaccel.it.frontends;

import static dev.xaccel.it.frontends.RawBackend.bytes;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.xaccel.testsupport.RawHttp;
import dev.xaccel.testsupport.media.MediaFixture;
import dev.xaccel.testsupport.apache.ApacheFrontEnd;
import java.nio.file.Files;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Re-verifies, on the installed Apache httpd 2.4 + mod_xsendfile 0.12 and with docs/apache/xaccel.conf as shipped,
 * what the filter's X-Sendfile encoding is built on (docs/front-ends.md). The backend sends X-Sendfile by itself.
 */
class ApacheFactsIT {

    static final String H = "X-Sendfile";
    static RawBackend b;
    static String root;

    @BeforeAll
    static void start() throws Exception {
        b = RawBackend.start(new ApacheFrontEnd());
        root = b.root.toString();
        b.write("a%20b.bin");
        b.write("trail.bin ");
        b.write("..foo.bin");
        b.write("back\\slash.bin");
    }

    @AfterAll
    static void stop() {
        if (b != null) {
            b.close();
        }
    }

    RawHttp.Response send(String name) {
        return b.answer(H, bytes(root + "/" + name));
    }

    @Test
    void rawUtf8BytesNameEveryFileOfTheAwkwardSet() {
        for (String name : MediaFixture.AWKWARD_NAMES) {
            RawHttp.Response r = send(name);
            assertEquals(200, r.status(), name + " -> " + r);
            assertArrayEquals(b.content(name), r.body(), name);
        }
        for (String name : List.of("a%20b.bin", "..foo.bin", "back\\slash.bin")) {
            assertArrayEquals(b.content(name), send(name).body(), name);
        }
    }

    /** Why X-Sendfile is no longer percent-encoded: mod_xsendfile takes the value literally. */
    @Test
    void aPercentEncodedValueOpensTheLiterallyNamedFileAnotherFile() {
        RawHttp.Response r = b.answer(H, root + "/" + MediaFixture.encodePath("a b.bin"));
        assertEquals(200, r.status(), r.toString());
        assertArrayEquals(b.content("a%20b.bin"), r.body(), "asked for 'a b.bin', got 'a%20b.bin'");
        assertEquals(404, b.answer(H, root + "/" + MediaFixture.encodePath(MediaFixture.NFC_NAME)).status());
    }

    /** Why names ending in a space are served directly: Apache trims the header value. */
    @Test
    void aTrailingSpaceIsTrimmed() {
        RawHttp.Response r = send("trail.bin ");
        assertEquals(404, r.status(), r.toString());
        assertFalse(RawHttp.indexOf(r.raw(), b.content("trail.bin "), 0) >= 0);
    }

    @Test
    void onlyXSendFilePathIsServedLexicallyChecked() {
        for (String value : List.of(b.media.canaryOutside.toString(), b.media.canarySibling.toString(),
                root + "/../outside/canary.txt", root + "/nested/../../canary.txt", "/etc/passwd",
                "small.txt", root + "/emptydir")) {
            RawHttp.Response r = b.answer(H, value);
            assertEquals(404, r.status(), value + " -> " + r);
            assertFalse(b.media.leaksCanary(r.raw()), value);
        }
        assertArrayEquals(b.content("small.txt"), b.answer(H, root + "/nested/../small.txt").body(),
                "'..' is resolved lexically inside the root");
    }

    /** Why the filter names real paths and roots must have no untrusted writers: links are followed. */
    @Test
    void symbolicLinksAreFollowedAlsoOutOfTheRoot() {
        assertTrue(b.media.leaksCanary(send("link-out").body()), "mod_xsendfile follows a link out of the root");
        assertArrayEquals(b.content("small.txt"), send("link-in").body());
    }

    @Test
    void theHeaderIsRemovedOnEveryStatusAndOnlyA200IsReplaced() {
        RawHttp.Response ok = send("small.txt");
        assertNull(ok.header(H), ok.toString());
        for (int status : new int[] {206, 404, 500}) {
            RawHttp.Response r = b.answer(status, H, bytes(root + "/small.txt"));
            assertEquals(status, r.status());
            assertNull(r.header(H), "the internal path is never shown: " + r);
            assertFalse(RawHttp.indexOf(r.raw(), b.content("small.txt"), 0) >= 0, "no file on " + status);
        }
    }

    /** Why the filter sends the file's ETag: Apache's own would be the constant "0" (FileETag None: none). */
    @Test
    void withoutTheApplicationsEtagThereIsNoneAndLastModifiedIsTheFiles() {
        RawHttp.Response r = send("song.mp3");
        assertNull(r.header("ETag"), r.toString());
        assertTrue(r.header("Last-Modified") != null, r.toString());
        RawHttp.Response zero = b.request(200, H, bytes(root + "/song.mp3")).header("If-None-Match", "\"0\"")
                .send(b.frontEnd.port());
        assertEquals(200, zero.status(), "no 304 for the ETag trap value");
    }

    /**
     * Why the suite's files are an hour old (MediaFixture): Apache decides If-Modified-Since against the backend's
     * {@code Date}, so a {@code Date} that lags behind a file modified just now (Undertow caches its own) gives the
     * whole file instead of a 304 — correct, only not the shortest answer.
     */
    @Test
    void ifModifiedSinceIsDecidedAgainstTheBackendsDate() throws Exception {
        byte[] content = b.write("fresh.bin");
        long modified = Files.getLastModifiedTime(b.root.resolve("fresh.bin")).to(TimeUnit.SECONDS);
        String lastModified = send("fresh.bin").header("Last-Modified");
        assertTrue(lastModified != null);
        String value = bytes(root + "/fresh.bin");
        RawHttp.Response lagging = b.request(200, H, value, "&date=" + (modified - 10))
                .header("If-Modified-Since", lastModified).send(b.frontEnd.port());
        assertEquals(200, lagging.status(), lagging.toString());
        assertArrayEquals(content, lagging.body());
        RawHttp.Response later = b.request(200, H, value, "&date=" + (modified + 10))
                .header("If-Modified-Since", lastModified).send(b.frontEnd.port());
        assertEquals(304, later.status(), later.toString());
        assertEquals(0, later.body().length);
    }

    @Test
    void theApplicationsContentTypeReachesTheClientAndTheLengthIsTheFiles() {
        RawHttp.Response r = send("small.txt");
        assertEquals("application/x-facts", r.header("Content-Type"));
        assertEquals(String.valueOf(b.content("small.txt").length), r.header("Content-Length"));
    }
}
