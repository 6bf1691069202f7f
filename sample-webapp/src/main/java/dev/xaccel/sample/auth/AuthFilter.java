package dev.xaccel.sample.auth;

import jakarta.servlet.Filter;
import jakarta.servlet.FilterChain;
import jakarta.servlet.FilterConfig;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletRequest;
import jakarta.servlet.ServletResponse;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletRequestWrapper;
import jakarta.servlet.http.HttpServletResponse;
import jakarta.servlet.http.HttpSession;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.security.Principal;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Authentication in front of the xaccel filter (declare it FIRST in web.xml). A request is let through when
 * it carries {@code Authorization: Bearer <token>} issued by {@code POST /api/login}, or a session whose
 * user was set at login; or when its path is public (the page and its assets, the login, the podcast feeds,
 * which check their own feed token). Anything else
 * gets {@code 401} with a short JSON body, so no byte of a file is ever sent unauthenticated.
 *
 * <p>Authenticated requests are wrapped so that {@code getUserPrincipal()}, {@code getRemoteUser()} and
 * {@code isUserInRole("admin")} work downstream (Jersey's SecurityContext uses them).
 */
public final class AuthFilter implements Filter {

    /**
     * Init-param: public paths within the application, separated by commas; an entry ending with {@code /}
     * is a prefix. Default {@value #DEFAULT_PUBLIC_PATHS} ({@code /feeds/}: a podcast feed checks the feed token
     * of its URL itself, since a podcast client can neither log in nor send a header).
     */
    public static final String PARAM_PUBLIC_PATHS = "publicPaths";
    public static final String DEFAULT_PUBLIC_PATHS = "/, /index.html, /assets/, /api/login, /feeds/";
    /** Session attribute holding the logged-in {@link Users.User}. */
    public static final String SESSION_USER = "dev.xaccel.sample.user";
    /** Request attribute holding the bearer token of this request, if it used one. */
    public static final String REQUEST_TOKEN = "dev.xaccel.sample.token";
    public static final String ROLE_ADMIN = "admin";
    public static final String REALM = "xaccel-sample";

    private static final Logger LOG = Logger.getLogger(AuthFilter.class.getName());
    private static final byte[] UNAUTHORIZED_BODY =
            "{\"error\":\"unauthorized\",\"message\":\"log in first\"}\n".getBytes(StandardCharsets.UTF_8);

    private final List<String> exact = new ArrayList<>();
    private final List<String> prefixes = new ArrayList<>();
    private TokenStore tokens;

    @Override
    public void init(FilterConfig config) throws ServletException {
        String spec = config.getInitParameter(PARAM_PUBLIC_PATHS);
        for (String p : (spec == null ? DEFAULT_PUBLIC_PATHS : spec).split("[,\\s]+")) {
            if (p.isEmpty()) {
                continue;
            }
            if (!p.startsWith("/")) {
                throw new ServletException(Messages.get("auth.badPublicPath", PARAM_PUBLIC_PATHS, p));
            }
            if (p.endsWith("/") && p.length() > 1) {
                prefixes.add(p);
            } else {
                exact.add(p);
            }
        }
        tokens = (TokenStore) config.getServletContext().getAttribute(TokenStore.class.getName());
        if (tokens == null) {
            throw new ServletException(Messages.get("auth.noTokens"));
        }
    }

    @Override
    public void doFilter(ServletRequest request, ServletResponse response, FilterChain chain)
            throws IOException, ServletException {
        HttpServletRequest req = (HttpServletRequest) request;
        HttpServletResponse resp = (HttpServletResponse) response;
        String path = path(req);
        Optional<Users.User> user = user(req);
        if (user.isPresent()) {
            chain.doFilter(new AuthenticatedRequest(req, user.get()), resp);
        } else if (isPublic(path)) {
            chain.doFilter(req, resp);
        } else {
            if (LOG.isLoggable(Level.FINE)) {
                LOG.fine(Messages.get("auth.rejected", req.getMethod(), path));
            }
            unauthorized(resp, bearer(req) != null);
        }
    }

    boolean isPublic(String path) {
        if (exact.contains(path)) {
            return true;
        }
        for (String p : prefixes) {
            if (path.startsWith(p)) {
                return true;
            }
        }
        return false;
    }

    private Optional<Users.User> user(HttpServletRequest req) {
        String token = bearer(req);
        if (token != null) {
            Optional<Users.User> u = tokens.lookup(token);
            u.ifPresent(x -> req.setAttribute(REQUEST_TOKEN, token));
            return u;
        }
        HttpSession session = req.getSession(false);
        if (session != null && session.getAttribute(SESSION_USER) instanceof Users.User u) {
            return Optional.of(u);
        }
        return Optional.empty();
    }

    /** The bearer token of the request, or null. */
    static String bearer(HttpServletRequest req) {
        String h = req.getHeader("Authorization");
        if (h == null || h.length() < 7 || !h.substring(0, 7).toLowerCase(Locale.ROOT).equals("bearer ")) {
            return null;
        }
        String t = h.substring(7).trim();
        return t.isEmpty() ? null : t;
    }

    private static String path(HttpServletRequest req) {
        String sp = req.getServletPath();
        String pi = req.getPathInfo();
        String p = (sp == null ? "" : sp) + (pi == null ? "" : pi);
        return p.isEmpty() ? "/" : p;
    }

    static void unauthorized(HttpServletResponse resp, boolean badToken) throws IOException {
        resp.resetBuffer();
        resp.setStatus(HttpServletResponse.SC_UNAUTHORIZED);
        resp.setHeader("WWW-Authenticate", "Bearer realm=\"" + REALM + "\""
                + (badToken ? ", error=\"invalid_token\"" : ""));
        resp.setHeader("Cache-Control", "no-store");
        resp.setContentType("application/json");
        resp.setCharacterEncoding("UTF-8");
        resp.setContentLength(UNAUTHORIZED_BODY.length);
        resp.getOutputStream().write(UNAUTHORIZED_BODY);
    }

    /** The request as seen downstream once authenticated. */
    private static final class AuthenticatedRequest extends HttpServletRequestWrapper {
        private final Users.User user;

        AuthenticatedRequest(HttpServletRequest req, Users.User user) {
            super(req);
            this.user = user;
        }

        @Override
        public Principal getUserPrincipal() {
            return user;
        }

        @Override
        public String getRemoteUser() {
            return user.name();
        }

        @Override
        public boolean isUserInRole(String role) {
            return ROLE_ADMIN.equals(role) ? user.admin() : "user".equals(role);
        }

        @Override
        public String getAuthType() {
            return getAttribute(REQUEST_TOKEN) != null ? "BEARER" : "FORM";
        }
    }
}
