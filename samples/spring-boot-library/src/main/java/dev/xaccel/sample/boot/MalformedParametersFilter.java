package dev.xaccel.sample.boot;

import java.io.IOException;
import java.util.Set;

import org.apache.tomcat.util.http.InvalidParameterException;
import org.springframework.web.filter.OncePerRequestFilter;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

/**
 * Answers a request whose parameters cannot be parsed (a form larger than the connector's {@code maxPostSize}, more
 * parameters than {@code maxParameterCount}, broken percent-encoding in the query or the form) with the container's
 * 4xx before Spring Security asks for them. Since Servlet 6.1 {@code getParameter} throws then; left to escape the
 * filter chain from the CSRF check, the exception was logged as an application ERROR with its whole stack trace, and
 * again by the error page's dispatch, for a request any client can send at will.
 *
 * <p>Only the methods whose parameters the CSRF check reads are parsed here (not GET, HEAD, TRACE, OPTIONS: a link
 * with a stray {@code %} in its query still gets its page or file, whose handlers ask for no parameter). The status
 * is set, not sent as an error: an error dispatch would run the security chain, and its CSRF check, on the same
 * unparsable request. Registered after the character encoding filter (the form is decoded once, with the
 * application's charset) and before Spring Security's.
 */
final class MalformedParametersFilter extends OncePerRequestFilter {

    private static final Set<String> NOT_CHECKED = Set.of("GET", "HEAD", "TRACE", "OPTIONS");

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        if (!NOT_CHECKED.contains(request.getMethod())) {
            try {
                request.getParameterMap();
            } catch (IllegalStateException e) {
                response.setStatus(statusOf(e));
                return;
            }
        }
        chain.doFilter(request, response);
    }

    /** Tomcat's status for the failure (400, or 413 for a form over the limit); 400 for any other container's. */
    static int statusOf(IllegalStateException e) {
        if (e instanceof InvalidParameterException invalid) {
            int code = invalid.getErrorCode();
            if (code >= 400 && code < 500) {
                return code;
            }
        }
        return HttpServletResponse.SC_BAD_REQUEST;
    }
}
