package dev.xaccel.filter.internal.delivery;

import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

import jakarta.servlet.http.HttpServletResponse;

/**
 * Header surgery on a response that is not committed yet, portable to Servlet 6.0: there
 * {@code setHeader(name, null)} does not remove a header (it is a no-op on Tomcat 10.1), and
 * {@link HttpServletResponse#reset()} removes every header, also those outer filters set (Set-Cookie, HSTS, CSP,
 * CORS), which must survive.
 */
public final class ResponseHeaders {

    /**
     * Headers that describe a body: they belong to whatever answers the request, never to what was there before
     * (a file's headers, or a body downstream code started). Lower case.
     */
    public static final Set<String> BODY_HEADERS = Set.of("content-type", "content-length", "content-encoding",
            "transfer-encoding", "content-range", "content-disposition", "content-language", "content-location",
            "etag", "last-modified", "accept-ranges");

    private ResponseHeaders() {
    }

    /**
     * Removes every header named in {@code names} (case-insensitive). Tries {@code setHeader(name, null)} (Servlet
     * 6.1) first; when a header survives it (Servlet 6.0), resets the response and sets every other header again.
     */
    public static void remove(HttpServletResponse resp, List<String> names) {
        boolean survived = false;
        // indexed: no iterator on every request
        for (int i = 0; i < names.size(); i++) {
            String name = names.get(i);
            if (resp.containsHeader(name)) {
                resp.setHeader(name, null);
                survived |= resp.containsHeader(name);
            }
        }
        if (survived) {
            Set<String> drop = lowerCase(names);
            Map<String, List<String>> keep = snapshot(resp, drop);
            int status = resp.getStatus();
            resp.reset();
            resp.setStatus(status);
            restore(resp, keep);
        }
    }

    /**
     * {@link HttpServletResponse#reset()} (status, buffer, writer/stream choice, headers), then sets again every
     * header that does not describe a body ({@link #BODY_HEADERS}) or steer the front end (offload headers).
     */
    public static void resetKeepingOuterHeaders(HttpServletResponse resp) {
        Map<String, List<String>> keep = snapshot(resp, BODY_HEADERS);
        resp.reset();
        restore(resp, keep);
    }

    private static Map<String, List<String>> snapshot(HttpServletResponse resp, Set<String> dropLowerCase) {
        Map<String, List<String>> keep = new LinkedHashMap<>();
        for (String name : resp.getHeaderNames()) {
            String lower = name.toLowerCase(Locale.ROOT);
            if (!dropLowerCase.contains(lower) && !OffloadResponseWrapper.isOffloadHeader(name)
                    && !keep.containsKey(name)) {
                keep.put(name, new ArrayList<>(resp.getHeaders(name)));
            }
        }
        return keep;
    }

    private static void restore(HttpServletResponse resp, Map<String, List<String>> headers) {
        headers.forEach((name, values) -> values.forEach(v -> resp.addHeader(name, v)));
    }

    private static Set<String> lowerCase(Collection<String> names) {
        List<String> lower = new ArrayList<>(names.size());
        for (String n : names) {
            lower.add(n.toLowerCase(Locale.ROOT));
        }
        return Set.copyOf(lower);
    }
}
