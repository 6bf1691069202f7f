package dev.xaccel.filter.internal.http;

import java.util.Enumeration;

import jakarta.servlet.http.HttpServletRequest;

/**
 * The conditional request headers of RFC 9110 §13.2.2, evaluated in the order the RFC prescribes, each step a
 * small method: {@code If-Match}, else {@code If-Unmodified-Since}; then {@code If-None-Match}, else
 * {@code If-Modified-Since} (GET/HEAD only); {@code If-Range} is asked separately when a {@code Range} is present.
 * Dates compare at second precision (the precision of {@code Last-Modified}); an invalid date is ignored.
 */
public final class Preconditions {

    /** What the preconditions ask for. */
    public enum Outcome {
        /** Send the representation (or the range asked for). */
        PROCEED,
        /** 304 with the validators. */
        NOT_MODIFIED,
        /** 412, no body. */
        PRECONDITION_FAILED
    }

    private Preconditions() {
    }

    /**
     * @param etag               the representation's strong entity tag
     * @param lastModifiedMillis {@code Last-Modified} in milliseconds, already truncated to seconds
     */
    public static Outcome evaluate(HttpServletRequest req, String etag, long lastModifiedMillis) {
        String ifMatch = joinedHeader(req, "If-Match");
        if (ifMatch != null ? !checkIfMatch(ifMatch, etag) : !checkIfUnmodifiedSince(req, lastModifiedMillis)) {
            return Outcome.PRECONDITION_FAILED;
        }
        boolean getOrHead = isGetOrHead(req);
        String ifNoneMatch = joinedHeader(req, "If-None-Match");
        if (ifNoneMatch != null) {
            if (!checkIfNoneMatch(ifNoneMatch, etag)) {
                return getOrHead ? Outcome.NOT_MODIFIED : Outcome.PRECONDITION_FAILED;
            }
        } else if (getOrHead && !checkIfModifiedSince(req, lastModifiedMillis)) {
            return Outcome.NOT_MODIFIED;
        }
        return Outcome.PROCEED;
    }

    /** {@code If-Match}: {@code *} or a listed tag equal by strong comparison. */
    public static boolean checkIfMatch(String ifMatch, String etag) {
        return ETags.matchesStrong(ifMatch, etag);
    }

    /** {@code If-Unmodified-Since}: holds when absent, invalid, or not older than the file. */
    public static boolean checkIfUnmodifiedSince(HttpServletRequest req, long lastModifiedMillis) {
        long since = dateHeader(req, "If-Unmodified-Since");
        return since < 0 || lastModifiedMillis <= since;
    }

    /** {@code If-None-Match}: holds when no listed tag matches by weak comparison (and it is not {@code *}). */
    public static boolean checkIfNoneMatch(String ifNoneMatch, String etag) {
        return !ETags.matchesWeak(ifNoneMatch, etag);
    }

    /** {@code If-Modified-Since}: holds when absent, invalid, or older than the file. */
    public static boolean checkIfModifiedSince(HttpServletRequest req, long lastModifiedMillis) {
        long since = dateHeader(req, "If-Modified-Since");
        return since < 0 || lastModifiedMillis > since;
    }

    /**
     * {@code If-Range}: a {@code Range} is honoured when If-Range is absent, or names the current strong tag, or is
     * exactly the current {@code Last-Modified}.
     */
    public static boolean checkIfRange(HttpServletRequest req, String etag, long lastModifiedMillis) {
        String ifRange = req.getHeader("If-Range");
        if (ifRange == null) {
            return true;
        }
        String v = ifRange.trim();
        if (v.startsWith("\"") || v.startsWith("W/")) {
            return ETags.ifRangeMatches(v, etag);
        }
        long date = dateHeader(req, "If-Range");
        return date >= 0 && date == lastModifiedMillis;
    }

    public static boolean isGetOrHead(HttpServletRequest req) {
        String method = req.getMethod();
        return "GET".equals(method) || "HEAD".equals(method);
    }

    /** All values of a list header joined with commas, or {@code null} when absent. */
    private static String joinedHeader(HttpServletRequest req, String name) {
        if (req.getHeader(name) == null) {
            // the usual case: a scan without the enumeration a container allocates for getHeaders
            return null;
        }
        Enumeration<String> values = req.getHeaders(name);
        if (values == null || !values.hasMoreElements()) {
            return null;
        }
        String first = values.nextElement();
        if (!values.hasMoreElements()) {
            return first;
        }
        StringBuilder sb = new StringBuilder(first);
        while (values.hasMoreElements()) {
            sb.append(',').append(values.nextElement());
        }
        return sb.toString();
    }

    /** The date in millis, or -1 when absent or not a valid HTTP-date (then it is ignored, RFC 9110). */
    private static long dateHeader(HttpServletRequest req, String name) {
        try {
            return req.getDateHeader(name);
        } catch (IllegalArgumentException e) {
            return -1;
        }
    }
}
