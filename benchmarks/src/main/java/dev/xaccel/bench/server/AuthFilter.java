package dev.xaccel.bench.server;

import java.io.IOException;
import java.security.Principal;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import jakarta.servlet.Filter;
import jakarta.servlet.FilterChain;
import jakarta.servlet.FilterConfig;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletRequest;
import jakarta.servlet.ServletResponse;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletRequestWrapper;
import jakarta.servlet.http.HttpServletResponse;

/**
 * The "auth hop" of every Tomcat setup, shaped like the sample application's auth filter: the bearer token of
 * {@code Authorization: Bearer <token>} is looked up in a token store, and an authenticated request continues
 * wrapped so that {@code getUserPrincipal()}/{@code getRemoteUser()} work downstream; anything else gets 401.
 * (Audiobookshelf, too, checks the user before it answers with X-Accel-Redirect.)
 */
public final class AuthFilter implements Filter {

    /** Init-param: the token the store knows (required); it belongs to the user {@value #USER}. */
    public static final String PARAM_TOKEN = "token";
    /**
     * Init-param: {@code true} (default) continues with the request wrapped, like the sample application and most
     * security filters; {@code false} passes Tomcat's own request object on. Tomcat's DefaultServlet uses sendfile
     * only for Tomcat's unwrapped request/response facades; the xaccel filter also behind request wrappers (it
     * sets the sendfile attributes on the container's own request), but not behind a wrapped response.
     */
    public static final String PARAM_WRAP = "wrap";
    /** The one user of the benchmark. */
    static final String USER = "bench";

    private static final String BEARER = "Bearer ";

    private final Map<String, Principal> tokens = new ConcurrentHashMap<>();
    private boolean wrap = true;

    @Override
    public void init(FilterConfig config) throws ServletException {
        String value = config.getInitParameter(PARAM_TOKEN);
        if (value == null || value.isEmpty()) {
            throw new ServletException("init-param [" + PARAM_TOKEN + "] is required");
        }
        tokens.put(value, () -> USER);
        String w = config.getInitParameter(PARAM_WRAP);
        if (w != null) {
            if (!w.equals("true") && !w.equals("false")) {
                throw new ServletException("init-param [" + PARAM_WRAP + "] must be true or false, got [" + w + "]");
            }
            wrap = Boolean.parseBoolean(w);
        }
    }

    @Override
    public void doFilter(ServletRequest request, ServletResponse response, FilterChain chain)
            throws IOException, ServletException {
        HttpServletRequest req = (HttpServletRequest) request;
        String authorization = req.getHeader("Authorization");
        Principal user = null;
        if (authorization != null && authorization.regionMatches(true, 0, BEARER, 0, BEARER.length())) {
            user = tokens.get(authorization.substring(BEARER.length()).trim());
        }
        if (user == null) {
            ((HttpServletResponse) response).sendError(HttpServletResponse.SC_UNAUTHORIZED);
            return;
        }
        chain.doFilter(wrap ? new Authenticated(req, user) : req, response);
    }

    private static final class Authenticated extends HttpServletRequestWrapper {
        private final Principal user;

        Authenticated(HttpServletRequest request, Principal user) {
            super(request);
            this.user = user;
        }

        @Override
        public Principal getUserPrincipal() {
            return user;
        }

        @Override
        public String getRemoteUser() {
            return user.getName();
        }
    }
}
