package dev.xaccel.testsupport.servlet;

import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.nio.charset.StandardCharsets;

/**
 * Test-only backend that emits X-Accel-Redirect by itself, without the filter, so the tests can
 * re-verify the nginx behaviour the filter relies on. Query parameters (decoded once by Tomcat):
 * <ul>
 * <li>{@code r}: the X-Accel-Redirect value, sent as is (chars &lt; 256 as single bytes); {@code h}: another
 * header name for it ({@code X-Sendfile}, ...); {@code s}: another status than 200;</li>
 * <li>{@code ct}: Content-Type; {@code ar}: an Accept-Ranges value; {@code validators=1}: ETag and
 * Last-Modified; {@code date}: the {@code Date} header, seconds since the epoch (the container's own
 * otherwise);</li>
 * <li>{@code body}: {@code empty} (Content-Length: 0, the default), {@code text} (a non-empty body with
 * length) or {@code chunked} (a non-empty chunked body).</li>
 * </ul>
 */
public final class RawAccelServlet extends HttpServlet {

    private static final long serialVersionUID = 1L;

    @Override
    protected void service(HttpServletRequest req, HttpServletResponse resp) throws IOException {
        String redirect = req.getParameter("r");
        if (redirect != null) {
            String name = req.getParameter("h");
            resp.setHeader(name == null ? "X-Accel-Redirect" : name, redirect);
        }
        if (req.getParameter("s") != null) {
            resp.setStatus(Integer.parseInt(req.getParameter("s")));
        }
        if (req.getParameter("ct") != null) {
            resp.setContentType(req.getParameter("ct"));
        }
        if (req.getParameter("ar") != null) {
            resp.setHeader("Accept-Ranges", req.getParameter("ar"));
        }
        if (req.getParameter("date") != null) {
            resp.setDateHeader("Date", Long.parseLong(req.getParameter("date")) * 1000);
        }
        if ("1".equals(req.getParameter("validators"))) {
            resp.setHeader("ETag", "\"backend-etag\"");
            resp.setDateHeader("Last-Modified", 0L);
        }
        String body = req.getParameter("body");
        if (body == null || body.equals("empty")) {
            resp.setContentLength(0);
        } else if (body.equals("text")) {
            byte[] text = "backend body\n".getBytes(StandardCharsets.US_ASCII);
            resp.setContentLength(text.length);
            resp.getOutputStream().write(text);
        } else {
            resp.getOutputStream().write("backend body\n".getBytes(StandardCharsets.US_ASCII));
            resp.flushBuffer();
            resp.getOutputStream().write("more\n".getBytes(StandardCharsets.US_ASCII));
        }
    }
}
