package dev.xaccel.filter.internal.receipt;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;

import org.junit.jupiter.api.Test;

/** The signed link's line as nginx escapes it, read back byte for byte; anything else is no line. */
class SignedLinkLineTest {

    static final String MD5 = "AbCdEfGhIjKlMnOpQrSt_-";

    @Test
    void readsTheFieldsAndUndoesNginxsEscaping() {
        SignedLinkLine l = SignedLinkLine.parse("<190>Dec  5 06:00:00 xaccel: xs1 " + MD5 + " 1765000000 206 100 "
                + "c= 0.250 r=\"bytes=0-99\" u=/s/media/\\xC3\\x89pisode \\x221\\x22 100%.bin\n");
        assertEquals(MD5, l.signature());
        assertEquals("1765000000", l.expires());
        assertEquals(206, l.status());
        assertEquals(100, l.bytes());
        assertFalse(l.complete());
        assertEquals(Duration.ofMillis(250), l.duration());
        assertEquals("bytes=0-99", l.ranges());
        assertEquals("/s/media/Épisode \"1\" 100%.bin", l.uri());
    }

    @Test
    void aRangeCannotShiftThePath() {
        SignedLinkLine l = SignedLinkLine.parse("xs1 " + MD5 + " 1 200 5 c=OK 0.001 r=\"\\x22 u=/evil\" u=/s/a");
        assertEquals("/s/a", l.uri());
        assertEquals("\" u=/evil", l.ranges());
        assertTrue(l.complete());
        assertNull(SignedLinkLine.parse("xs1 " + MD5 + " 1 200 5 c=OK 0.001 r=\"-\" u=/s/a").ranges());
    }

    @Test
    void paddingNginxIgnoresIsDropped() {
        assertEquals(MD5, SignedLinkLine.parse("xs1 " + MD5 + "== 1 200 5 c=OK 0.001 r=\"-\" u=/a").signature());
    }

    @Test
    void whatNginxWouldNotWriteIsNoLine() {
        assertNull(SignedLinkLine.parse("xs1 " + MD5 + " soon 200 5 c=OK 0.001 r=\"-\" u=/a"));
        assertNull(SignedLinkLine.parse("xs1 short 1 200 5 c=OK 0.001 r=\"-\" u=/a"));
        assertNull(SignedLinkLine.parse("xs1 " + MD5 + " 1 200 5 c=OK 0.001 r=\"-\" u=relative"));
        assertNull(SignedLinkLine.parse("xs1 " + MD5 + " 1 200 5 c=OK 0.001 r=\"-\" u=/a\\x4"), "cut escape");
        assertNull(SignedLinkLine.parse("xs1 " + MD5 + " 1 200 5 c=OK 0.001 r=\"-\" u=/a\\xC3"), "not UTF-8");
        assertNull(SignedLinkLine.parse("xs1 " + MD5 + " 1 200 5 c=OK 0.001 r=\"-\" u=/é"), "unescaped byte");
        assertNull(SignedLinkLine.parse("xr1 0123456789abcdef0123456789abcdef 200 10 c=OK 0.001 r=-"));
    }
}
