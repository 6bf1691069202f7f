package dev.xaccel.bench.server;

import java.io.IOException;
import java.net.URI;
import java.net.URISyntaxException;
import java.time.Duration;

import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import dev.xaccel.filter.XAccel;
import dev.xaccel.filter.XAccelRemote;
import software.amazon.awssdk.services.s3.presigner.S3Presigner;

/**
 * The application of the remote setups (BenchServer's {@code /remote/files/*}, behind the auth filter): for
 * {@code /remote/files/NAME} it presigns a GET of the store's object {@code NAME}, valid {@value #TTL_SECONDS}
 * seconds (a fresh one per request, as docs/remote.md recommends), and declares it with
 * {@link XAccel#sendRemote}: behind nginx the filter answers {@code X-Accel-Redirect: /_xaccel/remote/…}
 * (setup remote-offload), for a client talking to Tomcat it streams the object itself (remote-direct).
 */
final class RemoteServlet extends HttpServlet {

    private static final long serialVersionUID = 1L;
    static final int TTL_SECONDS = 10;

    private final transient S3Presigner presigner;

    RemoteServlet(String endpoint, String secret) {
        this.presigner = StoreAccount.presigner(endpoint, secret);
    }

    @Override
    protected void doGet(HttpServletRequest req, HttpServletResponse resp) throws IOException {
        String name = req.getPathInfo() == null ? "" : req.getPathInfo().substring(1);
        if (name.isEmpty() || name.contains("/")) {
            resp.sendError(HttpServletResponse.SC_NOT_FOUND);
            return;
        }
        URI url;
        try {
            url = presigner.presignGetObject(b -> b.signatureDuration(Duration.ofSeconds(TTL_SECONDS))
                    .getObjectRequest(o -> o.bucket(StoreAccount.BUCKET).key(name))).url().toURI();
        } catch (URISyntaxException e) {
            throw new IOException(e);
        }
        XAccel.sendRemote(req, resp, XAccelRemote.of(url));
    }

    @Override
    public void destroy() {
        presigner.close();
    }
}
