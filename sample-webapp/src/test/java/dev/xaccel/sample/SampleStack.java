package dev.xaccel.sample;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.xaccel.sample.demo.DemoNginxValues;
import dev.xaccel.sample.demo.DemoStore;
import dev.xaccel.sample.demolib.DemoLibrary;
import dev.xaccel.testsupport.nginx.NginxServer;
import dev.xaccel.testsupport.tomcat.CatalinaLauncher;
import java.io.IOException;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * The sample deployed as users deploy it, for StandaloneTomcatIT, PodcastFeedIT, BrowserIT and SampleBoundaryIT:
 * the real Tomcat 11 distribution (unpacked by the build) started with catalina.sh, the connector jar and JNA in
 * its lib/, the shipped sample-webapp/tomcat/server.xml (its ports made placeholders), the WAR as
 * webapps/ROOT.war; nginx in front with the shipped sample-webapp/nginx/xaccel-demo.conf.template, filled with
 * the values ./demo fills it with ({@link DemoNginxValues}); the demo library; and one fresh signed-link secret
 * given to both (XACCEL_LINK_SECRET for Tomcat, {@code ${LINK_SECRET}} in nginx's config). Closing stops nginx,
 * then Tomcat; either may be stopped earlier by a test (closing again does nothing).
 */
final class SampleStack implements AutoCloseable {

    private static final Http HTTP = new Http();

    /** The bucket of {@link #startS3}. */
    static final String BUCKET = "sample-it";
    static final String S3_PREFIX = "audiobooks";

    /** The signed-link secret of this deployment (Tomcat's XACCEL_LINK_SECRET, nginx's {@code ${LINK_SECRET}}). */
    final String linkSecret;
    /** The demo library, as a real path (no link in it). */
    final Path library;
    final CatalinaLauncher tomcat;
    final NginxServer nginx;
    /** The library's S3 store ({@link #startS3}), or null for a library on disk. */
    final DemoStore store;
    /** The filter's receipts port (UDP on 127.0.0.1), where nginx sends its receipt lines. */
    final int receiptsPort;

    private SampleStack(String linkSecret, Path library, CatalinaLauncher tomcat, NginxServer nginx, DemoStore store,
            int receiptsPort) {
        this.linkSecret = linkSecret;
        this.receiptsPort = receiptsPort;
        this.library = library;
        this.tomcat = tomcat;
        this.nginx = nginx;
        this.store = store;
    }

    /** {@link #start(String, String, Map)} with the demo library the ITs share, {@code it-work/library}. */
    static SampleStack start(String name, Map<String, String> env) throws Exception {
        return start(name, "library", env);
    }

    /**
     * Deploys under {@code it-work/<name>/} ({@code catalina-base/}, {@code nginx/}) with the demo library in
     * {@code it-work/<libraryName>}; returns once the application answers through Tomcat.
     *
     * @param env the application's settings besides the library and the secret (XACCEL_DEMO_USERS, ...)
     */
    static SampleStack start(String name, String libraryName, Map<String, String> env) throws Exception {
        return start(name, libraryName, env, false);
    }

    /**
     * The same deployment with the library in an S3 store: the demo library of {@code it-work/library} imported into
     * the bucket {@value #BUCKET} under {@value #S3_PREFIX}/ of a {@link DemoStore} (s3proxy, a child JVM on a free
     * loopback port, under {@code it-work/<name>/store/}), the application configured by XACCEL_LIBRARY=s3://… and
     * the XACCEL_S3_* variables, nginx's remote location pointed at the store.
     */
    static SampleStack startS3(String name, Map<String, String> env) throws Exception {
        return start(name, "library", env, true);
    }

    private static SampleStack start(String name, String libraryName, Map<String, String> env, boolean s3)
            throws Exception {
        NginxServer.findBinary();                       // fails before Tomcat starts when nginx is missing
        Path library = ItSupport.work(libraryName);
        DemoLibrary.ensure(library);
        library = library.toRealPath();
        String linkSecret = ItSupport.newLinkSecret();
        Map<String, String> appEnv = new LinkedHashMap<>(env);
        appEnv.put("XACCEL_LINK_SECRET", linkSecret);
        int receiptsPort = freeUdpPort();
        appEnv.put("XACCEL_RECEIPTS", "127.0.0.1:" + receiptsPort);
        DemoStore store = null;
        String remoteOrigin = null;                     // no store
        Path nginxLibrary = library;
        if (s3) {
            String secret = ItSupport.newLinkSecret();
            store = DemoStore.start(storeClassPath(), ItSupport.work(name + "/store"), 0, BUCKET, S3_PREFIX, library,
                    "sample-it", secret);
            appEnv.put("XACCEL_LIBRARY", "s3://" + BUCKET + "/" + S3_PREFIX);
            appEnv.put("XACCEL_S3_ENDPOINT", store.endpoint());
            appEnv.put("XACCEL_S3_REGION", "eu-west-1");
            appEnv.put("XACCEL_S3_ACCESS_KEY", "sample-it");
            appEnv.put("XACCEL_S3_SECRET_KEY", secret);
            remoteOrigin = store.endpoint();
            nginxLibrary = ItSupport.work(name + "/no-local-files").toRealPath();
        } else {
            appEnv.put("XACCEL_DEMO_LIBRARY", library.toString());
        }
        CatalinaLauncher tomcat;
        try {
            tomcat = startTomcat(ItSupport.work(name + "/catalina-base"), appEnv);
        } catch (Exception | AssertionError e) {
            if (store != null) {
                store.close();
            }
            throw e;
        }
        NginxServer nginx;
        try {
            nginx = NginxServer.builder(ItSupport.work(name + "/nginx"))
                    .template(ItSupport.property("xaccel.it.nginxTemplate"))
                    .values(new DemoNginxValues(tomcat.httpPort(), nginxLibrary, linkSecret, remoteOrigin, receiptsPort)
                            .placeholders())
                    .workersRead(library)
                    .start();
        } catch (IOException | RuntimeException e) {
            stopAfterFailure(tomcat, e);
            if (store != null) {
                store.close();
            }
            throw e;
        }
        return new SampleStack(linkSecret, library, tomcat, nginx, store, receiptsPort);
    }

    /** A loopback UDP port free right now, for the filter's receipts (the filter binds it at startup). */
    static int freeUdpPort() throws IOException {
        try (java.net.DatagramSocket s = new java.net.DatagramSocket(0, java.net.InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        }
    }

    /** xaccel-test-store's classes and its class path (the build writes target/classpath.txt). */
    static String storeClassPath() throws IOException {
        Path module = ItSupport.property("xaccel.it.storeModule");
        return module.resolve("classes") + java.io.File.pathSeparator
                + Files.readString(module.resolve("classpath.txt"), StandardCharsets.UTF_8).trim();
    }

    /**
     * The shipped server.xml with its ports as the launcher's placeholders: the connector's 8081 becomes
     * {@code ${HTTP_PORT}}, the shutdown port 8005 {@code ${SHUTDOWN_PORT}}.
     */
    static String serverXmlTemplate() throws IOException {
        Path shipped = ItSupport.property("xaccel.it.nginxTemplate").getParent().getParent()
                .resolve("tomcat/server.xml");
        String template = Files.readString(shipped, StandardCharsets.UTF_8)
                .replace("port=\"8081\"", "port=\"${HTTP_PORT}\"")
                .replace("<Server port=\"8005\"", "<Server port=\"${SHUTDOWN_PORT}\"");
        if (!template.contains("${HTTP_PORT}") || !template.contains("${SHUTDOWN_PORT}")) {
            throw new AssertionError("could not make the ports of " + shipped + " placeholders (no port=\"8081\" "
                    + "or <Server port=\"8005\")");
        }
        return template;
    }

    private static CatalinaLauncher startTomcat(Path base, Map<String, String> appEnv) throws Exception {
        Path home = ItSupport.property("xaccel.it.tomcatDist");
        CatalinaLauncher.Builder b = CatalinaLauncher.builder(home, base)
                .serverXml(serverXmlTemplate())
                .copy(ItSupport.property("xaccel.it.war"), "webapps/ROOT.war")
                .env(appEnv)
                .catalinaOpts("-Xmx256m -Djava.awt.headless=true");
        // the connector, as users install it: its jar and JNA into $CATALINA_HOME/lib
        Path connectorLib = ItSupport.property("xaccel.it.connectorLib");
        try (Stream<Path> jars = Files.list(connectorLib)) {
            List<Path> list = jars.filter(p -> p.toString().endsWith(".jar")).sorted().toList();
            if (list.stream().noneMatch(p -> p.getFileName().toString().startsWith("xaccel-tomcat-connector"))
                    || list.stream().noneMatch(p -> p.getFileName().toString().startsWith("jna"))) {
                throw new AssertionError("connector jar or JNA missing in " + connectorLib + ": " + list);
            }
            list.forEach(b::homeLibrary);
        }
        CatalinaLauncher tomcat = b.start();
        try {
            tomcat.awaitLog(CatalinaLauncher.STARTED, Duration.ofSeconds(90));
            HttpResponse<byte[]> css = HTTP.get(tomcat.url("/assets/app.css"));
            if (css.statusCode() != 200) {
                throw new AssertionError("the application does not answer (" + css.statusCode()
                        + " for /assets/app.css):\n" + tomcat.log());
            }
        } catch (Exception | AssertionError e) {
            stopAfterFailure(tomcat, e);
            throw e;
        }
        return tomcat;
    }

    /** Stops what started before {@code failure}; a failure of the stop goes along with it. */
    private static void stopAfterFailure(CatalinaLauncher tomcat, Throwable failure) {
        try {
            tomcat.close();
        } catch (IOException | RuntimeException e) {
            failure.addSuppressed(e);
        }
    }

    /** {@code http://127.0.0.1:<nginx's port><path>}: where browsers and clients go. */
    String url(String path) {
        return nginx.url(path);
    }

    /** Logs in through nginx; the {@code Authorization} value of the bearer token. */
    String bearer(String user, String password) throws Exception {
        HttpResponse<byte[]> r = login(user, password);
        return "Bearer " + Http.object(r).getString("token");
    }

    /** Logs in through nginx; the {@code Cookie} value of the session. */
    String session(String user, String password) throws Exception {
        String cookie = login(user, password).headers().firstValue("Set-Cookie").orElseThrow();
        return cookie.substring(0, cookie.indexOf(';'));
    }

    private HttpResponse<byte[]> login(String user, String password) throws Exception {
        HttpResponse<byte[]> r = HTTP.post(nginx.url("/api/login"), Http.form("user", user, "password", password));
        assertEquals(200, r.statusCode(), Http.text(r));
        return r;
    }

    /** Stops nginx, then Tomcat (through its shutdown port), then the store; what a test stopped stays stopped. */
    @Override
    public void close() throws IOException {
        try {
            nginx.close();
        } finally {
            try {
                tomcat.close();
            } finally {
                if (store != null) {
                    store.close();
                }
            }
        }
    }
}
