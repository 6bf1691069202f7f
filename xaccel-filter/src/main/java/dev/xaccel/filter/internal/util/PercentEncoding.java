package dev.xaccel.filter.internal.util;

import java.util.function.IntPredicate;

/**
 * Percent-encoding of UTF-8 bytes, the one home for it: a path for {@code X-Accel-Redirect}, {@code X-Sendfile}
 * and signed links ({@link #path}), and an RFC 8187 {@code ext-value} for {@code Content-Disposition}
 * ({@link #attrChars}). Upper-case hex. No Unicode normalization: NFC and NFD names are different files on disk
 * and stay different here.
 */
public final class PercentEncoding {

    private static final char[] HEX = "0123456789ABCDEF".toCharArray();

    /** RFC 3986 unreserved characters and {@code /}. */
    private static final IntPredicate PATH = b -> isAlphaNum(b) || b == '-' || b == '.' || b == '_' || b == '~'
            || b == '/';
    /** RFC 8187 attr-char. */
    private static final IntPredicate ATTR_CHAR = b -> isAlphaNum(b) || b == '!' || b == '#' || b == '$'
            || b == '&' || b == '+' || b == '-' || b == '.' || b == '^' || b == '_' || b == '`' || b == '|'
            || b == '~';

    private PercentEncoding() {
    }

    /**
     * A '/'-separated path: the bytes of {@code A-Z a-z 0-9 - . _ ~ /} are kept, every other byte becomes
     * {@code %XX}. nginx decodes the value exactly once and splits the query at the first raw {@code ?}, so
     * encoding {@code ?}, {@code #}, {@code %}, blanks and non-ASCII is what makes any file name reachable.
     *
     * @throws IllegalArgumentException if the path is not valid UTF-16 (lone surrogates)
     */
    public static String path(String path) {
        return encode(path, PATH);
    }

    /** The value of an RFC 8187 {@code filename*=UTF-8''...}: every byte but attr-chars encoded. */
    public static String attrChars(String value) {
        return encode(value, ATTR_CHAR);
    }

    /**
     * The UTF-8 bytes of {@code s}, each kept or {@code %XX}; {@code s} itself when every char is a kept ASCII
     * byte (the common case: nothing allocated).
     */
    private static String encode(String s, IntPredicate kept) {
        int i = 0;
        while (i < s.length() && s.charAt(i) < 0x80 && kept.test(s.charAt(i))) {
            i++;
        }
        if (i == s.length()) {
            return s;
        }
        StringBuilder sb = new StringBuilder(s.length() + 32).append(s, 0, i);
        for (; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c < 0x80) {
                append(sb, c, kept);
            } else if (c < 0x800) {
                append(sb, 0xc0 | (c >> 6), kept);
                append(sb, 0x80 | (c & 0x3f), kept);
            } else if (Character.isSurrogate(c)) {
                if (!Character.isHighSurrogate(c) || i + 1 == s.length()
                        || !Character.isLowSurrogate(s.charAt(i + 1))) {
                    throw new IllegalArgumentException(Messages.get("encoder.malformed"));
                }
                int cp = Character.toCodePoint(c, s.charAt(++i));
                append(sb, 0xf0 | (cp >> 18), kept);
                append(sb, 0x80 | ((cp >> 12) & 0x3f), kept);
                append(sb, 0x80 | ((cp >> 6) & 0x3f), kept);
                append(sb, 0x80 | (cp & 0x3f), kept);
            } else {
                append(sb, 0xe0 | (c >> 12), kept);
                append(sb, 0x80 | ((c >> 6) & 0x3f), kept);
                append(sb, 0x80 | (c & 0x3f), kept);
            }
        }
        return sb.toString();
    }

    private static void append(StringBuilder sb, int b, IntPredicate kept) {
        if (b < 0x80 && kept.test(b)) {
            sb.append((char) b);
        } else {
            sb.append('%').append(HEX[b >> 4]).append(HEX[b & 0x0f]);
        }
    }

    private static boolean isAlphaNum(int b) {
        return (b >= 'A' && b <= 'Z') || (b >= 'a' && b <= 'z') || (b >= '0' && b <= '9');
    }
}
