package dev.xaccel.filter;

import dev.xaccel.testsupport.RawHttp;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * One suite's world: its media tree, an embedded Tomcat with the auth filter, the XAccelFilter (as
 * web.xml would declare it), the declared-API servlet at {@code /files/*}, a servlet that sets
 * X-Accel-Redirect on its own at {@code /raw}, and optionally nginx from the documented template.
 */
final class E2eStack implements AutoCloseable {

    static final String INTERNAL_PREFIX = "/_xaccel/media/";
    static final String MAPPED_PREFIX = "/library/";
    static final String DECLARED_PREFIX = "/files/";

    final MediaFixture media;
    final EmbeddedTomcat tomcat;
    final NginxServer nginx;

    private E2eStack(MediaFixture media, EmbeddedTomcat tomcat, NginxServer nginx) {
        this.media = media;
        this.tomcat = tomcat;
        this.nginx = nginx;
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
        EmbeddedTomcat.Builder b = EmbeddedTomcat.builder(suite)
                .xaccelFilter(all)
                .servlet("/files/*", new DeclaredFileServlet(media.media))
                .servlet("/raw", new RawAccelServlet());
        if (lenient) {
            b.lenientConnector();
        }
        EmbeddedTomcat tomcat = b.start();
        NginxServer nginx = null;
        if (withNginx) {
            try {
                nginx = NginxServer.start(suite, tomcat.port(), media.media);
            } catch (Exception | Error e) {
                tomcat.close();
                throw e;
            }
        }
        return new E2eStack(media, tomcat, nginx);
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
