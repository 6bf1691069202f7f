package dev.xaccel.filter;

import java.io.IOException;
import java.nio.file.Path;

import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

/**
 * Declared mode under test: {@code ?f=relative/name} inside {@link #root}; {@code status} makes it answer an
 * error instead (before or after declaring, {@code when=after}), {@code name} sets a download name,
 * {@code spoof} sets an X-Accel-Redirect itself, {@code body} writes text after declaring, {@code abs} declares
 * an absolute path, {@code validators} sets ETag/Last-Modified/Accept-Ranges/Content-Range before declaring,
 * {@code pre} writes body text before declaring; {@code rate}, {@code buffering} ({@code yes|no}), {@code charset}
 * and {@code expires} are the declaration's own nginx settings.
 */
final class DeclaringServlet extends HttpServlet {

    private static final long serialVersionUID = 1L;
    private final transient Path root;

    DeclaringServlet(Path root) {
        this.root = root;
    }

    @Override
    protected void doGet(HttpServletRequest req, HttpServletResponse resp) throws IOException {
        if (req.getParameter("spoof") != null) {
            resp.setHeader("X-Accel-Redirect", "/_xaccel/media/../../etc/passwd");
            resp.addHeader("X-Sendfile", "/etc/passwd");
        }
        String status = req.getParameter("status");
        boolean after = "after".equals(req.getParameter("when"));
        if (status != null && !after) {
            resp.sendError(Integer.parseInt(status));
            return;
        }
        if (req.getParameter("validators") != null) {
            resp.setHeader("ETag", "\"app\"");
            resp.setDateHeader("Last-Modified", 0);
            resp.setHeader("Accept-Ranges", "bytes");
            resp.setHeader("Content-Range", "bytes 0-0/1");
        }
        if (req.getParameter("pre") != null) {
            resp.setContentType("text/plain");
            resp.getWriter().write("written before the declaration");
        }
        Path file = req.getParameter("abs") != null ? Path.of(req.getParameter("abs"))
                : root.resolve(req.getParameter("f"));
        XAccelFile f = XAccelFile.of(file);
        if (req.getParameter("name") != null) {
            f = f.downloadName(req.getParameter("name"));
        }
        if (req.getParameter("attachment") != null) {
            f = f.attachment();
        }
        if (req.getParameter("type") != null) {
            f = f.contentType(req.getParameter("type"));
        }
        if (req.getParameter("rate") != null) {
            f = f.limitRate(Long.parseLong(req.getParameter("rate")));
        }
        if (req.getParameter("buffering") != null) {
            f = f.buffering("yes".equals(req.getParameter("buffering")));
        }
        if (req.getParameter("charset") != null) {
            f = f.charset(req.getParameter("charset"));
        }
        if (req.getParameter("expires") != null) {
            f = f.accelExpires(req.getParameter("expires"));
        }
        XAccel.sendFile(req, resp, f);
        if (req.getParameter("body") != null) {
            resp.setContentLength(999);
            resp.setHeader("ETag", "\"downstream\"");
            resp.getWriter().write("this must not reach the client");
            resp.flushBuffer();
        }
        if (status != null) {
            resp.setStatus(Integer.parseInt(status));
        }
    }
}
