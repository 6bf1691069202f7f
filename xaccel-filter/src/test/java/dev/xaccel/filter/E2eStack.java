package dev.xaccel.filter;

import dev.xaccel.testsupport.RawHttp;
import dev.xaccel.testsupport.TestPaths;
import dev.xaccel.testsupport.nginx.NginxServer;
import dev.xaccel.testsupport.servlet.WebApp;
import dev.xaccel.testsupport.tomcat.EmbeddedTomcat;
import jakarta.servlet.Filter;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One suite's world: its media tree, an embedded Tomcat with the auth filter, the XAccelFilter (as
 * web.xml would declare it: {@link #app}), the declared-API servlet at {@code /files/*}, a servlet that sets
 * X-Accel-Redirect on its own at {@code /raw}, and optionally nginx from the documented template.
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
    private final BearerAuthFilter auth;

    private E2eStack(MediaFixture media, EmbeddedTomcat tomcat, NginxServer nginx, BearerAuthFilter auth) {
        this.media = media;
        this.tomcat = tomcat;
        this.nginx = nginx;
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
        Map<String, String> all = baseParams(media, suite);
        all.putAll(params);
        BearerAuthFilter auth = new BearerAuthFilter();
        EmbeddedTomcat.Builder b = EmbeddedTomcat.builder(TestPaths.freshDir("tomcat-" + suite))
                .webapp(app(auth)
                        .xaccelFilter(all)
                        .servlet("/files/*", new DeclaredFileServlet(media.media))
                        .servlet("/raw", new RawAccelServlet()));
        if (lenient) {
            b.lenientConnector();
        }
        EmbeddedTomcat tomcat = b.start();
        NginxServer nginx = null;
        if (withNginx) {
            try {
                nginx = DocsNginx.start(suite, tomcat.port(), media.media);
            } catch (Exception | Error e) {
                tomcat.close();
                throw e;
            }
        }
        return new E2eStack(media, tomcat, nginx, auth);
    }

    /** Remote ports of the authorized requests seen so far: one value per TCP connection. */
    List<Integer> remotePorts() {
        return auth.remotePorts();
    }

    int nginxPort() {
        return nginx.port();
    }

    /** An authorized GET. */
    static RawHttp.Request authGet(String target) {
        return RawHttp.get(target).header("Authorization", BearerAuthFilter.AUTHORIZATION);
    }

    @Override
    public void close() {
        try {
            if (nginx != null) {
                nginx.close();
            }
        } finally {
            tomcat.close();
        }
    }
}
