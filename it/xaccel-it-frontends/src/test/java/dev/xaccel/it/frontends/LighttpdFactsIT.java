package dev.xaccel.it.frontends;

import static dev.xaccel.it.frontends.RawBackend.bytes;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.xaccel.testsupport.RawHttp;
import dev.xaccel.testsupport.media.MediaFixture;
import dev.xaccel.testsupport.lighttpd.LighttpdFrontEnd;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Re-verifies, on the installed lighttpd 1.4 and with docs/lighttpd/xaccel.conf as shipped (mod_proxy,
 * {@code server.follow-symlink = "disable"}), what the filter's X-Sendfile encoding and its refusal of
 * X-LIGHTTPD-send-file are built on (docs/front-ends.md). The backend sends the headers by itself.
 */
class LighttpdFactsIT {

    static final String H = "X-Sendfile";
    static RawBackend b;
    static String root;

    @BeforeAll
    static void start() throws Exception {
        b = RawBackend.start(new LighttpdFrontEnd());
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
    void rawUtf8BytesNameEveryFileWithoutAPercentAndTwoHexDigits() {
        for (String name : MediaFixture.AWKWARD_NAMES) {
            if (name.contains("%25")) {
                continue;
            }
            RawHttp.Response r = send(name);
            assertEquals(200, r.status(), name + " -> " + r);
            assertArrayEquals(b.content(name), r.body(), name);
        }
        for (String name : List.of("..foo.bin", "back\\slash.bin", "trail.bin ")) {
            assertArrayEquals(b.content(name), send(name).body(), name + ": lighttpd keeps a trailing space");
        }
    }

    /** Why X-Sendfile refuses a '%' and two hex digits: lighttpd decodes the value once. */
    @Test
    void aRawPercentEscapeIsDecodedToAnotherFile() {
        RawHttp.Response r = send("a%20b.bin");
        assertEquals(200, r.status(), r.toString());
        assertArrayEquals(b.content("a b.bin"), r.body(), "asked for 'a%20b.bin', got 'a b.bin'");
        assertArrayEquals(b.content("a%20b.bin"), b.answer(H, root + "/a%2520b.bin").body(),
                "only an encoded % names it");
    }

    /** Why headerType=X-LIGHTTPD-send-file fails the filter's start: through mod_proxy it is silently dropped. */
    @Test
    void xLighttpdSendFileThroughModProxyIsAnEmpty200() {
        RawHttp.Response r = b.answer("X-LIGHTTPD-send-file", bytes(root + "/small.txt"));
        assertEquals(200, r.status(), r.toString());
        assertEquals(0, r.body().length, "the client gets no byte of the file");
        assertNull(r.header("X-LIGHTTPD-send-file"));
        assertArrayEquals(b.content("small.txt"), send("small.txt").body(), "X-Sendfile works");
    }

    @Test
    void onlyTheDocrootIsServedLexicallyChecked() {
        for (String value : List.of(b.media.canaryOutside.toString(), b.media.canarySibling.toString(),
                root + "/../outside/canary.txt", root + "/%2e%2e/outside/canary.txt", "/etc/passwd",
                "small.txt", root + "/emptydir")) {
            RawHttp.Response r = b.answer(H, value);
            assertTrue(r.status() == 403 || r.status() == 404, value + " -> " + r);
            assertFalse(b.media.leaksCanary(r.raw()), value);
        }
    }

    /**
     * A file replaced (renamed over, as an upload or a sync tool does) is sent in its new version at once: the
     * answer the application gave for the new file (its ETag, its length) must not get the old file's bytes.
     */
    @Test
    void aFileReplacedJustNowIsSentInItsNewVersion() throws Exception {
        Path file = b.root.resolve("replaced.bin");
        Files.write(file, "first version\n".getBytes(StandardCharsets.US_ASCII));
        assertEquals("first version\n", new String(send("replaced.bin").body(), StandardCharsets.US_ASCII));
        for (int i = 0; i < 20; i++) {
            byte[] next = ("version " + i + " " + "x".repeat(i) + "\n").getBytes(StandardCharsets.US_ASCII);
            Path tmp = b.root.resolve(".replaced.tmp");
            Files.write(tmp, next);
            Files.move(tmp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            assertArrayEquals(next, send("replaced.bin").body(), "version " + i);
        }
    }

    /** follow-symlink disable: any link on the path is refused (race: SymlinkSwapIT). */
    @Test
    void symbolicLinksAreRefusedStatically() {
        for (String name : List.of("link-out", "abs-link-out", "dir-out/canary.txt", "link-in")) {
            RawHttp.Response r = send(name);
            assertEquals(403, r.status(), name + " -> " + r);
            assertFalse(b.media.leaksCanary(r.raw()), name);
        }
    }

    /** Why the filter offloads only with 200: lighttpd sends the file under any status the application gave. */
    @Test
    void anyStatusCarriesTheFileAndTheHeaderIsAlwaysRemoved() {
        RawHttp.Response r = b.answer(404, H, bytes(root + "/small.txt"));
        assertEquals(404, r.status());
        assertArrayEquals(b.content("small.txt"), r.body(), "a 404 with the file as its body");
        assertNull(r.header(H));
    }

    /**
     * The shipped config turns lighttpd's HTTP/2 off (server.h2proto): on a cleartext port it is h2c, which no
     * browser uses and which is one more parser in front of the application. Both ways in are answered as HTTP/1.
     */
    @Test
    void cleartextHttp2IsOff() throws Exception {
        byte[] preface = "PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n".getBytes(StandardCharsets.US_ASCII);
        // an empty SETTINGS frame, as a client with prior knowledge sends it after the preface
        byte[] settings = {0, 0, 0, 4, 0, 0, 0, 0, 0};
        byte[] both = Arrays.copyOf(preface, preface.length + settings.length);
        System.arraycopy(settings, 0, both, preface.length, settings.length);
        String answer = new String(DesyncIT.exchange(b.frontEnd.port(), both), StandardCharsets.ISO_8859_1);
        assertTrue(answer.startsWith("HTTP/1.0 505 HTTP Version Not Supported\r\n"), answer);
        RawHttp.Response upgrade = b.request(200, "X-Probe", "h2c").header("Connection", "Upgrade, HTTP2-Settings")
                .header("Upgrade", "h2c").header("HTTP2-Settings", "AAMAAABkAAQAoAAAAAIAAAAA").send(b.frontEnd.port());
        assertEquals(200, upgrade.status(), "answered as HTTP/1.1, not 101: " + upgrade);
        assertNull(upgrade.header("Upgrade"), upgrade.toString());
        assertEquals("h2c", upgrade.header("X-Probe"), "the application's answer: " + upgrade);
    }
}
