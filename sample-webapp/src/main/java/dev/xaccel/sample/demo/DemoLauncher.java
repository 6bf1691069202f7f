package dev.xaccel.sample.demo;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.catalina.Context;
import org.apache.catalina.Lifecycle;
import org.apache.catalina.LifecycleException;
import org.apache.catalina.Wrapper;
import org.apache.catalina.connector.Connector;
import org.apache.catalina.startup.Tomcat;
import org.apache.catalina.valves.ErrorReportValve;

/**
 * Runs the sample WAR in an embedded Tomcat on 127.0.0.1 with the accept-filter connector
 * ({@code dev.xaccel.tomcat.AcceptFilterHttp11NioProtocol}, {@code acceptFilter="httpready"}). Used by
 * {@code ./demo}; not part of the WAR (it needs Tomcat's classes, which a WAR must not bundle).
 *
 * <pre>
 * java -cp target/classes:$(cat target/demo-classpath.txt) dev.xaccel.sample.demo.DemoLauncher \
 *      --war target/sample-webapp.war --port 8081 --base target/demo-tomcat [--context /]
 *      [--store-classpath CP --store-dir DIR --store-port N --store-library DIR]
 * </pre>
 * With the {@code --store-*} options and {@code XACCEL_LIBRARY=s3://bucket/prefix} ({@code ./demo} sets them), it
 * first generates the demo library into {@code --store-library} and starts the demo's S3 store ({@link DemoStore},
 * a child JVM, credentials {@code XACCEL_S3_ACCESS_KEY}/{@code XACCEL_S3_SECRET_KEY}) with that library imported
 * under the prefix; the application then reads its library from the store.
 * Stops Tomcat (and the store) on SIGINT/SIGTERM (shutdown hook).
 */
public final class DemoLauncher {

    public static final String PROTOCOL = "dev.xaccel.tomcat.AcceptFilterHttp11NioProtocol";
    public static final String FALLBACK_PROTOCOL = "org.apache.coyote.http11.Http11NioProtocol";

    /** Connector attributes for a proxy in front, the same as in sample-webapp/tomcat/server.xml. */
    public static final Map<String, String> CONNECTOR_TUNING = Map.of(
            "maxKeepAliveRequests", "-1",
            "keepAliveTimeout", "75000",
            "connectionTimeout", "20000",
            "maxThreads", "50",
            "minSpareThreads", "10",
            "maxConnections", "1024",
            "acceptCount", "100");

    private DemoLauncher() {
    }

    public static void main(String[] args) throws Exception {
        Map<String, String> opts = options(args);
        Path war = Path.of(require(opts, "war")).toAbsolutePath();
        int port = Integer.parseInt(opts.getOrDefault("port", "8081"));
        Path base = Path.of(opts.getOrDefault("base", "target/demo-tomcat")).toAbsolutePath();
        String contextPath = opts.getOrDefault("context", "/");
        if (!Files.isRegularFile(war)) {
            throw new IllegalArgumentException("WAR not found: " + war
                    + " (build it: mvn -pl sample-webapp -am package)");
        }

        DemoStore store = opts.containsKey("store-dir") ? store(opts) : null;

        Files.createDirectories(base.resolve("webapps"));
        Tomcat tomcat = new Tomcat();
        tomcat.setBaseDir(base.toString());
        tomcat.getHost().setAppBase(base.resolve("webapps").toString());
        // error pages without a stack trace or the server's version, as sample-webapp/tomcat/server.xml
        ErrorReportValve errors = new ErrorReportValve();
        errors.setShowReport(false);
        errors.setShowServerInfo(false);
        tomcat.getHost().getPipeline().addValve(errors);

        Connector connector = connector(port);
        tomcat.getService().addConnector(connector);
        tomcat.setConnector(connector);
        // Tomcat's embedded defaults would add the JSP servlet, which is not on this classpath (and not
        // needed): add only the default servlet and the standard mime mappings, as conf/web.xml does.
        tomcat.setAddDefaultWebXmlToWebapp(false);
        Context ctx = tomcat.addWebapp("/".equals(contextPath) ? "" : contextPath, war.toString());
        ctx.addLifecycleListener(event -> {
            if (Lifecycle.BEFORE_START_EVENT.equals(event.getType())) {
                Wrapper servlet = Tomcat.addServlet(ctx, "default", "org.apache.catalina.servlets.DefaultServlet");
                servlet.setLoadOnStartup(1);
                servlet.setOverridable(true);
                ctx.addServletMapping("/", "default");
                Tomcat.addDefaultMimeTypeMappings(ctx);
            }
        });

        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            stop(tomcat);
            if (store != null) {
                store.close();
                System.out.println("demo: the S3 store stopped");
            }
        }, "demo-shutdown"));
        tomcat.start();
        System.out.println("demo: Tomcat listening on http://127.0.0.1:" + port
                + ("/".equals(contextPath) ? "/" : contextPath + "/") + " (protocol "
                + connector.getProtocolHandlerClassName() + ")");
        tomcat.getServer().await();
    }

    /** Generates the demo library and starts the store with it under XACCEL_LIBRARY's bucket and prefix. */
    private static DemoStore store(Map<String, String> opts) throws java.io.IOException {
        String location = System.getenv("XACCEL_LIBRARY");
        if (location == null || !location.startsWith("s3://")) {
            throw new IllegalArgumentException("--store-dir needs XACCEL_LIBRARY=s3://bucket/prefix");
        }
        String rest = location.substring("s3://".length());
        int slash = rest.indexOf('/');
        String bucket = slash < 0 ? rest : rest.substring(0, slash);
        String prefix = slash < 0 ? "" : rest.substring(slash + 1);
        Path library = Path.of(require(opts, "store-library")).toAbsolutePath();
        System.setProperty("java.awt.headless", "true");
        dev.xaccel.sample.demolib.DemoLibrary.ensure(library);
        DemoStore store = DemoStore.start(require(opts, "store-classpath"), Path.of(require(opts, "store-dir")),
                Integer.parseInt(opts.getOrDefault("store-port", "0")), bucket, prefix, library,
                System.getenv("XACCEL_S3_ACCESS_KEY"), System.getenv("XACCEL_S3_SECRET_KEY"));
        System.out.println("demo: S3 store (s3proxy, pid " + store.pid() + ") on " + store.endpoint() + " with the demo"
                + " library uploaded to " + location);
        return store;
    }

    static Connector connector(int port) {
        Connector connector;
        if (available(PROTOCOL)) {
            connector = new Connector(PROTOCOL);
            connector.setProperty("acceptFilter", "httpready");
        } else {
            // Only when the launcher runs without the connector jar (./demo always builds it).
            System.err.println("demo: " + PROTOCOL + " not on the classpath; using the stock "
                    + FALLBACK_PROTOCOL + " (no accept filter)");
            connector = new Connector(FALLBACK_PROTOCOL);
        }
        connector.setPort(port);
        connector.setProperty("address", "127.0.0.1");
        // Tuned for nginx as the only client (see sample-webapp/tomcat/server.xml for the reasons):
        // never close a kept-alive connection after N requests; idle timeout longer than nginx's upstream
        // keepalive_timeout (60 s) so that nginx always closes first; a small pool of threads, since an
        // offloaded answer holds a thread only briefly; idle connections are held by the poller, not threads.
        for (Map.Entry<String, String> e : CONNECTOR_TUNING.entrySet()) {
            connector.setProperty(e.getKey(), e.getValue());
        }
        connector.setThrowOnFailure(true);
        return connector;
    }

    private static boolean available(String className) {
        try {
            Class.forName(className, false, DemoLauncher.class.getClassLoader());
            return true;
        } catch (ClassNotFoundException | LinkageError e) {
            return false;
        }
    }

    private static void stop(Tomcat tomcat) {
        try {
            tomcat.stop();
            tomcat.destroy();
            System.out.println("demo: Tomcat stopped");
        } catch (LifecycleException e) {
            System.err.println("demo: stopping Tomcat failed: " + e);
        }
    }

    private static Map<String, String> options(String[] args) {
        Map<String, String> m = new LinkedHashMap<>();
        for (int i = 0; i < args.length; i++) {
            if (!args[i].startsWith("--") || i + 1 >= args.length) {
                throw new IllegalArgumentException("usage: DemoLauncher --war FILE [--port N] [--base DIR]"
                        + " [--context /path]"
                        + " [--store-classpath CP --store-dir DIR --store-port N --store-library DIR]");
            }
            m.put(args[i].substring(2), args[++i]);
        }
        return m;
    }

    private static String require(Map<String, String> opts, String name) {
        String v = opts.get(name);
        if (v == null) {
            throw new IllegalArgumentException("missing --" + name);
        }
        return v;
    }
}
