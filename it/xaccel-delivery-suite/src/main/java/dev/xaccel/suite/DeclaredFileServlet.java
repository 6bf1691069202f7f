package dev.xaccel.suite;

import java.io.IOException;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.Map;

import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import dev.xaccel.filter.XAccel;
import dev.xaccel.filter.XAccelFile;
import dev.xaccel.testsupport.servlet.WarDeclared;

/**
 * The application's download servlet using the declared API. Like a careless application it resolves
 * the requested name naively ({@code root.resolve(name)}, no normalization, no checks), from the path
 * info ({@code /files/<path>}) or from a query parameter ({@code /files?path=<path>}): keeping the file
 * inside a location is the filter's job. Optional query parameters: {@code name} (download name),
 * {@code disposition} ({@code attachment}/{@code inline}), {@code type} (content type), {@code tag} (the receipt's
 * tag, {@link XAccelFile#tag}). It answers a POST (a form
 * that posts to download) as a GET.
 */
public final class DeclaredFileServlet extends HttpServlet implements WarDeclared {

    private static final long serialVersionUID = 1L;

    private transient Path root;

    public DeclaredFileServlet(Path root) {
        this.root = root;
    }

    /** For a server that makes it from web.xml: the root is the init-param {@code root}. */
    public DeclaredFileServlet() {
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
    protected void service(HttpServletRequest req, HttpServletResponse resp) throws IOException {
        if (!req.getMethod().equals("GET") && !req.getMethod().equals("HEAD") && !req.getMethod().equals("POST")) {
            resp.sendError(HttpServletResponse.SC_METHOD_NOT_ALLOWED);
            return;
        }
        String name = req.getPathInfo() != null ? req.getPathInfo().substring(1) : req.getParameter("path");
        if (name == null) {
            resp.sendError(HttpServletResponse.SC_NOT_FOUND);
            return;
        }
        Path file;
        try {
            file = root.resolve(name);
        } catch (InvalidPathException e) {
            resp.sendError(HttpServletResponse.SC_BAD_REQUEST);
            return;
        }
        XAccelFile declared = XAccelFile.of(file);
        if (req.getParameter("name") != null) {
            declared = declared.downloadName(req.getParameter("name"));
        }
        if ("attachment".equals(req.getParameter("disposition"))) {
            declared = declared.attachment();
        } else if ("inline".equals(req.getParameter("disposition"))) {
            declared = declared.inline();
        }
        if (req.getParameter("type") != null) {
            declared = declared.contentType(req.getParameter("type"));
        }
        if (req.getParameter("tag") != null) {
            declared = declared.tag(req.getParameter("tag"));
        }
        XAccel.sendFile(req, resp, declared);
    }
}
