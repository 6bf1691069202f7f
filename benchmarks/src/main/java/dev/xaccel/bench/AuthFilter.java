package dev.xaccel.bench;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;

import jakarta.servlet.Filter;
import jakarta.servlet.FilterChain;
import jakarta.servlet.FilterConfig;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletRequest;
import jakarta.servlet.ServletResponse;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

/**
 * The "auth hop" of every Tomcat setup: a bearer-token check in front of the file, like an application's own
 * authorization (Audiobookshelf checks the user before it answers with X-Accel-Redirect).
 * Accepts {@code Authorization: Bearer <token>} or {@code ?token=<token>}; anything else gets 401.
 */
public final class AuthFilter implements Filter {

    /** Init-param: the expected token (required). */
    public static final String PARAM_TOKEN = "token";

    private static final String BEARER = "Bearer ";

    private byte[] token;

    @Override
    public void init(FilterConfig config) throws ServletException {
        String value = config.getInitParameter(PARAM_TOKEN);
        if (value == null || value.isEmpty()) {
            throw new ServletException("init-param [" + PARAM_TOKEN + "] is required");
        }
        token = value.getBytes(StandardCharsets.UTF_8);
    }

    @Override
    public void doFilter(ServletRequest request, ServletResponse response, FilterChain chain)
            throws IOException, ServletException {
        HttpServletRequest req = (HttpServletRequest) request;
        String presented = null;
        String authorization = req.getHeader("Authorization");
        if (authorization != null && authorization.regionMatches(true, 0, BEARER, 0, BEARER.length())) {
            presented = authorization.substring(BEARER.length()).trim();
        } else if (req.getQueryString() != null) {
            presented = req.getParameter(PARAM_TOKEN);
        }
        if (presented != null && MessageDigest.isEqual(token, presented.getBytes(StandardCharsets.UTF_8))) {
            chain.doFilter(request, response);
        } else {
            ((HttpServletResponse) response).sendError(HttpServletResponse.SC_UNAUTHORIZED);
        }
    }
}
