package dev.xaccel.filter.internal.http;

/**
 * Entity tags (RFC 9110 §8.8.3) and the list matching of {@code If-Match}, {@code If-None-Match} and
 * {@code If-Range}.
 *
 * <p>The tag is nginx's: {@code "<mtime seconds hex>-<size hex>"}, so a file keeps the same ETag whether
 * nginx serves it after an offload or the filter serves it directly.
 */
public final class ETags {

    private ETags() {
    }

    /** The strong ETag (with quotes) nginx computes for a file. */
    public static String strong(long size, long lastModifiedMillis) {
        return "\"" + Long.toHexString(Math.floorDiv(lastModifiedMillis, 1000L)) + "-" + Long.toHexString(size)
                + "\"";
    }

    /** {@code If-Match}: {@code *} or any listed tag equal by strong comparison. */
    public static boolean matchesStrong(String headerList, String etag) {
        return matches(headerList, etag, true);
    }

    /** {@code If-None-Match}: {@code *} or any listed tag equal by weak comparison. */
    public static boolean matchesWeak(String headerList, String etag) {
        return matches(headerList, etag, false);
    }

    /** {@code If-Range} with an entity tag: a single tag, strong comparison (a weak tag never matches). */
    public static boolean ifRangeMatches(String value, String etag) {
        String v = value.trim();
        return !v.startsWith("W/") && isStrong(etag) && v.equals(etag);
    }

    /**
     * Whether {@code value} is one entity tag: {@code W/} optionally, then a quoted string of {@code etagc}
     * (RFC 9110 §8.8.3: {@code %x21 / %x23-7E / obs-text}).
     */
    public static boolean isValid(String value) {
        return value != null && tagEnd(value, 0) == value.length();
    }

    /**
     * Whether {@code value} is what {@code If-Match} and {@code If-None-Match} may hold: {@code *}, or a list of
     * entity tags (RFC 9110 §13.1.1; commas with optional blanks, empty elements allowed, at least one tag).
     */
    public static boolean isValidList(String value) {
        if (value == null) {
            return false;
        }
        if (value.strip().equals("*")) {
            return true;
        }
        int tags = 0;
        int i = 0;
        int n = value.length();
        while (i < n) {
            char c = value.charAt(i);
            if (c == ' ' || c == '\t' || c == ',') {
                i++;
                continue;
            }
            int end = tagEnd(value, i);
            if (end < 0) {
                return false;
            }
            tags++;
            i = end;
            while (i < n && (value.charAt(i) == ' ' || value.charAt(i) == '\t')) {
                i++;
            }
            if (i < n && value.charAt(i) != ',') {
                return false;
            }
        }
        return tags > 0;
    }

    /** The index after the entity tag that starts at {@code from}, or -1 when none starts there. */
    private static int tagEnd(String s, int from) {
        int i = s.startsWith("W/", from) ? from + 2 : from;
        if (i >= s.length() || s.charAt(i) != '"') {
            return -1;
        }
        for (i++; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == '"') {
                return i + 1;
            }
            if (c < 0x21 || c == 0x7f || c > 0xff) {
                return -1;
            }
        }
        return -1;
    }

    private static boolean isStrong(String etag) {
        return etag != null && etag.startsWith("\"");
    }

    private static boolean matches(String list, String etag, boolean strong) {
        if (list == null || etag == null) {
            return false;
        }
        String opaque = opaque(etag);
        boolean etagWeak = etag.startsWith("W/");
        int i = 0;
        int n = list.length();
        while (i < n) {
            char c = list.charAt(i);
            if (c == ' ' || c == '\t' || c == ',') {
                i++;
                continue;
            }
            if (c == '*') {
                return true;
            }
            boolean weak = false;
            if (c == 'W' && i + 1 < n && list.charAt(i + 1) == '/') {
                weak = true;
                i += 2;
            }
            if (i < n && list.charAt(i) == '"') {
                int close = list.indexOf('"', i + 1);
                if (close < 0) {
                    return false; // unterminated: nothing further can be read reliably
                }
                String tag = list.substring(i, close + 1);
                if (tag.equals(opaque) && (!strong || (!weak && !etagWeak))) {
                    return true;
                }
                i = close + 1;
            } else {
                // malformed element: skip to the next comma
                int comma = list.indexOf(',', i);
                i = comma < 0 ? n : comma + 1;
            }
        }
        return false;
    }

    private static String opaque(String etag) {
        return etag.startsWith("W/") ? etag.substring(2) : etag;
    }
}
