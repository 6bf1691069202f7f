package dev.xaccel.filter.internal.util;

import java.util.regex.Pattern;

/** The path rules shared by configuration, resolution and signing: one home for each. */
public final class PathRules {

    /**
     * An internal or public URI prefix the filter writes itself: starts and ends with {@code /}, at least one
     * segment, only {@code A-Za-z0-9-._~} in segments (no dot segments: {@link #hasDotSegment}).
     */
    private static final Pattern URI_PREFIX = Pattern.compile("/(?:[A-Za-z0-9._~-]+/)+");

    private PathRules() {
    }

    /** Whether {@code prefix} is a URI prefix the filter may put into a redirect or a link. */
    public static boolean isUriPrefix(String prefix) {
        return prefix != null && URI_PREFIX.matcher(prefix).matches() && !hasDotSegment(prefix);
    }

    /** A segment that a path normalization would remove or climb with: {@code .}, {@code ..} (and {@code ...}). */
    public static boolean isDotSegment(String segment) {
        if (segment.isEmpty()) {
            return false;
        }
        for (int i = 0; i < segment.length(); i++) {
            if (segment.charAt(i) != '.') {
                return false;
            }
        }
        return true;
    }

    /** Whether a '/'-separated path has a segment made of dots only. */
    public static boolean hasDotSegment(String path) {
        for (String s : path.split("/")) {
            if (isDotSegment(s)) {
                return true;
            }
        }
        return false;
    }

    /** Control characters {@code < 0x20} and DEL. */
    public static boolean isControl(char c) {
        return c < 0x20 || c == 0x7f;
    }
}
