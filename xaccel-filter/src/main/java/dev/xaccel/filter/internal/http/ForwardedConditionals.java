package dev.xaccel.filter.internal.http;

import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Enumeration;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

import jakarta.servlet.http.HttpServletRequest;

/**
 * The conditional request headers (and the range) a remote store is sent for the client, valid ones only: RFC 9110
 * has a recipient ignore a date that is not an HTTP-date and a list that is not entity tags, but a store may refuse
 * the whole request for one (S3 answers 400, which the filter could only pass on as 502). So an invalid one is
 * dropped here, as if the client had not sent it; a valid date is sent in the one format every store reads
 * (IMF-fixdate). The nginx remote location does the same with {@code map}s (docs/nginx/xaccel-remote.conf.template).
 */
public final class ForwardedConditionals {

    /** The range and conditional headers a store evaluates, in the order they are forwarded. */
    public static final List<String> NAMES = List.of("Range", "If-Range", "If-Match", "If-None-Match",
            "If-Modified-Since", "If-Unmodified-Since");

    private static final DateTimeFormatter IMF_FIXDATE = DateTimeFormatter
            .ofPattern("EEE, dd MMM yyyy HH:mm:ss 'GMT'", Locale.US).withZone(ZoneOffset.UTC);

    private ForwardedConditionals() {
    }

    /**
     * The value to send the store for the header {@code name}; empty when the client sent none or an invalid one.
     * The {@code Range} is sent as the client sent it, unless it depends on an invalid {@code If-Range}: that matches
     * nothing, so the whole object is asked for (RFC 9110 §13.1.5).
     *
     * @param name one of {@link #NAMES}
     */
    public static Optional<String> value(HttpServletRequest req, String name) {
        return Optional.ofNullable(valueOrNull(req, name));
    }

    private static String valueOrNull(HttpServletRequest req, String name) {
        switch (name) {
            case "Range":
                String range = req.getHeader(name);
                return range != null && req.getHeader("If-Range") != null && value(req, "If-Range").isEmpty() ? null
                        : range;
            case "If-Match":
            case "If-None-Match":
                String list = joined(req, name);
                return ETags.isValidList(list) ? list : null;
            case "If-Range":
                String v = req.getHeader(name);
                if (v != null && (v.startsWith("\"") || v.startsWith("W/"))) {
                    return ETags.isValid(v.strip()) ? v.strip() : null;
                }
                return date(req, name);
            case "If-Modified-Since":
            case "If-Unmodified-Since":
                return date(req, name);
            default:
                throw new IllegalArgumentException(name);
        }
    }

    /** The date the container parsed (the three formats of RFC 9110 §5.6.7) as IMF-fixdate, or {@code null}. */
    private static String date(HttpServletRequest req, String name) {
        if (req.getHeader(name) == null) {
            return null;
        }
        long millis;
        try {
            millis = req.getDateHeader(name);
        } catch (IllegalArgumentException e) {
            return null;
        }
        return millis < 0 ? null : IMF_FIXDATE.format(Instant.ofEpochMilli(millis));
    }

    /** All lines of a list header joined with commas, or {@code null} when absent. */
    private static String joined(HttpServletRequest req, String name) {
        Enumeration<String> values = req.getHeaders(name);
        if (values == null || !values.hasMoreElements()) {
            return null;
        }
        StringBuilder sb = new StringBuilder(values.nextElement());
        while (values.hasMoreElements()) {
            sb.append(", ").append(values.nextElement());
        }
        return sb.toString();
    }
}
