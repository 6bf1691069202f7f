package dev.xaccel.filter;

import dev.xaccel.testsupport.media.MediaFixture;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The signature nginx's secure_link_md5 computes, against vectors computed independently with openssl. */
class SignedLinksTest {

    static final String SECRET = "0123456789abcdef0123456789abcdef";

    static SignedLinks links(String prefix) {
        return SignedLinks.create(SECRET, prefix, Duration.ofHours(1));
    }

    /**
     * Precomputed with
     * {@code printf '%s' "$EXPIRES$URI $SECRET" | openssl md5 -binary | base64 | tr +/ -_ | tr -d =}.
     */
    @Test
    void verifiesExactlyWhatItSignedUnderAnyPrefix() {
        SignedLinks l = SignedLinks.create(SECRET, "/s/media/", Duration.ofHours(1));
        String link = SignedLinks.create(SECRET, "/f/library/", Duration.ofHours(1))
                .sign("a b/é.mp3", Instant.ofEpochSecond(1765000000));
        String md5 = link.substring(link.indexOf("md5=") + 4, link.indexOf("&expires="));
        assertTrue(l.verifies("/f/library/a b/é.mp3", "1765000000", md5), "the secret decides, not the prefix");
        assertFalse(l.verifies("/f/library/a b/é.mp4", "1765000000", md5));
        assertFalse(l.verifies("/f/library/a b/é.mp3", "1765000001", md5));
        assertFalse(l.verifies("/f/library/a b/é.mp3", "x1765000000", md5));
        assertFalse(SignedLinks.create("another-" + SECRET, "/s/media/", Duration.ofHours(1))
                .verifies("/f/library/a b/é.mp3", "1765000000", md5));
    }

    @Test
    void knownVectors() {
        assertEquals("/s/media/a%20b.jpg?md5=r26ejDmudl0_-OuD0kJaKg&expires=1700000000",
                links("/s/media/").sign("a b.jpg", Instant.ofEpochSecond(1_700_000_000L)));
        assertEquals("/s/media/Cover%20Art%20%231%20%C3%BC%2050%25.jpg?md5=1XVIeh6525e3QArUbv5bgg&expires=2000000000",
                links("/s/media/").sign("Cover Art #1 \u00fc 50%.jpg", Instant.ofEpochSecond(2_000_000_000L)));
        // "$EXPIRES$URI|$BOUND $SECRET"
        assertEquals("/sb/media/x.jpg?md5=D9aFO-59oedMZv62jKvA8Q&expires=2000000000",
                links("/sb/media/").signBound("x.jpg", Instant.ofEpochSecond(2_000_000_000L), "sess-1"));
    }

    /** Computes the vector with the openssl binary at test time, for names with every awkward character. */
    @ParameterizedTest
    @ValueSource(strings = {"plain.jpg", "sp ace/q?uery#hash.jpg", "50%25+plus.jpg", "\u65e5\u672c.jpg",
            "u\u0308ber.bin", "\ud83c\udfb5 song.mp3", "semi;colon&amp=eq.bin"})
    void matchesOpenssl(String name) throws Exception {
        long expires = 1_900_000_123L;
        String link = links("/s/media/").sign(name, Instant.ofEpochSecond(expires));
        String md5 = link.substring(link.indexOf("?md5=") + 5, link.indexOf("&expires="));
        assertEquals(openssl(expires + "/s/media/" + name + " " + SECRET), md5, link);
        assertEquals("/s/media/" + MediaFixture.encodePath(name), link.substring(0, link.indexOf('?')));
        assertTrue(link.endsWith("&expires=" + expires));
    }

    /**
     * Without a separator, {@code $uri$cookie_JSESSIONID} let the client move the end of the signed path into
     * the cookie it sends: {@code report.pdf.jpg} + {@code S} = {@code report.pdf} + {@code .jpgS}.
     */
    @Test
    void theBoundValueCannotAbsorbTheEndOfThePath() throws Exception {
        long expires = 2_000_000_000L;
        String signedUri = "/sb/media/alice/report.pdf.jpg";
        String shorterUri = "/sb/media/alice/report.pdf";
        assertEquals(openssl(expires + signedUri + "S " + SECRET), openssl(expires + shorterUri + ".jpgS " + SECRET),
                "the former formula: one MD5 input for both requests");
        SignedLinks l = links("/sb/media/");
        String link = l.signBound("alice/report.pdf.jpg", Instant.ofEpochSecond(expires), "S");
        String md5 = link.substring(link.indexOf("?md5=") + 5, link.indexOf("&expires="));
        assertEquals(openssl(expires + signedUri + "|S " + SECRET), md5, link);
        assertFalse(md5.equals(openssl(expires + shorterUri + "|.jpgS " + SECRET)));
    }

    /** {@code |} separates the uri from the bound value, so neither may contain it (nginx decodes %7C). */
    @Test
    void theSeparatorIsRefusedInPathsAndBoundValues() {
        SignedLinks l = links("/sb/media/");
        Instant t = Instant.ofEpochSecond(2_000_000_000L);
        for (String path : new String[] {"a|b.jpg", "dir|x/b.jpg", "|"}) {
            assertThrows(IllegalArgumentException.class, () -> l.sign(path, t), path);
            assertThrows(IllegalArgumentException.class, () -> l.signBound(path, t, "S"), path);
        }
        assertThrows(IllegalArgumentException.class, () -> l.signBound("a.jpg", t, "b|S"));
        assertTrue(l.signBound("a%7Cb.jpg", t, "S").startsWith("/sb/media/a%257Cb.jpg?"), "a literal %7C is no |");
    }

    private static String openssl(String input) throws IOException, InterruptedException {
        Process p = new ProcessBuilder("sh", "-c", "openssl md5 -binary | base64 | tr +/ -_ | tr -d '=\\n'")
                .redirectError(ProcessBuilder.Redirect.INHERIT).start();
        p.getOutputStream().write(input.getBytes(StandardCharsets.UTF_8));
        p.getOutputStream().close();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.US_ASCII);
        assertTrue(p.waitFor(10, TimeUnit.SECONDS) && p.exitValue() == 0, "openssl failed");
        return out;
    }

    @Test
    void defaultExpiryIsRoundedUpToAMultipleOfTheTtlSoLinksAreStableWithinAWindow() {
        Clock at = Clock.fixed(Instant.ofEpochSecond(10_000), ZoneOffset.UTC);
        SignedLinks l = SignedLinks.create(SECRET, "/s/media/", Duration.ofSeconds(3600), at);
        assertEquals(Instant.ofEpochSecond(14_400), l.defaultExpiry(), "10000 + 3600 rounded up to 4 x 3600");
        SignedLinks later = SignedLinks.create(SECRET, "/s/media/", Duration.ofSeconds(3600),
                Clock.fixed(Instant.ofEpochSecond(10_799), ZoneOffset.UTC));
        assertEquals(l.sign("a.jpg"), later.sign("a.jpg"));
        SignedLinks exact = SignedLinks.create(SECRET, "/s/media/", Duration.ofSeconds(3600),
                Clock.fixed(Instant.ofEpochSecond(10_800), ZoneOffset.UTC));
        assertEquals(Instant.ofEpochSecond(14_400), exact.defaultExpiry(), "never less than the TTL");
    }

    @Test
    void secretsMustBeLongAndWritableIntoNginxConfig() {
        IllegalArgumentException shortOne = assertThrows(IllegalArgumentException.class,
                () -> SignedLinks.create("tooShortSecret-31-characters-xx", "/s/", Duration.ofHours(1)));
        assertTrue(shortOne.getMessage().contains("32"), shortOne.getMessage());
        assertFalse(shortOne.getMessage().contains("tooShortSecret"), "the secret must never be printed");
        for (String bad : new String[] {SECRET + " x", SECRET + "\"", SECRET + "$uri", SECRET + ";",
                SECRET + "\u00e9"}) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> SignedLinks.create(bad, "/s/", Duration.ofHours(1)), bad);
            assertFalse(e.getMessage().contains(SECRET), e.getMessage());
        }
        assertThrows(IllegalArgumentException.class, () -> SignedLinks.create(null, "/s/", Duration.ofHours(1)));
        SignedLinks ok = SignedLinks.create("abcdefghijklmnopqrstuvwxyzABCDEF+/=._~-0", "/s/", Duration.ofHours(1));
        assertFalse(ok.toString().contains("abcdefghij"), ok.toString());
    }

    @Test
    void prefixTtlPathAndExpiryAreValidated() {
        for (String prefix : new String[] {"s/", "/s", "/", "/s/../", "/a b/", "/s//"}) {
            assertThrows(IllegalArgumentException.class, () -> SignedLinks.create(SECRET, prefix, Duration.ofHours(1)),
                    prefix);
        }
        assertThrows(IllegalArgumentException.class, () -> SignedLinks.create(SECRET, "/s/", Duration.ofMillis(999)));
        SignedLinks l = links("/s/");
        Instant t = Instant.ofEpochSecond(2_000_000_000L);
        for (String path : new String[] {"", "/abs.jpg", "dir/", "a//b", "./a", "a/../b", "..", "a\nb", "a\u0000b"}) {
            assertThrows(IllegalArgumentException.class, () -> l.sign(path, t), path);
        }
        assertThrows(IllegalArgumentException.class, () -> l.sign("a", Instant.ofEpochSecond(-1)));
        assertThrows(IllegalArgumentException.class, () -> l.signBound("a", t, ""));
        assertThrows(IllegalArgumentException.class, () -> l.signBound("a", t, null));
    }
}
