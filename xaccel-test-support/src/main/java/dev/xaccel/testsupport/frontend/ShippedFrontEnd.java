package dev.xaccel.testsupport.frontend;

import dev.xaccel.testsupport.TestPaths;
import dev.xaccel.testsupport.apache.ApacheServer;
import dev.xaccel.testsupport.caddy.CaddyServer;
import dev.xaccel.testsupport.lighttpd.LighttpdServer;
import dev.xaccel.testsupport.nginx.NginxServer;
import java.io.IOException;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The front ends with the configurations the project ships, exactly as shipped: each started from its file under
 * {@code docs/} (found from the working directory upwards), only its ports and paths filled in. The data root is
 * offloaded under the internal prefix {@value #INTERNAL_PREFIX} (nginx's and Caddy's internal location; Apache and
 * lighttpd get the absolute path and ignore the prefix, which the filter's {@code locations} entry still needs).
 */
public enum ShippedFrontEnd implements FrontEnd {

    /** nginx: {@code docs/nginx/xaccel.conf.template}, X-Accel-Redirect. */
    NGINX("nginx", "X-Accel-Redirect", "docs/nginx/xaccel.conf.template") {
        @Override
        public FrontEndServer start(Path prefix, int appPort, Path mediaRoot, Map<String, String> extra)
                throws IOException {
            return NginxServer.builder(prefix).template(template()).value("TOMCAT_PORT", Integer.toString(appPort))
                    .value("MEDIA_ROOT", mediaRoot.toString()).values(extra).workersRead(mediaRoot).start();
        }
    },
    /** Apache httpd 2.4 + mod_xsendfile: {@code docs/apache/xaccel.conf}, X-Sendfile. */
    APACHE("apache", "X-Sendfile", "docs/apache/xaccel.conf") {
        @Override
        public FrontEndServer start(Path prefix, int appPort, Path mediaRoot, Map<String, String> extra)
                throws IOException {
            return ApacheServer.builder(prefix).template(template()).values(values(appPort, mediaRoot, extra))
                    .workersRead(mediaRoot).start();
        }
    },
    /** lighttpd 1.4 with mod_proxy: {@code docs/lighttpd/xaccel.conf}, X-Sendfile. */
    LIGHTTPD("lighttpd", "X-Sendfile", "docs/lighttpd/xaccel.conf") {
        @Override
        public FrontEndServer start(Path prefix, int appPort, Path mediaRoot, Map<String, String> extra)
                throws IOException {
            return LighttpdServer.builder(prefix).template(template()).values(values(appPort, mediaRoot, extra))
                    .workersRead(mediaRoot).start();
        }
    },
    /** Caddy 2: {@code docs/caddy/Caddyfile}, X-Accel-Redirect. */
    CADDY("caddy", "X-Accel-Redirect", "docs/caddy/Caddyfile") {
        @Override
        public FrontEndServer start(Path prefix, int appPort, Path mediaRoot, Map<String, String> extra)
                throws IOException {
            return CaddyServer.builder(prefix).template(template()).values(values(appPort, mediaRoot, extra))
                    .workersRead(mediaRoot).start();
        }
    };

    /** The internal URI prefix of the data root in every shipped configuration. */
    public static final String INTERNAL_PREFIX = "/_xaccel/media/";

    private final String id;
    private final String headerType;
    private final String file;

    ShippedFrontEnd(String id, String headerType, String file) {
        this.id = id;
        this.headerType = headerType;
        this.file = file;
    }

    @Override
    public String id() {
        return id;
    }

    @Override
    public String headerType() {
        return headerType;
    }

    /** {@code locations = <mediaRoot>/ => /_xaccel/media/} and {@code headerType}. */
    @Override
    public Map<String, String> filterParams(Path mediaRoot) {
        Map<String, String> p = new LinkedHashMap<>();
        p.put("locations", mediaRoot + "/ => " + INTERNAL_PREFIX);
        p.put("headerType", headerType);
        return p;
    }

    /** The shipped file, relative to the repository: {@code docs/apache/xaccel.conf}, ... */
    public String file() {
        return file;
    }

    /** The shipped file in this checkout. */
    public Path template() {
        return TestPaths.repositoryFile(file);
    }

    /** The values of the configs that share the names {@code APP_PORT} and {@code MEDIA_ROOT}. */
    static Map<String, String> values(int appPort, Path mediaRoot, Map<String, String> extra) {
        Map<String, String> v = new LinkedHashMap<>();
        v.put("APP_PORT", Integer.toString(appPort));
        v.put("MEDIA_ROOT", mediaRoot.toString());
        v.putAll(extra);
        return v;
    }

    @Override
    public String toString() {
        return id;
    }
}
