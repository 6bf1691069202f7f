package dev.xaccel.filter;

import dev.xaccel.testsupport.RawHttp;
import dev.xaccel.testsupport.TestPaths;
import dev.xaccel.testsupport.frontend.FrontEnd;
import dev.xaccel.testsupport.frontend.FrontEndServer;
import dev.xaccel.testsupport.frontend.ShippedFrontEnd;
import dev.xaccel.testsupport.nginx.NginxServer;
import dev.xaccel.testsupport.servlet.OffloadRecorder;
import dev.xaccel.testsupport.servlet.WebApp;
import dev.xaccel.testsupport.tomcat.EmbeddedTomcat;
import jakarta.servlet.Filter;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One suite's world: its media tree, an embedded Tomcat with the auth filter, the XAccelFilter (as
 * web.xml would declare it: {@link #app}), the declared-API servlet at {@code /files/*}, a servlet that sets
 * X-Accel-Redirect on its own at {@code /raw}, and optionally nginx from the documented template or another
 * shipped front end ({@link FrontEnd}; the filter then gets its {@code headerType}). An {@link OffloadRecorder}
 * before everything says how the application answered each request.
 */
final class E2eStack implements AutoCloseable {

    static final String INTERNAL_PREFIX = "/_xaccel/media/";
    static final String MAPPED_PREFIX = "/library/";
    static final String DECLARED_PREFIX = "/files/";

    /** The &lt;mime-mapping&gt;s of the test application (a subset of Tomcat's conf/web.xml). */
    static final Map<String, String> MIME_TYPES = Map.of(
            "txt", "text/plain",
            "html", "text/html",
            "mp3", "audio/mpeg",
            "pdf", "application/pdf",
            "jpg", "image/jpeg",
            // Unknown to nginx's mime.types: proves the backend's Content-Type crosses the redirect.
            "xat", "application/x-xaccel-test");

    final MediaFixture media;
    final EmbeddedTomcat tomcat;
    final NginxServer nginx;
    /** The front end: {@link #nginx} or another, or {@code null}. */
    final FrontEndServer frontEnd;
    final OffloadRecorder recorder;
    private final BearerAuthFilter auth;

    private E2eStack(MediaFixture media, EmbeddedTomcat tomcat, FrontEndServer frontEnd, OffloadRecorder recorder,
            BearerAuthFilter auth) {
        this.media = media;
        this.tomcat = tomcat;
        this.frontEnd = frontEnd;
        this.nginx = frontEnd instanceof NginxServer n ? n : null;
        this.recorder = recorder;
        this.auth = auth;
    }

    /**
     * The suites' web application, as its web.xml would declare it:
     * <pre>
     * &lt;filter&gt; auth (the given filter)                &lt;filter-mapping&gt; /*
     * &lt;filter&gt; xaccel (dev.xaccel.filter.XAccelFilter)  &lt;filter-mapping&gt; /*   + &lt;init-param&gt;s
     *                                                 (the caller adds it: {@code .xaccelFilter(params)})
     * &lt;servlet&gt; ... the suite's servlets               &lt;servlet-mapping&gt;
     * &lt;servlet&gt; default: 404 for anything unmapped     &lt;servlet-mapping&gt; /
     * </pre>
     */
    static WebApp app(Filter auth) {
        return WebApp.root().mimeMappings(MIME_TYPES).filter("auth", auth);
    }

    /** An embedded Tomcat in {@code target/tomcat-<suite>} running {@code app}. */
    static EmbeddedTomcat tomcat(String suite, WebApp app) {
        return EmbeddedTomcat.builder(TestPaths.freshDir("tomcat-" + suite)).webapp(app).start();
    }

    /** The init-params every suite shares: one location and one mapping onto the media root. */
    static Map<String, String> baseParams(MediaFixture media, String suite) {
        Map<String, String> p = new LinkedHashMap<>();
        p.put("locations", media.media + "/ => " + INTERNAL_PREFIX);
        p.put("mappings", MAPPED_PREFIX + " => " + media.media + "/");
        p.put("jmxName", "dev.xaccel:type=XAccelFilter,context=/,name=e2e-" + suite);
        return p;
    }

    static E2eStack start(String suite, Map<String, String> params, boolean withNginx) throws Exception {
        MediaFixture media = MediaFixture.create(suite);
        return start(suite, media, params, withNginx, false);
    }

    static E2eStack start(String suite, MediaFixture media, Map<String, String> params, boolean withNginx,
            boolean lenient) throws Exception {
        return start(suite, media, params, withNginx ? ShippedFrontEnd.NGINX : null, lenient);
    }

    /** Tomcat behind {@code frontEnd} (started from its shipped config), the filter with its {@code headerType}. */
    static E2eStack start(String suite, MediaFixture media, Map<String, String> params, FrontEnd frontEnd)
            throws Exception {
        Map<String, String> all = new LinkedHashMap<>(frontEnd.filterParams(media.media.toRealPath()));
        all.remove("locations"); // baseParams' entry is the same, on the path as the suites name it
        all.putAll(params);
        return start(suite, media, all, frontEnd, false);
    }

    /** @param frontEnd {@code null} for Tomcat alone */
    private static E2eStack start(String suite, MediaFixture media, Map<String, String> params, FrontEnd frontEnd,
            boolean lenient) throws Exception {
        Map<String, String> all = baseParams(media, suite);
        all.putAll(params);
        BearerAuthFilter auth = new BearerAuthFilter();
        OffloadRecorder recorder = new OffloadRecorder();
        EmbeddedTomcat.Builder b = EmbeddedTomcat.builder(TestPaths.freshDir("tomcat-" + suite))
                .webapp(WebApp.root().mimeMappings(MIME_TYPES).filter("recorder", recorder).filter("auth", auth)
                        .xaccelFilter(all)
                        .servlet("/files/*", new DeclaredFileServlet(media.media))
                        .servlet("/raw", new RawAccelServlet()));
        if (lenient) {
            b.lenientConnector();
        }
        EmbeddedTomcat tomcat = b.start();
        FrontEndServer server = null;
        if (frontEnd != null) {
            try {
                server = frontEnd.start(TestPaths.target().resolve(frontEnd.id() + "-" + suite), tomcat.port(),
                        media.media.toRealPath());
            } catch (Exception | Error e) {
                tomcat.close();
                throw e;
            }
        }
        return new E2eStack(media, tomcat, server, recorder, auth);
    }

    /** Remote ports of the authorized requests seen so far: one value per TCP connection. */
    List<Integer> remotePorts() {
        return auth.remotePorts();
    }

    int nginxPort() {
        return nginx.port();
    }

    /** The front end's port (nginx's or another's). */
    int frontEndPort() {
        return frontEnd.port();
    }

    /** An authorized GET. */
    static RawHttp.Request authGet(String target) {
        return RawHttp.get(target).header("Authorization", BearerAuthFilter.AUTHORIZATION);
    }

    @Override
    public void close() {
        try {
            if (frontEnd != null) {
                frontEnd.close();
            }
        } finally {
            tomcat.close();
        }
    }
}
