package dev.xaccel.sample.api;

import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.Charset;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.IllegalCharsetNameException;
import java.nio.charset.StandardCharsets;
import java.nio.charset.UnsupportedCharsetException;

import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;

/**
 * The check of one {@code application/x-www-form-urlencoded} body, before Jersey parses it: the outcome is the
 * body's bytes or the precise 4xx that a malformed post gets (Jersey itself would throw and answer 500).
 */
final class FormBody {

    /** Longest form body: a login is a few dozen bytes. */
    static final int MAX_BYTES = 8 * 1024;

    /** Either the checked bytes ({@code status == 0}) or the refusal. */
    record Outcome(int status, String code, String reason, byte[] bytes) {
        boolean accepted() {
            return status == 0;
        }

        static Outcome refused(Response.Status status, String code, String reason) {
            return new Outcome(status.getStatusCode(), code, reason, null);
        }
    }

    private FormBody() {
    }

    /**
     * @param contentType the request's {@code Content-Type}, or null
     * @param length its {@code Content-Length}, or -1
     * @param body the entity stream (read up to one byte past {@link #MAX_BYTES})
     * @return the outcome
     */
    static Outcome check(String contentType, long length, InputStream body) throws IOException {
        MediaType type;
        try {
            type = contentType == null ? null : MediaType.valueOf(contentType);
        } catch (IllegalArgumentException e) {
            type = null;
        }
        if (type == null) {
            return Outcome.refused(Response.Status.UNSUPPORTED_MEDIA_TYPE, "unsupported_media_type",
                    Messages.get("form.noType"));
        }
        if (!type.isCompatible(MediaType.APPLICATION_FORM_URLENCODED_TYPE) || type.isWildcardType()
                || type.isWildcardSubtype()) {
            return Outcome.refused(Response.Status.UNSUPPORTED_MEDIA_TYPE, "unsupported_media_type",
                    Messages.get("form.notForm"));
        }
        Charset charset = StandardCharsets.UTF_8;
        String name = type.getParameters().get(MediaType.CHARSET_PARAMETER);
        if (name != null) {
            try {
                charset = Charset.forName(name);
            } catch (IllegalCharsetNameException | UnsupportedCharsetException e) {
                return Outcome.refused(Response.Status.UNSUPPORTED_MEDIA_TYPE, "unsupported_charset",
                        Messages.get("form.charset"));
            }
        }
        if (length > MAX_BYTES) {
            return tooLarge();
        }
        byte[] bytes = body.readNBytes(MAX_BYTES + 1);
        if (bytes.length > MAX_BYTES) {
            return tooLarge();
        }
        if (!wellEncoded(bytes, charset)) {
            return Outcome.refused(Response.Status.BAD_REQUEST, "bad_request",
                    Messages.get("form.encoding", charset.name()));
        }
        return new Outcome(0, null, null, bytes);
    }

    private static Outcome tooLarge() {
        return Outcome.refused(Response.Status.REQUEST_ENTITY_TOO_LARGE, "too_large",
                Messages.get("form.tooLarge", Integer.toString(MAX_BYTES)));
    }

    /** Only ASCII, every {@code %} followed by two hex digits, and the decoded names and values in the charset. */
    static boolean wellEncoded(byte[] bytes, Charset charset) {
        ByteBuffer decoded = ByteBuffer.allocate(bytes.length);
        for (int i = 0; i < bytes.length; i++) {
            int b = bytes[i] & 0xff;
            if (b >= 0x80 || b < 0x20) {
                return false;
            }
            if (b == '%') {
                if (i + 2 >= bytes.length || hex(bytes[i + 1]) < 0 || hex(bytes[i + 2]) < 0) {
                    return false;
                }
                decoded.put((byte) (hex(bytes[i + 1]) << 4 | hex(bytes[i + 2])));
                i += 2;
            } else {
                decoded.put((byte) (b == '+' || b == '&' || b == '=' ? ' ' : b));
            }
        }
        decoded.flip();
        try {
            charset.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT).decode(decoded);
            return true;
        } catch (CharacterCodingException e) {
            return false;
        }
    }

    private static int hex(byte b) {
        return Character.digit(b, 16);
    }
}
