package dev.xaccel.filter;

import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.function.IntPredicate;

/**
 * Percent-encoding of UTF-8 bytes, the one home for it: a path for {@code X-Accel-Redirect}, {@code X-Sendfile}
 * and signed links ({@link #path}), and an RFC 8187 {@code ext-value} for {@code Content-Disposition}
 * ({@link #attrChars}). Upper-case hex. No Unicode normalization: NFC and NFD names are different files on disk
 * and stay different here.
 */
final class PercentEncoding {

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
    static String path(String path) {
        return encode(utf8(path), PATH);
    }

    /** The value of an RFC 8187 {@code filename*=UTF-8''...}: every byte but attr-chars encoded. */
    static String attrChars(String value) {
        return encode(utf8(value), ATTR_CHAR);
    }

    private static ByteBuffer utf8(String s) {
        try {
            return StandardCharsets.UTF_8.newEncoder().onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT).encode(CharBuffer.wrap(s));
        } catch (CharacterCodingException e) {
            throw new IllegalArgumentException(Messages.get("encoder.malformed"), e);
        }
    }

    private static String encode(ByteBuffer bytes, IntPredicate kept) {
        StringBuilder sb = new StringBuilder(bytes.remaining() + 16);
        while (bytes.hasRemaining()) {
            int b = bytes.get() & 0xff;
            if (kept.test(b)) {
                sb.append((char) b);
            } else {
                sb.append('%').append(HEX[b >> 4]).append(HEX[b & 0x0f]);
            }
        }
        return sb.toString();
    }

    private static boolean isAlphaNum(int b) {
        return (b >= 'A' && b <= 'Z') || (b >= 'a' && b <= 'z') || (b >= '0' && b <= '9');
    }
}
