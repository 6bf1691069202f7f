package dev.xaccel.filter;

import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;

/**
 * Percent-encodes a file path for the {@code X-Accel-Redirect} / {@code X-Sendfile} header value.
 *
 * <p>The path is encoded as UTF-8; the bytes of {@code A-Z a-z 0-9 - . _ ~ /} are kept, every other byte
 * becomes {@code %XX} (upper-case hex). nginx decodes the value exactly once and splits the query at the first
 * raw {@code ?}, so encoding {@code ?}, {@code #}, {@code %}, blanks and non-ASCII is what makes any file name
 * reachable; Tomcat could not send raw UTF-8 in a header anyway. No Unicode normalization is applied: NFC and
 * NFD names are different files on disk and stay different here.
 */
final class RedirectPathEncoder {

    private static final char[] HEX = "0123456789ABCDEF".toCharArray();

    private RedirectPathEncoder() {
    }

    /**
     * @param path the path ('/'-separated)
     * @return the encoded path, only ASCII characters from the unreserved set, {@code /} and {@code %}
     * @throws IllegalArgumentException if the path is not valid UTF-16 (lone surrogates)
     */
    static String encode(String path) {
        ByteBuffer bytes;
        try {
            bytes = StandardCharsets.UTF_8.newEncoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .encode(CharBuffer.wrap(path));
        } catch (CharacterCodingException e) {
            throw new IllegalArgumentException(Messages.get("encoder.malformed"), e);
        }
        StringBuilder sb = new StringBuilder(bytes.remaining() + 16);
        while (bytes.hasRemaining()) {
            int b = bytes.get() & 0xff;
            if (isKept(b)) {
                sb.append((char) b);
            } else {
                sb.append('%').append(HEX[b >> 4]).append(HEX[b & 0x0f]);
            }
        }
        return sb.toString();
    }

    private static boolean isKept(int b) {
        return (b >= 'A' && b <= 'Z') || (b >= 'a' && b <= 'z') || (b >= '0' && b <= '9')
                || b == '-' || b == '.' || b == '_' || b == '~' || b == '/';
    }
}
