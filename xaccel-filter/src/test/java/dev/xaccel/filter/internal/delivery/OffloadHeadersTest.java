package dev.xaccel.filter.internal.delivery;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.FileTime;
import java.time.Instant;
import java.util.List;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import dev.xaccel.filter.HeaderType;
import dev.xaccel.filter.SymlinkPolicy;
import dev.xaccel.filter.internal.config.Location;
import dev.xaccel.filter.internal.fs.Resolution;
import dev.xaccel.filter.internal.fs.SafePathResolver;
import dev.xaccel.filter.internal.http.ETags;

/**
 * The value each header type names a file with, and the names X-Sendfile refuses: the measured table of
 * docs/front-ends.md (Apache 2.4 + mod_xsendfile 0.12 does not decode and trims; lighttpd 1.4 decodes %XX once;
 * nginx and Caddy decode the percent-encoded value once). The real servers pin the same table in
 * FrontEndEncodingIT.
 */
class OffloadHeadersTest {

    @TempDir
    static Path tmp;
    static Path root;
    static Location location;

    @BeforeAll
    static void root() throws IOException {
        root = Files.createDirectories(tmp.resolve("media")).toRealPath();
        location = new Location(new SafePathResolver(root, false, SymlinkPolicy.WITHIN_ROOT), "/_xaccel/media/", null);
    }

    static Resolution file(String name) throws IOException {
        Path p = root.resolve(name);
        Files.createDirectories(p.getParent());
        Files.write(p, name.getBytes(StandardCharsets.UTF_8));
        Files.setLastModifiedTime(p, FileTime.from(Instant.ofEpochMilli(1_700_000_000_789L)));
        return Resolution.ok(root, p.toRealPath(), name,
                Files.readAttributes(p, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS));
    }

    /** The UTF-8 bytes of {@code s}, one char each: what the container writes as the header's bytes. */
    static String raw(String s) {
        return new String(s.getBytes(StandardCharsets.UTF_8), StandardCharsets.ISO_8859_1);
    }

    /** Every name of the awkward set that a raw value carries to both Apache and lighttpd. */
    @ParameterizedTest
    @ValueSource(strings = {"a b.bin", "50%.bin", "100%zz.bin", "pct-end%2", "q?x.bin", "h#x.bin", "p+x.bin",
        "s;x.bin", "quote\".bin", "apos'.bin", "caf\u00e9.bin", "cafe\u0301.bin", "\u65e5\u672c\u8a9e.bin",
        "emoji\ud83d\ude00.bin", "back\\slash.bin", "a&b=c.bin", "..foo.bin", " lead.bin", "dir /x.bin",
        "sp end .bin", "trail-nbsp\u00a0", "br{env.HOME}.bin", "d$1.bin", "colon:x,comma.bin"})
    void xSendfileIsTheAbsoluteRealPathAsRawUtf8Bytes(String name) throws IOException {
        Resolution f = file(name);
        assertNull(OffloadHeaders.refusal(HeaderType.X_SENDFILE, f), name);
        OffloadHeaders h = OffloadHeaders.of(HeaderType.X_SENDFILE, location, f);
        assertEquals(raw(root + "/" + name), h.redirect(), name);
        assertTrue(h.redirect().chars().allMatch(c -> c >= 0x20 && c <= 0xff && c != 0x7f), h.redirect());
        assertNull(h.rawPath());
    }

    @ParameterizedTest
    @ValueSource(strings = {"a%20b.bin", "x%2Fy.bin", "a%2fb.bin", "50%25 literal.bin", "a%%41.bin", "%41",
        "dir%aa/x.bin"})
    void xSendfileRefusesAPercentAndTwoHexDigitsWhichLighttpdWouldDecode(String name) throws IOException {
        String why = OffloadHeaders.refusal(HeaderType.X_SENDFILE, file(name));
        assertNotNull(why, name);
        assertTrue(why.contains("lighttpd"), why);
        assertNull(OffloadHeaders.refusal(HeaderType.X_ACCEL_REDIRECT, file(name)), "nginx and Caddy: " + name);
    }

    @ParameterizedTest
    @ValueSource(strings = {"trail.bin ", "two spaces  "})
    void xSendfileRefusesATrailingSpaceWhichApacheWouldTrim(String name) throws IOException {
        String why = OffloadHeaders.refusal(HeaderType.X_SENDFILE, file(name));
        assertNotNull(why, name);
        assertTrue(why.contains("Apache"), why);
    }

    @ParameterizedTest
    @ValueSource(strings = {"tab\tx.bin", "vt\u000bx.bin", "del\u007fx.bin", "nl\nx.bin", "cr\rx.bin",
        "esc\u001bx.bin"})
    void xSendfileRefusesControlCharacters(String name) throws IOException {
        assertNotNull(OffloadHeaders.refusal(HeaderType.X_SENDFILE, file(name)), name);
    }

    @Test
    void everyHeaderTypeCarriesTheValidatorsOfTheChecksLstat() throws IOException {
        Resolution f = file("song.mp3");
        for (HeaderType type : List.of(HeaderType.X_SENDFILE, HeaderType.X_ACCEL_REDIRECT)) {
            OffloadHeaders h = OffloadHeaders.of(type, location, f);
            assertEquals(ETags.strong(Files.size(f.file()), 1_700_000_000_789L), h.validators().etag(), type.name());
            assertEquals(1_700_000_000_000L, h.validators().lastModified(), "whole seconds, as Last-Modified has");
        }
    }

    @Test
    void theValidatorsAreTheChecksNotASecondStat() throws IOException {
        Resolution f = file("gone.bin");
        Files.delete(f.file());
        OffloadHeaders h = OffloadHeaders.of(HeaderType.X_SENDFILE, location, f);
        assertEquals(ETags.strong(f.size(), f.lastModified()), h.validators().etag(), "no file system call");
        Resolution named = Resolution.ok(root, f.file(), "gone.bin");
        OffloadHeaders byName = OffloadHeaders.of(HeaderType.X_ACCEL_REDIRECT, location, named);
        assertEquals("/_xaccel/media/gone.bin", byName.redirect(), "checked by its names alone: named all the same");
        assertNull(byName.validators(), "a check that read no size and time has no validators (nginx makes its own)");
    }

    @Test
    void xAccelRedirectIsThePrefixAndThePercentEncodedRelativePath() throws IOException {
        Resolution f = file("sub dir/a%20b?.bin");
        OffloadHeaders h = OffloadHeaders.of(HeaderType.X_ACCEL_REDIRECT, location, f);
        assertEquals("/_xaccel/media/sub%20dir/a%2520b%3F.bin", h.redirect());
        assertNull(h.rawPath(), "a raw '?' would end the path in try_files");
        Location cacheable = new Location(location.resolver(), location.uriPrefix(), "60");
        OffloadHeaders plain = OffloadHeaders.of(HeaderType.X_ACCEL_REDIRECT, cacheable, file("\u00fc.bin"));
        assertEquals(raw("/_xaccel/media/\u00fc.bin"), plain.rawPath());
        OffloadHeaders ascii = OffloadHeaders.of(HeaderType.X_ACCEL_REDIRECT, cacheable, file("plain.bin"));
        assertEquals("/_xaccel/media/plain.bin", ascii.rawPath());
        assertNull(OffloadHeaders.of(HeaderType.X_ACCEL_REDIRECT, location, file("\u00fc.bin")).rawPath(),
                "only sent for a cacheable location");
    }
}
