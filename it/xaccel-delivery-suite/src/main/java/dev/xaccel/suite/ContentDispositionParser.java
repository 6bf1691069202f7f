package dev.xaccel.suite;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * A strict reader of a Content-Disposition value as a client would parse it (RFC 6266, RFC 8187):
 * key {@code ""} is the disposition type; {@code filename*} is returned decoded. Malformed input (an
 * unterminated quoted string, a duplicate parameter, an unknown charset) is an assertion failure.
 */
final class ContentDispositionParser {

    private ContentDispositionParser() {
    }

    static Map<String, String> parse(String header) {
        if (header == null) {
            throw new AssertionError("no Content-Disposition");
        }
        Map<String, String> out = new LinkedHashMap<>();
        int[] pos = {0};
        out.put("", token(header, pos).toLowerCase(Locale.ROOT));
        while (true) {
            skipSpaces(header, pos);
            if (pos[0] >= header.length()) {
                return out;
            }
            expect(header, pos, ';');
            skipSpaces(header, pos);
            String name = token(header, pos).toLowerCase(Locale.ROOT);
            skipSpaces(header, pos);
            expect(header, pos, '=');
            skipSpaces(header, pos);
            String value;
            if (pos[0] < header.length() && header.charAt(pos[0]) == '"') {
                value = quoted(header, pos);
            } else {
                value = token(header, pos);
            }
            if (name.endsWith("*")) {
                value = extValue(header, value);
            }
            if (out.put(name, value) != null) {
                throw new AssertionError("duplicate parameter " + name + " in: " + header);
            }
        }
    }

    private static String token(String s, int[] pos) {
        int start = pos[0];
        while (pos[0] < s.length()) {
            char c = s.charAt(pos[0]);
            if (c <= 0x20 || c >= 0x7f || "()<>@,;:\\\"/[]?={}".indexOf(c) >= 0) {
                break;
            }
            pos[0]++;
        }
        if (start == pos[0]) {
            throw new AssertionError("token expected at " + start + " in: " + s);
        }
        return s.substring(start, pos[0]);
    }

    private static String quoted(String s, int[] pos) {
        StringBuilder sb = new StringBuilder();
        pos[0]++;
        while (pos[0] < s.length()) {
            char c = s.charAt(pos[0]++);
            if (c == '"') {
                return sb.toString();
            }
            if (c == '\\') {
                if (pos[0] >= s.length()) {
                    break;
                }
                c = s.charAt(pos[0]++);
            }
            if (c < 0x20 || c == 0x7f) {
                throw new AssertionError("control character in quoted-string: " + s);
            }
            sb.append(c);
        }
        throw new AssertionError("unterminated quoted-string in: " + s);
    }

    private static String extValue(String header, String value) {
        int q1 = value.indexOf('\'');
        int q2 = q1 < 0 ? -1 : value.indexOf('\'', q1 + 1);
        if (q2 < 0) {
            throw new AssertionError("bad ext-value " + value + " in: " + header);
        }
        if (!value.substring(0, q1).equalsIgnoreCase("UTF-8")) {
            throw new AssertionError("charset is not UTF-8 in: " + header);
        }
        String pct = value.substring(q2 + 1);
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        for (int i = 0; i < pct.length(); i++) {
            char c = pct.charAt(i);
            if (c == '%') {
                bytes.write(Integer.parseInt(pct.substring(i + 1, i + 3), 16));
                i += 2;
            } else {
                bytes.write(c);
            }
        }
        return bytes.toString(StandardCharsets.UTF_8);
    }

    private static void skipSpaces(String s, int[] pos) {
        while (pos[0] < s.length() && (s.charAt(pos[0]) == ' ' || s.charAt(pos[0]) == '\t')) {
            pos[0]++;
        }
    }

    private static void expect(String s, int[] pos, char c) {
        if (pos[0] >= s.length() || s.charAt(pos[0]) != c) {
            throw new AssertionError("'" + c + "' expected at " + pos[0] + " in: " + s);
        }
        pos[0]++;
    }
}
