package dev.xaccel.filter;

import jakarta.servlet.Filter;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletRequest;
import jakarta.servlet.ServletResponse;
import jakarta.servlet.http.Cookie;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Stands in for an application with two users and the three kinds of credentials a real one accepts:
 * {@code Authorization: Bearer <user>-token}, the session cookie {@code JSESSIONID=<user>-session} and a
 * remember-me cookie {@code remember_me=<user>-remember}. Without a known credential: 401, unless the path is
 * public (optional prefixes, like a site's static assets). The user name
 * goes to the request attribute {@value #USER}. Counts every request that reaches the application.
 */
final class UsersAuthFilter implements Filter {

    static final String USER = "test.user";
    static final String ALICE_BEARER = "Bearer alice-token";
    static final String BOB_BEARER = "Bearer bob-token";
    static final String ALICE_SESSION = "alice-session";
    static final String BOB_REMEMBER = "bob-remember";

    private static final Map<String, String> BEARERS = Map.of(ALICE_BEARER, "alice", BOB_BEARER, "bob");
    private static final Map<String, String> SESSIONS = Map.of(ALICE_SESSION, "alice", "bob-session", "bob");
    private static final Map<String, String> REMEMBER = Map.of("alice-remember", "alice", BOB_REMEMBER, "bob");

    private final List<String> publicPrefixes;
    private final AtomicInteger requests = new AtomicInteger();
    private final List<Integer> remotePorts = new CopyOnWriteArrayList<>();

    /** Every request needs a credential. */
    UsersAuthFilter() {
        this(List.of());
    }

    /** Requests whose path within the application starts with one of {@code publicPrefixes} need none. */
    UsersAuthFilter(List<String> publicPrefixes) {
        this.publicPrefixes = List.copyOf(publicPrefixes);
    }

    @Override
    public void doFilter(ServletRequest request, ServletResponse response, FilterChain chain)
            throws IOException, ServletException {
        HttpServletRequest req = (HttpServletRequest) request;
        HttpServletResponse resp = (HttpServletResponse) response;
        requests.incrementAndGet();
        remotePorts.add(req.getRemotePort());
        String user = user(req);
        if (user == null && isPublic(req)) {
            chain.doFilter(request, response);
            return;
        }
        if (user == null) {
            resp.setStatus(HttpServletResponse.SC_UNAUTHORIZED);
            resp.setHeader("WWW-Authenticate", "Bearer realm=\"xaccel-test\"");
            resp.setContentType("text/plain");
            resp.getWriter().write("unauthorized\n");
            return;
        }
        req.setAttribute(USER, user);
        chain.doFilter(request, response);
    }

    private boolean isPublic(HttpServletRequest req) {
        String path = XAccelFilter.pathInApplication(req);
        for (String p : publicPrefixes) {
            if (path.startsWith(p)) {
                return true;
            }
        }
        return false;
    }

    private static String user(HttpServletRequest req) {
        String auth = req.getHeader("Authorization");
        if (auth != null) {
            return BEARERS.get(auth);
        }
        Cookie[] cookies = req.getCookies();
        if (cookies != null) {
            for (Cookie c : cookies) {
                String u = c.getName().equals("JSESSIONID") ? SESSIONS.get(c.getValue())
                        : c.getName().equals("remember_me") ? REMEMBER.get(c.getValue()) : null;
                if (u != null) {
                    return u;
                }
            }
        }
        return null;
    }

    /** Requests that reached the application so far. */
    int requests() {
        return requests.get();
    }

    /** Remote port of every request so far: one value per upstream connection. */
    List<Integer> remotePorts() {
        return List.copyOf(remotePorts);
    }
}
