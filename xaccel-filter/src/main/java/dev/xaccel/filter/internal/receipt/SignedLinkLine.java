package dev.xaccel.filter.internal.receipt;

import java.io.ByteArrayOutputStream;
import java.math.BigDecimal;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One signed link's line as nginx logs it with the {@code xaccel_signed} format
 * (docs/nginx/xaccel-signed-links.conf.template), after whatever syslog header precedes it:
 * {@code xs1 <$arg_md5> <$arg_expires> <$status> <$body_bytes_sent> c=<$request_completion> <$request_time>
 * r="<$http_range>" u=<$uri>}. No identifier from the filter exists (nginx answered alone): the link's own
 * signature, expiry and path identify it, and only a line whose signature the filter's secret makes counts. The
 * client chose the range and the path: nginx escapes {@code "}, {@code \} and bytes outside printable ASCII as
 * {@code \xHH}, so the quoted range cannot end early and the path, last, is read back byte for byte.
 *
 * @param signature the link's {@code md5} argument (its first 22 characters: what nginx decodes)
 * @param expires   the expiry as the link carries it
 * @param status    the status nginx sent
 * @param bytes     body bytes nginx sent
 * @param complete  whether nginx completed the request
 * @param duration  nginx's {@code $request_time}
 * @param ranges    the {@code Range} asked, or {@code null}
 * @param uri       the decoded path nginx verified and served ({@code $uri})
 */
public record SignedLinkLine(String signature, String expires, int status, long bytes, boolean complete,
        Duration duration, String ranges, String uri) {

    /** The mark the format starts with (its version). */
    public static final String MARK = "xs1 ";

    // nginx decodes the md5 argument up to its first character outside base64url, and at most 24 characters long
    private static final Pattern LINE = Pattern.compile("xs1 ([A-Za-z0-9_-]{22})(?:[^A-Za-z0-9_ -]\\S?)? (\\d{1,19}) "
            + "(\\d{3}) (\\d{1,18}) c=(OK)? (\\d{1,9}\\.\\d{3}) r=\"([^\"]*)\" u=(/.*)", Pattern.DOTALL);

    /**
     * The line in a datagram, or {@code null} when it holds none in the format.
     *
     * @param datagram a syslog message ({@code <PRI>TIMESTAMP TAG: xs1 ...}) or the bare line
     */
    public static SignedLinkLine parse(String datagram) {
        int at = datagram.indexOf(MARK);
        if (at < 0) {
            return null;
        }
        Matcher m = LINE.matcher(datagram.substring(at).stripTrailing());
        if (!m.matches()) {
            return null;
        }
        String uri = unescape(m.group(8));
        String range = unescape(m.group(7));
        if (uri == null || range == null) {
            return null;
        }
        Duration d = Duration.ofMillis(new BigDecimal(m.group(6)).movePointRight(3).longValueExact());
        return new SignedLinkLine(m.group(1), m.group(2), Integer.parseInt(m.group(3)), Long.parseLong(m.group(4)),
                m.group(5) != null, d, range.isEmpty() || range.equals("-") ? null : range, uri);
    }

    /** nginx's log escaping undone ({@code \xHH} to a byte), as UTF-8; null when it is not nginx's or not UTF-8. */
    static String unescape(String logged) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(logged.length());
        for (int i = 0; i < logged.length(); i++) {
            char c = logged.charAt(i);
            if (c == '\\') {
                if (i + 3 >= logged.length() || logged.charAt(i + 1) != 'x') {
                    return null;
                }
                int hi = Character.digit(logged.charAt(i + 2), 16);
                int lo = Character.digit(logged.charAt(i + 3), 16);
                if (hi < 0 || lo < 0) {
                    return null;
                }
                out.write(hi << 4 | lo);
                i += 3;
            } else if (c < 0x20 || c > 0x7e) {
                return null;            // nginx escapes these: the line was not written by it
            } else {
                out.write(c);
            }
        }
        try {
            return StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(out.toByteArray()))
                    .toString();
        } catch (CharacterCodingException e) {
            return null;
        }
    }
}
