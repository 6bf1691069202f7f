package dev.xaccel.filter.internal.receipt;

import java.math.BigDecimal;
import java.time.Duration;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One receipt line as nginx logs it with the shipped {@code xaccel_receipt} format (docs/nginx/xaccel-receipts.conf),
 * after whatever syslog header precedes it:
 * {@code xr1 <id> <$status> <$body_bytes_sent> c=<$request_completion> <$request_time> r=<$http_range>}.
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

    private static final Pattern LINE = Pattern.compile(
            "xr1 ([0-9a-f]{32}) (\\d{3}) (\\d{1,18}) c=(OK)? (\\d{1,9}\\.\\d{3}) r=(.*)", Pattern.DOTALL);

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
        Matcher m = LINE.matcher(text);
        if (!m.matches()) {
            return null;
        }
        String range = m.group(6);
        Duration d = Duration.ofMillis(new BigDecimal(m.group(5)).movePointRight(3).longValueExact());
        return new ReceiptLine(m.group(1), Integer.parseInt(m.group(2)), Long.parseLong(m.group(3)),
                m.group(4) != null, d, range.isEmpty() || range.equals("-") ? null : range);
    }
}
