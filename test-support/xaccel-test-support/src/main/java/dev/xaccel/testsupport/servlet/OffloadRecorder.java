package dev.xaccel.testsupport.servlet;

import jakarta.servlet.Filter;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletRequest;
import jakarta.servlet.ServletResponse;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The application's side of "who sent the bytes", the same for every front end and container: mapped first, it
 * records for each request with an {@code X-Request-Id} how the application answered it, and what the front end
 * sent in. An answer 200 with an offload header ({@code X-Accel-Redirect}, {@code X-Sendfile}) was offloaded, so
 * the bytes the client got came from the front end. The answers of every recorder of this JVM (the suites run
 * their containers embedded) are kept in one table by request id ({@link #answer}), which the front ends that
 * cannot log the application's answer read ({@code RunningFrontEnd}).
 */
public final class OffloadRecorder implements Filter {

    /** The response headers that hand a file to a front end. */
    public static final List<String> OFFLOAD_HEADERS = List.of("X-Accel-Redirect", "X-Sendfile",
            "X-LIGHTTPD-send-file");

    /**
     * One answer.
     *
     * @param status         the status the application answered
     * @param offloadHeader  the offload header's name, or {@code null} when the application sent the file itself
     * @param offloadValue   its value (one char per byte)
     * @param contentLength  the application's {@code Content-Length}, or {@code null}
     * @param requestHeaders the request headers the front end sent, first value of each (names lower case)
     * @param remoteAddr     the peer address the application saw
     */
    public record Answer(int status, String offloadHeader, String offloadValue, String contentLength,
            Map<String, String> requestHeaders, String remoteAddr) {

        /** An offload: a 200 with an offload header (whose body the filter leaves empty). */
        public boolean offloaded() {
            return offloadHeader != null && status == 200;
        }
    }

    /** Every recorder's answers: request ids are unique per run (suite name and a counter). */
    private static final Map<String, Answer> ANSWERS = new ConcurrentHashMap<>();
    /** The ids of the requests that entered a recorder of this JVM, added before the chain runs. */
    private static final Set<String> REACHED = ConcurrentHashMap.newKeySet();

    @Override
    public void doFilter(ServletRequest request, ServletResponse response, FilterChain chain)
            throws IOException, ServletException {
        HttpServletRequest req = (HttpServletRequest) request;
        HttpServletResponse resp = (HttpServletResponse) response;
        String reached = req.getHeader("X-Request-Id");
        if (reached != null) {
            REACHED.add(reached);
        }
        try {
            chain.doFilter(request, response);
        } finally {
            String id = req.getHeader("X-Request-Id");
            if (id != null) {
                String name = null;
                for (String h : OFFLOAD_HEADERS) {
                    if (resp.getHeader(h) != null) {
                        name = h;
                    }
                }
                Map<String, String> headers = new java.util.TreeMap<>();
                for (String h : java.util.Collections.list(req.getHeaderNames())) {
                    headers.put(h.toLowerCase(java.util.Locale.ROOT), req.getHeader(h));
                }
                ANSWERS.put(id, new Answer(resp.getStatus(), name, name == null ? null : resp.getHeader(name),
                        resp.getHeader("Content-Length"), headers, req.getRemoteAddr()));
            }
        }
    }

    /**
     * How the application answered the request that sent {@code X-Request-Id: requestId}, recorded when its thread
     * left the filters (which can be just after the client read the response).
     */
    public static Optional<Answer> answer(String requestId) {
        return Optional.ofNullable(ANSWERS.get(requestId));
    }

    /**
     * Whether the request that sent {@code X-Request-Id: requestId} entered the application (its first filter, a
     * recorder): recorded before any response byte, so a false after the response means the container answered
     * it itself.
     */
    public static boolean reached(String requestId) {
        return REACHED.contains(requestId);
    }
}
