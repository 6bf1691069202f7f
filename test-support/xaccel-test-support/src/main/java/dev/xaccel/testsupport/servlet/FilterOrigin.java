package dev.xaccel.testsupport.servlet;

import java.io.IOException;

import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

/**
 * Answers with the location the application's own class loader loads the XAccelFilter from (its code source), so
 * that a test sees which copy a server runs: a {@link DeployedWar}'s {@code WEB-INF/lib} or the tests' class path.
 */
public final class FilterOrigin extends HttpServlet {

    private static final long serialVersionUID = 1L;

    @Override
    protected void doGet(HttpServletRequest req, HttpServletResponse resp) throws IOException {
        Class<?> filter;
        try {
            filter = Class.forName(WebApp.XACCEL_FILTER_CLASS, false, getClass().getClassLoader());
        } catch (ClassNotFoundException e) {
            resp.sendError(HttpServletResponse.SC_NOT_FOUND);
            return;
        }
        resp.setContentType("text/plain;charset=UTF-8");
        resp.getWriter().print(filter.getProtectionDomain().getCodeSource().getLocation());
    }
}
