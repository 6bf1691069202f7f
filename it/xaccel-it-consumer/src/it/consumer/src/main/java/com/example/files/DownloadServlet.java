package com.example.files;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import dev.xaccel.filter.XAccel;
import dev.xaccel.filter.XAccelFile;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

/** {@code GET /download/<name>}: the file {@code name} of the data root, as an attachment. */
public class DownloadServlet extends HttpServlet {

    private Path root;

    @Override
    public void init() throws ServletException {
        String dir = System.getenv("MEDIA_ROOT");
        if (dir == null || dir.isEmpty()) {
            throw new ServletException("MEDIA_ROOT is not set");
        }
        root = Path.of(dir);
    }

    @Override
    protected void doGet(HttpServletRequest req, HttpServletResponse resp) throws IOException {
        String name = req.getPathInfo() == null ? "" : req.getPathInfo().substring(1);
        // one plain name of the root, nothing else (your application decides which files a user may have)
        if (name.isEmpty() || name.contains("/") || name.startsWith(".")
                || !Files.isRegularFile(root.resolve(name))) {
            resp.sendError(HttpServletResponse.SC_NOT_FOUND);
            return;
        }
        XAccel.sendFile(req, resp, XAccelFile.of(root.resolve(name)).attachment());
    }
}
