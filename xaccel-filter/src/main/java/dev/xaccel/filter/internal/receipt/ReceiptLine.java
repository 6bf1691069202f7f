package dev.xaccel.filter.internal.receipt;

import java.time.Duration;
import java.time.temporal.ChronoUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One receipt line as a front end logs it with a shipped format, after whatever syslog header precedes it. nginx
 * (docs/nginx/xaccel-receipts.conf.template):
 * {@code xr1 <id> <$status> <$body_bytes_sent> c=<$request_completion> <$request_time> r=<$http_range>}.
 * Apache httpd (docs/apache/xaccel-receipts.conf), the same line with the fields Apache can log:
 * {@code xr1 <id> <%>s> <%B> c=<%X> <%{us}T>us o=<%O> m=<%m> r=<%{Range}i>}; Apache's {@code %B} is the body it
 * meant to send (the whole file for a client that left, and for a HEAD), {@code %O} what it wrote, head included,
 * so the body sent is 0 for a HEAD and else the smaller of the two (measured, docs/front-ends.md).
 * The range comes last because the client chose it: whatever it holds cannot shift the other fields.
 *
 * @param id       the identifier from {@code X-Xaccel-Receipt}
 * @param status   the status nginx sent
 * @param bytes    body bytes nginx sent
 * @param complete whether nginx completed the request ({@code $request_completion} {@code OK})
 * @param duration nginx's {@code $request_time}
 * @param ranges   the {@code Range} asked, or {@code null}
 */
public record ReceiptLine(String id, int status, long bytes, boolean complete, Duration duration, String ranges) {

    /** The mark the shipped format starts with (its version). */
    public static final String MARK = "xr1 ";

    /** Apache's: {@code %X} is {@code X} when the connection broke before the response was complete. */
    private static final Pattern APACHE = Pattern.compile(
            "xr1 ([0-9a-f]{32}) (\\d{3}) (\\d{1,18}) c=([-+X]) (\\d{1,15})us o=(\\d{1,18}) m=([A-Z]{1,20}) r=(.*)",
            Pattern.DOTALL);

    /**
     * The line in a datagram, or {@code null} when it holds none in the format.
     *
     * @param datagram a syslog message ({@code <PRI>TIMESTAMP TAG: xr1 ...}) or the bare line
     */
    public static ReceiptLine parse(String datagram) {
        int at = datagram.indexOf(MARK);
        if (at < 0) {
            return null;
        }
        String text = datagram.substring(at).stripTrailing();
        ReceiptLine nginx = nginx(text);
        return nginx != null ? nginx : apache(text);
    }

    /**
     * nginx's line, read field by field (one per request on the receipt thread: no regular expression):
     * {@code xr1 <32 hex> <3 digits> <1-18 digits> c=(OK)? <1-9 digits>.<3 digits> r=<anything>}.
     */
    private static ReceiptLine nginx(String text) {
        int i = MARK.length();
        int idEnd = i + 32;
        if (text.length() < idEnd + 1 || text.charAt(idEnd) != ' ') {
            return null;
        }
        String id = text.substring(i, idEnd);
        if (!ReceiptIds.isHex(id)) {
            return null;
        }
        i = idEnd + 1;
        int statusEnd = digits(text, i, 3, 3);
        if (statusEnd < 0 || !at(text, statusEnd, " ")) {
            return null;
        }
        int status = Integer.parseInt(text, i, statusEnd, 10);
        i = statusEnd + 1;
        int bytesEnd = digits(text, i, 1, 18);
        if (bytesEnd < 0 || !at(text, bytesEnd, " c=")) {
            return null;
        }
        long bytes = Long.parseLong(text, i, bytesEnd, 10);
        i = bytesEnd + 3;
        boolean complete = at(text, i, "OK");
        i += complete ? 2 : 0;
        if (!at(text, i, " ")) {
            return null;
        }
        i++;
        int secondsEnd = digits(text, i, 1, 9);
        if (secondsEnd < 0 || !at(text, secondsEnd, ".")) {
            return null;
        }
        int millisEnd = digits(text, secondsEnd + 1, 3, 3);
        if (millisEnd < 0 || !at(text, millisEnd, " r=")) {
            return null;
        }
        long millis = Long.parseLong(text, i, secondsEnd, 10) * 1000
                + Integer.parseInt(text, secondsEnd + 1, millisEnd, 10);
        String range = text.substring(millisEnd + 3);
        return new ReceiptLine(id, status, bytes, complete, Duration.ofMillis(millis),
                range.isEmpty() || range.equals("-") ? null : range);
    }

    /** The end of {@code min} to {@code max} ASCII digits at {@code from}, or -1. */
    private static int digits(String s, int from, int min, int max) {
        int i = from;
        while (i < s.length() && i - from < max && s.charAt(i) >= '0' && s.charAt(i) <= '9') {
            i++;
        }
        return i - from >= min ? i : -1;
    }

    private static boolean at(String s, int i, String expected) {
        return s.startsWith(expected, i);
    }

    private static ReceiptLine apache(String text) {
        Matcher m = APACHE.matcher(text);
        if (!m.matches()) {
            return null;
        }
        long bytes = m.group(7).equals("HEAD") ? 0
                : Math.min(Long.parseLong(m.group(3)), Long.parseLong(m.group(6)));
        String range = m.group(8);
        return new ReceiptLine(m.group(1), Integer.parseInt(m.group(2)), bytes, !m.group(4).equals("X"),
                Duration.of(Long.parseLong(m.group(5)), ChronoUnit.MICROS),
                range.isEmpty() || range.equals("-") ? null : range);
    }
}
