package dev.xaccel.suite;

import dev.xaccel.filter.XAccel;
import dev.xaccel.filter.XAccelFile;
import dev.xaccel.testsupport.servlet.WarDeclared;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Map;

/**
 * Sets stale validators, a range, an encoding and a header of its own, then declares the file its path info
 * names ({@code /stale/<name>}): the filter must remove what describes another body (on Servlet 6.0
 * {@code setHeader(name, null)} removes nothing) and keep the rest. Sends the context's Servlet version as
 * {@code X-Servlet-Version}.
 */
public final class StaleHeadersServlet extends HttpServlet implements WarDeclared {

    private static final long serialVersionUID = 1L;

    private transient Path root;

    public StaleHeadersServlet(Path root) {
        this.root = root;
    }

    /** For a server that makes it from web.xml: the root is the init-param {@code root}. */
    public StaleHeadersServlet() {
    }

    @Override
    public Map<String, String> warParams(Path dir) {
        return Map.of("root", root.toString());
    }

    @Override
    public void init() {
        if (root == null) {
            root = Path.of(getInitParameter("root"));
        }
    }

    @Override
    protected void doGet(HttpServletRequest req, HttpServletResponse resp) throws IOException {
        resp.setHeader("X-Servlet-Version",
                getServletContext().getMajorVersion() + "." + getServletContext().getMinorVersion());
        resp.setHeader("ETag", "\"stale\"");
        resp.setDateHeader("Last-Modified", 0);
        resp.setHeader("Content-Range", "bytes 0-0/1");
        resp.setHeader("Accept-Ranges", "none");
        resp.setHeader("Content-Encoding", "gzip");
        resp.setHeader("X-Outer", "kept");
        XAccel.sendFile(req, resp, XAccelFile.of(root.resolve(req.getPathInfo().substring(1))));
    }
}
