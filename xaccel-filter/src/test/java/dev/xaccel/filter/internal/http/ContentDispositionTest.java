package dev.xaccel.filter.internal.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Random;

import dev.xaccel.filter.internal.config.InitParam;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.NullSource;
import org.junit.jupiter.params.provider.ValueSource;

class ContentDispositionTest {

    @ParameterizedTest
    @CsvSource(delimiter = '|', quoteCharacter = '`', value = {
            "inline|report.pdf|inline; filename=\"report.pdf\"",
            "attachment|report.pdf|attachment; filename=\"report.pdf\"",
            "ATTACHMENT|a b;c,d.pdf|attachment; filename=\"a b;c,d.pdf\"",
            "attachment|Gr\u00fc\u00dfe.txt|attachment; filename=\"Gru_e.txt\"; filename*=UTF-8''Gr%C3%BC%C3%9Fe.txt",
            "inline|r\u00e9sum\u00e9.pdf|inline; filename=\"resume.pdf\"; filename*=UTF-8''r%C3%A9sum%C3%A9.pdf",
            "inline|re\u0301sume\u0301.pdf|inline; filename=\"resume.pdf\"; filename*=UTF-8''re%CC%81sume%CC%81.pdf",
            "attachment|a\"b.txt|attachment; filename=\"a\\\"b.txt\"; filename*=UTF-8''a%22b.txt",
            "attachment|100%.txt|attachment; filename=\"100_.txt\"; filename*=UTF-8''100%25.txt",
            "attachment|\u65e5\u672c.txt|attachment; filename=\"__.txt\"; filename*=UTF-8''%E6%97%A5%E6%9C%AC.txt",
            "attachment|\ud83d\ude00.png|attachment; filename=\"_.png\"; filename*=UTF-8''%F0%9F%98%80.png",
            "attachment|../../etc/passwd|attachment; filename=\"passwd\"",
            "attachment|C:\\Users\\x\\y.txt|attachment; filename=\"y.txt\"",
            "attachment|a'b (1).txt|attachment; filename=\"a'b (1).txt\"",
            "attachment|a\u0085b\u2028c.txt|attachment; filename=\"abc.txt\"",
            "attachment|a\ud800b.txt|attachment; filename=\"ab.txt\"",
            "attachment|`  spaced.txt  `|attachment; filename=\"spaced.txt\"",
    })
    void formats(String type, String name, String expected) {
        assertEquals(expected, format(type, name));
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "/", "dir/", "..", ".", "\r\n", "a/..", "\u0000"})
    void dropsEmptyOrDotNames(String name) {
        assertEquals("attachment", format("attachment", name));
    }

    @Test
    void lineBreaksCannotInjectHeaders() {
        assertEquals("attachment; filename=\"evilSet-Cookie: x=1.txt\"",
                format("attachment", "evil\r\nSet-Cookie: x=1.txt"));
        assertEquals("inline; filename=\"abu.txt\"; filename*=UTF-8''ab%C3%BC.txt",
                format("inline", "a\rb\n\u00fc.txt"));
        assertEquals("attachment", format("attachment\r\n", null), "type is trimmed");
    }

    @Test
    void typeWithoutName() {
        assertEquals("inline", format("inline", null));
        assertEquals("attachment", format(" Attachment ", null));
    }

    @ParameterizedTest
    @NullSource
    @ValueSource(strings = {"", "form-data", "inline; x=y", "attachment\r\nX: y"})
    void rejectsUnknownTypes(String type) {
        assertThrows(IllegalArgumentException.class, () -> format(type, "a.txt"));
    }

    /** The type as configuration spells it (parsed as the init-param is), then formatted. */
    static String format(String type, String name) {
        return ContentDisposition.format(InitParam.disposition(type), name);
    }

    @Test
    void outputIsAlwaysPrintableAsciiWithoutLineBreaks() {
        Random random = new Random(7);
        for (int n = 0; n < 3000; n++) {
            StringBuilder sb = new StringBuilder();
            int len = random.nextInt(24);
            for (int i = 0; i < len; i++) {
                sb.append((char) (random.nextBoolean() ? random.nextInt(0x100) : random.nextInt(0x10000)));
            }
            String out = format(random.nextBoolean() ? "inline" : "attachment", sb.toString());
            for (char c : out.toCharArray()) {
                assertTrue(c >= 0x20 && c <= 0x7e, () -> "bad char in " + out);
            }
            assertFalse(out.contains("\r") || out.contains("\n"));
            // the quoted fallback must be terminated and contain no unescaped quote
            int start = out.indexOf("filename=\"");
            if (start >= 0) {
                int i = start + 10;
                while (out.charAt(i) != '"') {
                    i += out.charAt(i) == '\\' ? 2 : 1;
                }
                String rest = out.substring(i + 1);
                assertTrue(rest.isEmpty() || rest.startsWith("; filename*=UTF-8''"), out);
            }
        }
    }
}
