package dev.xaccel.filter;

import java.io.IOException;
import java.net.URI;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

/**
 * The application of the remote tests, behind the auth filter: {@code /objects/<id>} presigns a GET for the key
 * registered under {@code id} (a fresh URL per request, valid {@value #TTL_SECONDS} seconds) and declares it with
 * {@link XAccel#sendRemote}; an id registered with a fixed URL declares that URL as it is (an expired one, another
 * origin). {@code ?download=1} asks for an attachment, {@code ?tag=} tags the declaration. Unknown ids: 404 from
 * the application.
 */
final class PresigningServlet extends HttpServlet {

    private static final long serialVersionUID = 1L;
    static final int TTL_SECONDS = 10;

    private final transient S3Store store;
    private final Map<String, String> keys = new ConcurrentHashMap<>();
    private final Map<String, URI> fixed = new ConcurrentHashMap<>();

    PresigningServlet(S3Store store) {
        this.store = store;
    }

    /** {@code /objects/<id>} presigns {@code key}. */
    void key(String id, String key) {
        keys.put(id, key);
    }

    /** {@code /objects/<id>} declares {@code url} unchanged. */
    void fixed(String id, URI url) {
        fixed.put(id, url);
    }

    @Override
    protected void doGet(HttpServletRequest req, HttpServletResponse resp) throws IOException {
        String id = req.getPathInfo() == null ? "" : req.getPathInfo().substring(1);
        URI url = fixed.get(id);
        if (url == null && keys.containsKey(id)) {
            url = store.presignGet(keys.get(id), Duration.ofSeconds(TTL_SECONDS));
        }
        if (url == null) {
            resp.sendError(HttpServletResponse.SC_NOT_FOUND);
            return;
        }
        XAccelRemote remote = XAccelRemote.of(url);
        if (req.getParameter("download") != null) {
            remote = remote.attachment();
        }
        if (req.getParameter("tag") != null) {
            remote = remote.tag(req.getParameter("tag"));
        }
        XAccel.sendRemote(req, resp, remote);
    }
}
