package dev.xaccel.test;

import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

import jakarta.servlet.http.HttpServletResponse;

import dev.xaccel.filter.HeaderType;

/**
 * What a test looks at in an answer of the filter: its status and headers (names compared without regard to
 * case), taken from a servlet response (a container's, Spring's {@code MockHttpServletResponse}) or from a JDK
 * {@link HttpResponse}. The body plays no part: an offloaded answer has none, and a directly served file is
 * the application's to compare.
 *
 * @param status  the status code
 * @param headers every header's values, keyed by lower-case name
 */
public record XAccelResponse(int status, Map<String, List<String>> headers) {

    /**
     * Copies the map, with lower-case names.
     *
     * @param status  the status code
     * @param headers every header's values, by name in any case
     */
    public XAccelResponse {
        Map<String, List<String>> copy = new TreeMap<>();
        headers.forEach((name, values) -> copy.computeIfAbsent(name.toLowerCase(Locale.ROOT), n -> new ArrayList<>())
                .addAll(values));
        headers = Collections.unmodifiableMap(copy);
    }

    /**
     * The status and headers of a servlet response, as they are now.
     *
     * @param response a container's response or a mock of it
     * @return its view
     */
    public static XAccelResponse of(HttpServletResponse response) {
        Map<String, List<String>> headers = new TreeMap<>();
        Collection<String> names = response.getHeaderNames();
        for (String name : names) {
            headers.put(name, new ArrayList<>(response.getHeaders(name)));
        }
        String type = response.getContentType();
        if (type != null && !headers.containsKey("Content-Type")) {
            headers.put("Content-Type", List.of(type));
        }
        return new XAccelResponse(response.getStatus(), headers);
    }

    /**
     * The status and headers of an answer a JDK {@code HttpClient} received.
     *
     * @param response the answer
     * @return its view
     */
    public static XAccelResponse of(HttpResponse<?> response) {
        return new XAccelResponse(response.statusCode(), response.headers().map());
    }

    /**
     * A header's first value.
     *
     * @param name the header's name, in any case
     * @return the value, or {@code null} when the answer has none
     */
    public String header(String name) {
        List<String> values = headers.get(name.toLowerCase(Locale.ROOT));
        return values == null || values.isEmpty() ? null : values.get(0);
    }

    /**
     * The offload header the answer carries: {@code X-Accel-Redirect} (nginx) or {@code X-Sendfile} (Apache
     * mod_xsendfile, lighttpd, Caddy).
     *
     * @return the header's type, or {@code null} for an answer that offloads nothing
     */
    @SuppressWarnings("removal")
    public HeaderType offloadHeader() {
        for (HeaderType type : HeaderType.values()) {
            if (header(type.headerName()) != null) {
                return type;
            }
        }
        return null;
    }

    /**
     * The offload header's value as the front end reads it: an nginx internal URI as sent, an {@code X-Sendfile}
     * path decoded from the raw UTF-8 bytes the header carries.
     *
     * @return the value, or {@code null} for an answer that offloads nothing
     */
    public String offloadTarget() {
        HeaderType type = offloadHeader();
        if (type == null) {
            return null;
        }
        String value = header(type.headerName());
        return type.isNginx() ? value
                : new String(value.getBytes(StandardCharsets.ISO_8859_1), StandardCharsets.UTF_8);
    }

    /**
     * For failure messages: the status and every header.
     *
     * @return {@code status 200, headers {...}}
     */
    @Override
    public String toString() {
        return "status " + status + ", headers " + headers;
    }
}
