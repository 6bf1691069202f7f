package dev.xaccel.filter;

import java.nio.charset.StandardCharsets;

/**
 * The header value(s) that hand one checked file to the front end, built from the same real relative path the
 * filter resolved, so that what the front end opens is provably the file the application authorized.
 *
 * @param redirect the offload header's value: for nginx the location's internal prefix plus the percent-encoded
 *                 relative path (nginx decodes it exactly once), otherwise the percent-encoded absolute real path
 * @param rawPath  for nginx, the same internal URI unencoded: its UTF-8 bytes, one char per byte (the container
 *                 writes header chars 0-255 as single bytes), for the cached-decision pattern's {@code try_files}
 *                 jump, which does not decode; {@code null} for names that jump cannot carry unchanged (control
 *                 characters, {@code ?}) and for the other front ends
 */
record OffloadHeaders(String redirect, String rawPath) {

    /**
     * Sent with cacheable nginx offloads ({@code locations} entries with {@code expires=}): the value of
     * {@code X-Accel-Redirect} before percent-encoding, as raw bytes.
     */
    static final String RAW_PATH_HEADER = "X-Accel-Raw-Path";

    /** @param file a resolution below {@code location}'s root */
    static OffloadHeaders of(HeaderType type, Location location, Resolution file) {
        if (type.usesAbsolutePath()) {
            return new OffloadHeaders(PercentEncoding.path(file.file().toString()), null);
        }
        String uri = location.uriPrefix() + file.relativePath();
        return new OffloadHeaders(location.uriPrefix() + PercentEncoding.path(file.relativePath()),
                rawBytes(uri));
    }

    /** Characters of all values together, which is the number of bytes on the wire. */
    int length() {
        return redirect.length() + (rawPath == null ? 0 : rawPath.length());
    }

    /** The UTF-8 bytes of {@code uri} as ISO-8859-1 characters, or {@code null} when a jump could alter it. */
    static String rawBytes(String uri) {
        for (int i = 0; i < uri.length(); i++) {
            char c = uri.charAt(i);
            if (c < 0x20 || c == 0x7f || c == '?') {
                return null;
            }
        }
        return new String(uri.getBytes(StandardCharsets.UTF_8), StandardCharsets.ISO_8859_1);
    }
}
