package dev.xaccel.testsupport.servlet;

import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;

/**
 * A test application's default servlet (mapped at {@code /}): nothing but the mapped servlets exists, and every
 * path still passes through the application's filters. Answers {@code 404 text/plain "not found\n"}.
 */
public final class NotFoundServlet extends HttpServlet {

    private static final long serialVersionUID = 1L;

    @Override
    protected void service(HttpServletRequest req, HttpServletResponse resp) throws IOException {
        resp.setStatus(HttpServletResponse.SC_NOT_FOUND);
        resp.setContentType("text/plain");
        resp.getWriter().write("not found\n");
    }
}
