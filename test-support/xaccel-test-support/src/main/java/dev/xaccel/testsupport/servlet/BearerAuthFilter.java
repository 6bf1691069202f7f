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
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * Stands in for the application's own authorization, mapped before the XAccelFilter: without
 * {@code Authorization: Bearer test-token} the request ends here with 401. It also records the remote
 * port of each authorized request, which identifies the TCP connection nginx used.
 */
public final class BearerAuthFilter implements Filter {

    public static final String TOKEN = "test-token";
    public static final String AUTHORIZATION = "Bearer " + TOKEN;

    private final List<Integer> remotePorts = new CopyOnWriteArrayList<>();

    @Override
    public void doFilter(ServletRequest request, ServletResponse response, FilterChain chain)
            throws IOException, ServletException {
        HttpServletRequest req = (HttpServletRequest) request;
        HttpServletResponse resp = (HttpServletResponse) response;
        if (!AUTHORIZATION.equals(req.getHeader("Authorization"))) {
            resp.setStatus(HttpServletResponse.SC_UNAUTHORIZED);
            resp.setHeader("WWW-Authenticate", "Bearer realm=\"xaccel-test\"");
            resp.setContentType("text/plain");
            resp.getWriter().write("unauthorized\n");
            return;
        }
        remotePorts.add(req.getRemotePort());
        chain.doFilter(request, response);
    }

    public List<Integer> remotePorts() {
        return List.copyOf(remotePorts);
    }
}
