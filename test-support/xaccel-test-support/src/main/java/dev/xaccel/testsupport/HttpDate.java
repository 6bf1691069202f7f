package dev.xaccel.testsupport;

import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Locale;

/**
 * HTTP dates in the one form servers send (RFC 9110 §5.6.7 IMF-fixdate: {@code Sun, 06 Nov 1994 08:49:37 GMT},
 * always two-digit days). {@link DateTimeFormatter#RFC_1123_DATE_TIME} writes {@code 1 Dec}, which is a valid
 * RFC 1123 date but not what a server sends: comparing with it fails on days 1 to 9 of every month.
 */
public final class HttpDate {

    public static final DateTimeFormatter IMF_FIXDATE = DateTimeFormatter
            .ofPattern("EEE, dd MMM yyyy HH:mm:ss 'GMT'", Locale.US).withZone(ZoneOffset.UTC);

    private HttpDate() {
    }

    /** The IMF-fixdate of {@code epochMillis} (sub-second part dropped). */
    public static String format(long epochMillis) {
        return IMF_FIXDATE.format(Instant.ofEpochMilli(epochMillis));
    }

    /** Parses an IMF-fixdate. */
    public static long parse(String value) {
        return Instant.from(IMF_FIXDATE.parse(value)).toEpochMilli();
    }
}
