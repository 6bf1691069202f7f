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
