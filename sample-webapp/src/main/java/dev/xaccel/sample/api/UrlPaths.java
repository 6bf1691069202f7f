package dev.xaccel.sample.api;

import java.nio.charset.StandardCharsets;

/** Builds URL paths: every byte of a segment outside {@code A-Za-z0-9-._~} percent-encoded, UTF-8. */
public final class UrlPaths {

    private static final char[] HEX = "0123456789ABCDEF".toCharArray();

    private UrlPaths() {
    }

    /** Encodes a relative path, keeping {@code /} as the separator. */
    public static String encodePath(String relative) {
        StringBuilder sb = new StringBuilder(relative.length() + 16);
        for (byte b : relative.getBytes(StandardCharsets.UTF_8)) {
            int c = b & 0xff;
            if (c == '/' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
                    || c == '-' || c == '.' || c == '_' || c == '~') {
                sb.append((char) c);
            } else {
                sb.append('%').append(HEX[c >> 4]).append(HEX[c & 0xf]);
            }
        }
        return sb.toString();
    }
}
