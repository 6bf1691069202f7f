package dev.xaccel.test;

import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Objects;

import org.assertj.core.api.AbstractAssert;

import dev.xaccel.filter.Disposition;
import dev.xaccel.filter.HeaderType;

/**
 * AssertJ assertions over an answer of the filter ({@link XAccelResponse}): offloaded to the front end or served
 * directly, and what the offload answer says. Start with {@link XAccelAssertions#assertThat}; every check that
 * fails names what it expected and shows the status and headers of the answer.
 *
 * <pre>{@code
 * assertThat(response).isOffloaded().toInternalUri("/_xaccel/media/a.mp3").withDisposition(ATTACHMENT);
 * assertThat(response).servedDirectly().withContentType("audio/mpeg");
 * }</pre>
 */
public class OffloadAssert extends AbstractAssert<OffloadAssert, XAccelResponse> {

    /** @param actual the answer */
    protected OffloadAssert(XAccelResponse actual) {
        super(actual, OffloadAssert.class);
    }

    /**
     * The answer hands the file to the front end: status 200 and an offload header ({@code X-Accel-Redirect} or
     * {@code X-Sendfile}).
     *
     * @return this
     */
    public OffloadAssert isOffloaded() {
        isNotNull();
        if (actual.offloadHeader() == null) {
            failWithMessage("Expecting the answer to be offloaded (X-Accel-Redirect or X-Sendfile), but it carries "
                    + "no offload header: %s", actual);
        }
        if (actual.status() != 200) {
            failWithMessage("Expecting an offloaded answer to have status 200, but it has %s: %s", actual.status(),
                    actual);
        }
        return this;
    }

    /**
     * The answer was not offloaded: the filter (or the application) sent the body itself, status 200 or 206.
     *
     * @return this
     */
    public OffloadAssert servedDirectly() {
        isNotNull();
        HeaderType offload = actual.offloadHeader();
        if (offload != null) {
            failWithMessage("Expecting the answer to be served directly, but it was offloaded with %s: %s: %s",
                    offload.headerName(), actual.header(offload.headerName()), actual);
        }
        if (actual.status() != 200 && actual.status() != 206) {
            failWithMessage("Expecting a directly served file (status 200 or 206), but the status is %s: %s",
                    actual.status(), actual);
        }
        return this;
    }

    /**
     * Offloaded to nginx's internal location at this URI ({@code X-Accel-Redirect}, percent-encoded as the filter
     * sends it, e.g. {@code /_xaccel/media/My%20Song.mp3}).
     *
     * @param uri the expected internal URI
     * @return this
     */
    public OffloadAssert toInternalUri(String uri) {
        isOffloaded();
        String redirect = actual.header(HeaderType.X_ACCEL_REDIRECT.headerName());
        if (!Objects.equals(uri, redirect)) {
            failWithMessage("Expecting X-Accel-Redirect <%s> but was <%s>: %s", uri, redirect, actual);
        }
        return this;
    }

    /**
     * Offloaded with {@code X-Sendfile} naming this file (Apache httpd, lighttpd).
     *
     * @param file the expected absolute path
     * @return this
     */
    public OffloadAssert toFile(Path file) {
        isOffloaded();
        if (actual.offloadHeader().isNginx() || !file.toString().equals(actual.offloadTarget())) {
            failWithMessage("Expecting X-Sendfile <%s> but the offload target was <%s>: %s", file,
                    actual.offloadTarget(), actual);
        }
        return this;
    }

    /**
     * The answer's disposition: {@code Content-Disposition: attachment}, or {@code inline} (also when the answer
     * has no {@code Content-Disposition}, which browsers read as inline).
     *
     * @param disposition the expected disposition
     * @return this
     */
    public OffloadAssert withDisposition(Disposition disposition) {
        isNotNull();
        String header = actual.header("Content-Disposition");
        String type = header == null ? Disposition.INLINE.token()
                : header.split(";", 2)[0].trim().toLowerCase(Locale.ROOT);
        if (!type.equals(disposition.token())) {
            failWithMessage("Expecting disposition <%s> but was <%s> (Content-Disposition: %s): %s",
                    disposition.token(), type, header, actual);
        }
        return this;
    }

    /**
     * The name the browser saves the file as: {@code filename*} (RFC 8187, decoded) or else {@code filename} of
     * {@code Content-Disposition}.
     *
     * @param name the expected name
     * @return this
     */
    public OffloadAssert withDownloadName(String name) {
        isNotNull();
        String actualName = downloadName(actual.header("Content-Disposition"));
        if (!Objects.equals(name, actualName)) {
            failWithMessage("Expecting download name <%s> but was <%s>: %s", name, actualName, actual);
        }
        return this;
    }

    /**
     * The media type of {@code Content-Type} (parameters such as {@code charset} not compared).
     *
     * @param type the expected media type, e.g. {@code audio/mpeg}
     * @return this
     */
    public OffloadAssert withContentType(String type) {
        isNotNull();
        String header = actual.header("Content-Type");
        String media = header == null ? null : header.split(";", 2)[0].trim();
        if (media == null || !media.equalsIgnoreCase(type)) {
            failWithMessage("Expecting Content-Type <%s> but was <%s>: %s", type, header, actual);
        }
        return this;
    }

    /**
     * nginx throttles the answer: {@code X-Accel-Limit-Rate}.
     *
     * @param bytesPerSecond the expected rate
     * @return this
     */
    public OffloadAssert withLimitRate(long bytesPerSecond) {
        return withHeader("X-Accel-Limit-Rate", Long.toString(bytesPerSecond));
    }

    /**
     * nginx's charset for the answer: {@code X-Accel-Charset}.
     *
     * @param charset the expected charset
     * @return this
     */
    public OffloadAssert withCharset(String charset) {
        return withHeader("X-Accel-Charset", charset);
    }

    /**
     * How long nginx may cache the decision: {@code X-Accel-Expires}.
     *
     * @param value the expected value, e.g. {@code 0}
     * @return this
     */
    public OffloadAssert withAccelExpires(String value) {
        return withHeader("X-Accel-Expires", value);
    }

    private OffloadAssert withHeader(String name, String value) {
        isNotNull();
        String header = actual.header(name);
        if (!Objects.equals(value, header)) {
            failWithMessage("Expecting %s <%s> but was <%s>: %s", name, value, header, actual);
        }
        return this;
    }

    /** {@code filename*=UTF-8''...} decoded, else {@code filename="..."}; {@code null} for none. */
    static String downloadName(String header) {
        if (header == null) {
            return null;
        }
        String plain = null;
        for (String part : header.split(";")) {
            String p = part.trim();
            int eq = p.indexOf('=');
            if (eq < 0) {
                continue;
            }
            String key = p.substring(0, eq).trim().toLowerCase(Locale.ROOT);
            String value = p.substring(eq + 1).trim();
            if (key.equals("filename*")) {
                int quote = value.indexOf("''");
                return URLDecoder.decode(value.substring(quote + 2).replace("+", "%2B"), StandardCharsets.UTF_8);
            }
            if (key.equals("filename")) {
                plain = value.startsWith("\"") && value.endsWith("\"") && value.length() >= 2
                        ? value.substring(1, value.length() - 1).replace("\\\"", "\"").replace("\\\\", "\\") : value;
            }
        }
        return plain;
    }
}
