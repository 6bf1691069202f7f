package dev.xaccel.filter.internal.util;

/**
 * Percent-encoding of UTF-8 bytes, the one home for it: a path for {@code X-Accel-Redirect}, {@code X-Sendfile}
 * and signed links ({@link #path}), and an RFC 8187 {@code ext-value} for {@code Content-Disposition}
 * ({@link #attrChars}). Upper-case hex. No Unicode normalization: NFC and NFD names are different files on disk
 * and stay different here.
 */
public final class PercentEncoding {

    private static final char[] HEX = "0123456789ABCDEF".toCharArray();

    /** RFC 3986 unreserved characters and {@code /}, by ASCII code: a table, not a predicate call per char. */
    private static final boolean[] PATH = kept("-._~/");
    /** RFC 8187 attr-char. */
    private static final boolean[] ATTR_CHAR = kept("!#$&+-.^_`|~");

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
        return encode("", path, PATH);
    }

    /**
     * {@code prefix} followed by {@link #path(String) path(path)}, built in one string (the offload header's
     * value: the location's internal prefix and the encoded relative path).
     */
    public static String path(String prefix, String path) {
        return encode(prefix, path, PATH);
    }

    /** The value of an RFC 8187 {@code filename*=UTF-8''...}: every byte but attr-chars encoded. */
    public static String attrChars(String value) {
        return encode("", value, ATTR_CHAR);
    }

    /**
     * {@code prefix} and the UTF-8 bytes of {@code s}, each kept or {@code %XX}; {@code s} itself when the prefix
     * is empty and every char is a kept ASCII byte (the common case: nothing allocated).
     */
    private static String encode(String prefix, String s, boolean[] kept) {
        int n = s.length();
        int i = 0;
        while (i < n) {
            char c = s.charAt(i);
            if (c >= 0x80 || !kept[c]) {
                break;
            }
            i++;
        }
        if (i == n) {
            return prefix.isEmpty() ? s : prefix.concat(s);
        }
        StringBuilder sb = new StringBuilder(prefix.length() + n + 32).append(prefix).append(s, 0, i);
        for (; i < n; i++) {
            char c = s.charAt(i);
            if (c < 0x80) {
                append(sb, c, kept);
            } else if (c < 0x800) {
                append(sb, 0xc0 | (c >> 6), kept);
                append(sb, 0x80 | (c & 0x3f), kept);
            } else if (Character.isSurrogate(c)) {
                if (!Character.isHighSurrogate(c) || i + 1 == n || !Character.isLowSurrogate(s.charAt(i + 1))) {
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

    private static void append(StringBuilder sb, int b, boolean[] kept) {
        if (b < 0x80 && kept[b]) {
            sb.append((char) b);
        } else {
            sb.append('%').append(HEX[b >> 4]).append(HEX[b & 0x0f]);
        }
    }

    /** Letters, digits and {@code extra}, by ASCII code. */
    private static boolean[] kept(String extra) {
        boolean[] t = new boolean[0x80];
        for (int b = 0; b < t.length; b++) {
            t[b] = isAlphaNum(b) || extra.indexOf(b) >= 0;
        }
        return t;
    }

    private static boolean isAlphaNum(int b) {
        return (b >= 'A' && b <= 'Z') || (b >= 'a' && b <= 'z') || (b >= '0' && b <= '9');
    }
}
