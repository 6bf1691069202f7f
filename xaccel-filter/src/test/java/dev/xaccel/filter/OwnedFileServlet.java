package dev.xaccel.filter;

import jakarta.servlet.http.Cookie;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.file.Path;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Per-user authorization in declared mode: {@code /<owner>/<file>} below {@link #root} is readable only by
 * its owner (the user {@link UsersAuthFilter} found), unless revoked; others get 403. {@code ?cookie=1} sets
 * a cookie on the answer, {@code ?download=1} asks for an attachment. Missing files: 404 from the filter. With a
 * remote base, the same path names an object of that store instead ({@link XAccel#sendRemote}, a fixed query standing
 * in for a presigned one).
 */
final class OwnedFileServlet extends HttpServlet {

    private static final long serialVersionUID = 1L;
    private final transient Path root;
    private final URI remote;
    private final Set<String> revoked = ConcurrentHashMap.newKeySet();

    OwnedFileServlet(Path root) {
        this(root, null);
    }

    /** @param remote the store's bucket URL ending in {@code /}, or {@code null} for local files */
    OwnedFileServlet(Path root, URI remote) {
        this.root = root;
        this.remote = remote;
    }

    void revoke(String user) {
        revoked.add(user);
    }

    void restore(String user) {
        revoked.remove(user);
    }

    /**
     * The object's URL with its key encoded, as a presigner makes it: the key is the decoded path as it came, so a
     * {@code %}, space, {@code #} or {@code ?} in it is part of the name, never the URL's syntax.
     */
    private URI objectUrl(String key) {
        try {
            URI encoded = new URI(remote.getScheme(), remote.getRawAuthority(), remote.getPath() + key,
                    "X-Amz-Signature=boundary", null);
            return URI.create(encoded.toASCIIString());
        } catch (URISyntaxException e) {
            throw new IllegalArgumentException(e);
        }
    }

    @Override
    protected void doGet(HttpServletRequest req, HttpServletResponse resp) throws IOException {
        String user = (String) req.getAttribute(UsersAuthFilter.USER);
        String path = req.getPathInfo() == null ? "" : req.getPathInfo().substring(1);
        int slash = path.indexOf('/');
        String owner = slash > 0 ? path.substring(0, slash) : "";
        if (!owner.equals(user) || revoked.contains(user)) {
            resp.sendError(HttpServletResponse.SC_FORBIDDEN);
            return;
        }
        if (req.getParameter("cookie") != null) {
            resp.addCookie(new Cookie("seen", "1"));
        }
        if (remote != null) {
            XAccel.sendRemote(req, resp, XAccelRemote.of(objectUrl(path)));
            return;
        }
        XAccelFile file = XAccelFile.of(root.resolve(path));
        if (req.getParameter("download") != null) {
            file = file.attachment();
        }
        XAccel.sendFile(req, resp, file);
    }
}
