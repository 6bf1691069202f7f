package dev.xaccel.it.reliability;

import dev.xaccel.filter.SignedLinks;
import dev.xaccel.filter.XAccel;
import dev.xaccel.testsupport.servlet.BearerAuthFilter;
import dev.xaccel.testsupport.servlet.SuiteApp;
import dev.xaccel.testsupport.servlet.WebApp;
import dev.xaccel.testsupport.tomcat.EmbeddedTomcat;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.CountDownLatch;

/**
 * One application node, in a JVM of its own ({@link dev.xaccel.testsupport.tomcat.ForkedTomcat}): an embedded
 * Tomcat on {@code --port} with the suites' application ({@link SuiteApp}: {@link BearerAuthFilter} first, then the
 * XAccelFilter, {@code /library/} mapped to {@code --root}), {@code GET /node} answering {@code node-<id>} (a small
 * answer of the application itself) and {@code GET /sign/<path>} answering a signed link to that file when a
 * {@code --secret} is given. Every node started with the same root and secret is interchangeable, as behind one
 * nginx {@code upstream}. Runs until killed (SIGTERM stops Tomcat).
 * <pre>
 * --port P --root DIR --id N [--secret S] [--limit-rate BYTES_PER_S] [--expires SECONDS]
 * </pre>
 */
public final class Node {

    /** The signed-link prefix of docs/nginx/xaccel-signed-links.conf.template. */
    static final String SIGNED_PREFIX = "/s/media/";

    private Node() {
    }

    public static void main(String[] args) throws Exception {
        Map<String, String> opts = new LinkedHashMap<>();
        for (int i = 0; i + 1 < args.length; i += 2) {
            opts.put(args[i].replaceFirst("^--", ""), args[i + 1]);
        }
        WebApp app = app(Path.of(opts.get("root")).toRealPath(), opts);
        EmbeddedTomcat tomcat = EmbeddedTomcat.builder(Path.of(System.getProperty("basedir", "."), "tomcat"))
                .port(Integer.parseInt(opts.get("port"))).webapp(app).start();
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            tomcat.close();
            stopped.countDown();
        }, "node-stop"));
        System.out.println("node " + opts.get("id") + " listening on " + tomcat.port());
        stopped.await();
    }

    /**
     * The node's application: the options as on the command line without dashes ({@code id}, {@code secret},
     * {@code limit-rate}, {@code expires}); also deployed in the test's own JVM where nothing is killed.
     */
    static WebApp app(Path root, Map<String, String> opts) {
        String id = opts.getOrDefault("id", "1");
        return SuiteApp.app(new BearerAuthFilter()).xaccelFilter(filterParams(root, opts))
                .servlet("/node", new WhoServlet("node-" + id + "\n"))
                .servlet("/sign/*", new SignServlet());
    }

    /** The XAccelFilter's init-params of a node. */
    static Map<String, String> filterParams(Path root, Map<String, String> opts) {
        Map<String, String> params = new LinkedHashMap<>();
        params.put("locations", root + "/ => " + SuiteApp.INTERNAL_PREFIX
                + (opts.containsKey("expires") ? " expires=" + opts.get("expires") : ""));
        params.put("mappings", SuiteApp.MAPPED_PREFIX + " => " + root);
        if (opts.containsKey("secret")) {
            params.put("signedLinkSecret", opts.get("secret"));
            params.put("signedLinkPrefix", SIGNED_PREFIX);
        }
        if (opts.containsKey("limit-rate")) {
            params.put("limitRate", opts.get("limit-rate"));
        }
        return params;
    }

    /** {@code GET /node}: which node answered. */
    static final class WhoServlet extends HttpServlet {
        private static final long serialVersionUID = 1L;
        private final String text;

        WhoServlet(String text) {
            this.text = text;
        }

        @Override
        protected void doGet(HttpServletRequest req, HttpServletResponse resp) throws IOException {
            resp.setContentType("text/plain");
            byte[] body = text.getBytes(StandardCharsets.US_ASCII);
            resp.setContentLength(body.length);
            resp.getOutputStream().write(body);
        }
    }

    /** {@code GET /sign/<path>}: a signed link to {@code <path>} below the root, issued by this node. */
    static final class SignServlet extends HttpServlet {
        private static final long serialVersionUID = 1L;

        @Override
        protected void doGet(HttpServletRequest req, HttpServletResponse resp) throws IOException {
            SignedLinks links = XAccel.signedLinks(req.getServletContext());
            if (links == null || req.getPathInfo() == null) {
                resp.sendError(404);
                return;
            }
            resp.setContentType("text/plain");
            resp.getWriter().write(links.sign(req.getPathInfo().substring(1)));
        }
    }
}
