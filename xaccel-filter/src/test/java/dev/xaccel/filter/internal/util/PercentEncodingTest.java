package dev.xaccel.filter.internal.util;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Random;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class PercentEncodingTest {

    /** The table from the shared nginx notes plus the corner cases. */
    @ParameterizedTest
    @CsvSource(delimiter = '|', quoteCharacter = '`', value = {
            "a b.mp3|a%20b.mp3",
            "a%20b.mp3|a%2520b.mp3",
            "a?b.mp3|a%3Fb.mp3",
            "a#b.mp3|a%23b.mp3",
            "50%.mp3|50%25.mp3",
            "\u00fc.mp3|%C3%BC.mp3",
            "u\u0308.mp3|u%CC%88.mp3",
            "a+b.mp3|a%2Bb.mp3",
            "a;b.mp3|a%3Bb.mp3",
            "a&b=c.mp3|a%26b%3Dc.mp3",
            "it's \"q\".mp3|it%27s%20%22q%22.mp3",
            "dir/sub/x-y_z.~A9|dir/sub/x-y_z.~A9",
            "/srv/media/a b/c.mp3|/srv/media/a%20b/c.mp3",
            "\ud83d\ude00.png|%F0%9F%98%80.png",
            "\u65e5\u672c|%E6%97%A5%E6%9C%AC",
            "@named|%40named",
            "C:\\x|C%3A%5Cx",
            "``|``",
    })
    void encodesAsInTheTable(String in, String expected) {
        assertEquals(expected, PercentEncoding.path(in));
    }

    @Test
    void encodesLineBreaks() {
        assertEquals("a%0D%0AX%3A%20y", PercentEncoding.path("a\r\nX: y"));
        assertEquals("%00%09%7F", PercentEncoding.path("\u0000\t\u007f"));
    }

    @Test
    void doesNotNormalizeUnicode() {
        assertNotEquals(PercentEncoding.path("\u00fc"), PercentEncoding.path("u\u0308"));
    }

    @Test
    void rejectsLoneSurrogates() {
        assertThrows(IllegalArgumentException.class, () -> PercentEncoding.path("a\ud800b"));
        assertThrows(IllegalArgumentException.class, () -> PercentEncoding.path("\udc00"));
        assertThrows(IllegalArgumentException.class, () -> PercentEncoding.path("x\ud83d"));
        assertThrows(IllegalArgumentException.class, () -> PercentEncoding.path("\ud83dx"));
        assertThrows(IllegalArgumentException.class, () -> PercentEncoding.attrChars("\ude00\ud83d"));
    }

    @Test
    void aNameThatNeedsNoEncodingIsReturnedItself() {
        String name = "Some-Author/Some_Book/cover.042~.jpg";
        assertSame(name, PercentEncoding.path(name));
        assertEquals("a%20b", PercentEncoding.path("a b"));
    }

    @Test
    void randomNamesRoundTripAndStayInTheSafeAlphabet() {
        Random random = new Random(42);
        for (int n = 0; n < 2000; n++) {
            StringBuilder sb = new StringBuilder();
            int len = random.nextInt(20);
            for (int i = 0; i < len; i++) {
                int cp;
                do {
                    cp = random.nextInt(4) == 0 ? random.nextInt(0x1F700) : random.nextInt(0x80);
                } while (cp >= 0xD800 && cp <= 0xDFFF);
                sb.appendCodePoint(cp);
            }
            String in = sb.toString();
            String out = PercentEncoding.path(in);
            for (char c : out.toCharArray()) {
                assertTrue("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~/%".indexOf(c) >= 0,
                        () -> "unexpected char in " + out);
            }
            assertEquals(in, decodeOnce(out));
        }
    }

    /** Decodes %XX exactly once, like nginx does. */
    private static String decodeOnce(String s) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == '%') {
                bytes.write(Integer.parseInt(s.substring(i + 1, i + 3), 16));
                i += 2;
            } else {
                bytes.write(c);
            }
        }
        return bytes.toString(StandardCharsets.UTF_8);
    }
}
