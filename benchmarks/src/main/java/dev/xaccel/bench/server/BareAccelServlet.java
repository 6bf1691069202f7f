package dev.xaccel.bench.server;

import java.io.IOException;

import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

/**
 * Setup {@code bare}: the floor of the offload round trip. No authentication, no filter, no file system call:
 * every request under {@code /bare/files/NAME} is answered 200 with an empty body and a fixed header
 * {@code X-Accel-Redirect: /_xaccel/media/NAME} — the internal location and file the filter names for the same
 * request in setup {@code xaccel} ({@link BenchServer#INTERNAL_PREFIX}), and the same Content-Type. A name other
 * than {@code [A-Za-z0-9._-]+} (the benchmark's data) gets 404, so that nothing but the data can be named.
 * {@code xaccel / bare} in the report is what the auth filter and XAccelFilter cost on top of the hop itself.
 * <p>
 * It answers only requests that carry {@value #GATE_HEADER} with the run's secret, which only the bare setup's
 * nginx server sets: the other servers proxy every context of the same Tomcat, and through them nobody without
 * the token may name a data file (BenchBoundaryIT). One header comparison, like the harness's own marker.
 */
public final class BareAccelServlet extends HttpServlet {

    /** The servlet's context. */
    public static final String CONTEXT = "/bare";
    /** The header the bare setup's nginx server sets to the run's secret. */
    public static final String GATE_HEADER = "X-Bench-Bare";

    private static final long serialVersionUID = 1L;

    private final String gate;

    /** @param gate the value {@value #GATE_HEADER} must have; {@code null}: every request gets 404 */
    BareAccelServlet(String gate) {
        this.gate = gate;
    }

    @Override
    protected void doGet(HttpServletRequest req, HttpServletResponse resp) throws IOException {
        String name = req.getPathInfo();
        if (gate == null || !gate.equals(req.getHeader(GATE_HEADER)) || name == null || !isPlainName(name)) {
            resp.sendError(HttpServletResponse.SC_NOT_FOUND);
            return;
        }
        resp.setStatus(HttpServletResponse.SC_OK);
        resp.setContentType("application/octet-stream");
        resp.setHeader("X-Accel-Redirect", BenchServer.INTERNAL_PREFIX + name.substring(1));
        resp.setContentLength(0);
    }

    /** {@code /NAME} with NAME of {@code [A-Za-z0-9._-]}, not starting with a dot. */
    static boolean isPlainName(String pathInfo) {
        if (pathInfo.length() < 2 || pathInfo.charAt(0) != '/' || pathInfo.charAt(1) == '.') {
            return false;
        }
        for (int i = 1; i < pathInfo.length(); i++) {
            char c = pathInfo.charAt(i);
            if (!(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '.' || c == '_'
                    || c == '-')) {
                return false;
            }
        }
        return true;
    }
}
