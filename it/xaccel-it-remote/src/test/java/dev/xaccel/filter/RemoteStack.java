package dev.xaccel.filter;

import java.util.LinkedHashMap;
import java.util.Map;

import dev.xaccel.testsupport.TestPaths;
import dev.xaccel.testsupport.nginx.DocsNginx;
import dev.xaccel.testsupport.nginx.NginxServer;
import dev.xaccel.testsupport.servlet.BearerAuthFilter;
import dev.xaccel.testsupport.servlet.SuiteApp;
import dev.xaccel.testsupport.tomcat.EmbeddedTomcat;

/**
 * One suite's world: the store, Tomcat with the auth filter, the XAccelFilter (web.xml style, {@code remoteOrigins}
 * = the store) and {@link PresigningServlet} at {@code /objects/*}, and optionally nginx from the shipped
 * {@code docs/nginx/xaccel-remote.conf.template}, from xaccel-test-support's fixtures.
 */
final class RemoteStack implements AutoCloseable {

    static final String TEMPLATE = "docs/nginx/xaccel-remote.conf.template";

    final S3Store store;
    final PresigningServlet objects;
    final EmbeddedTomcat tomcat;
    final NginxServer nginx;

    private RemoteStack(S3Store store, PresigningServlet objects, EmbeddedTomcat tomcat, NginxServer nginx) {
        this.store = store;
        this.objects = objects;
        this.tomcat = tomcat;
        this.nginx = nginx;
    }

    static RemoteStack start(String suite, boolean withNginx) throws Exception {
        return start(suite, withNginx, Map.of());
    }

    /** As {@link #start(String, boolean)}, with more init-params of the filter (they win). */
    static RemoteStack start(String suite, boolean withNginx, Map<String, String> moreParams) throws Exception {
        return start(suite, withNginx, moreParams, 0);
    }

    /**
     * As {@link #start(String, boolean, Map)}; with {@code receiptsPort} not 0, nginx's commented receipt lines
     * switched on, logging to that UDP port ({@link DocsNginx#withReceipts}).
     */
    static RemoteStack start(String suite, boolean withNginx, Map<String, String> moreParams, int receiptsPort)
            throws Exception {
        S3Store store = S3Store.start(TestPaths.freshDir("store-" + suite));
        try {
            PresigningServlet objects = new PresigningServlet(store);
            java.nio.file.Path media = TestPaths.freshDir("media-" + suite).toRealPath();
            Map<String, String> params = new LinkedHashMap<>();
            params.put("locations", media + "/ => /_xaccel/media/");
            params.put("remoteOrigins", store.origin());
            params.put("jmxName", "none");
            params.putAll(moreParams);
            EmbeddedTomcat tomcat = EmbeddedTomcat.start(suite, SuiteApp.app(new BearerAuthFilter())
                    .xaccelFilter(params).servlet("/objects/*", objects));
            NginxServer nginx = null;
            if (withNginx) {
                try {
                    String conf = receiptsPort == 0 ? DocsNginx.text(TEMPLATE)
                            : DocsNginx.withReceipts(suite, TEMPLATE, receiptsPort);
                    nginx = DocsNginx.start(suite, conf, nginxValues(store), tomcat.port(), media);
                } catch (Exception | Error e) {
                    tomcat.close();
                    throw e;
                }
            }
            return new RemoteStack(store, objects, tomcat, nginx);
        } catch (Exception | Error e) {
            store.close();
            throw e;
        }
    }

    /** The template's remote placeholders for this store. */
    static Map<String, String> nginxValues(S3Store store) {
        return Map.of("REMOTE_ORIGIN", store.origin(), "REMOTE_SERVER", "127.0.0.1:" + store.port(),
                "CA_CERTIFICATES", "/etc/ssl/certs/ca-certificates.crt");
    }

    /** The port clients use: nginx's, or Tomcat's when there is no nginx. */
    int port() {
        return nginx != null ? nginx.port() : tomcat.port();
    }

    @Override
    public void close() throws Exception {
        try {
            if (nginx != null) {
                nginx.close();
            }
            tomcat.close();
        } finally {
            store.close();
        }
    }
}
