package dev.xaccel.filter;

import jakarta.servlet.Filter;
import jakarta.servlet.Servlet;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.catalina.Context;
import org.apache.catalina.LifecycleException;
import org.apache.catalina.connector.Connector;
import org.apache.catalina.startup.Tomcat;
import org.apache.tomcat.util.descriptor.web.FilterDef;
import org.apache.tomcat.util.descriptor.web.FilterMap;

/**
 * An embedded Tomcat on 127.0.0.1 (free port) whose web application is assembled the way a
 * {@code web.xml} would declare it:
 * <pre>
 * &lt;filter&gt; auth (BearerAuthFilter)                 &lt;filter-mapping&gt; /*
 * &lt;filter&gt; xaccel (dev.xaccel.filter.XAccelFilter)  &lt;filter-mapping&gt; /*   + &lt;init-param&gt;s
 * &lt;servlet&gt; ... the suite's servlets               &lt;servlet-mapping&gt;
 * &lt;servlet&gt; default: 404 for anything unmapped     &lt;servlet-mapping&gt; /
 * </pre>
 * The XAccelFilter is declared by class name with string init-params, exactly as in web.xml.
 */
final class EmbeddedTomcat implements AutoCloseable {

    static final String FILTER_CLASS = "dev.xaccel.filter.XAccelFilter";
    static final String FILTER_NAME = "xaccel";

    private final Tomcat tomcat;
    private final Connector connector;
    private final Filter auth;

    private EmbeddedTomcat(Tomcat tomcat, Connector connector, Filter auth) {
        this.tomcat = tomcat;
        this.connector = connector;
        this.auth = auth;
    }

    static Builder builder(String name) {
        return new Builder(name);
    }

    int port() {
        return connector.getLocalPort();
    }

    /** Remote ports of the authorized requests seen so far: one value per TCP connection. */
    List<Integer> remotePorts() {
        if (!(auth instanceof BearerAuthFilter bearer)) {
            throw new IllegalStateException("remotePorts() needs the default BearerAuthFilter");
        }
        return bearer.remotePorts();
    }

    Context context() {
        return (Context) tomcat.getHost().findChildren()[0];
    }

    @Override
    public void close() {
        try {
            tomcat.stop();
            tomcat.destroy();
        } catch (LifecycleException e) {
            throw new IllegalStateException(e);
        }
    }

    static final class Builder {
        private final String name;
        private Map<String, String> xaccelParams;
        private final Map<String, Servlet> servlets = new LinkedHashMap<>();
        private boolean lenient;
        private Filter auth = new BearerAuthFilter();

        private Builder(String name) {
            this.name = name;
        }

        /** Declares the XAccelFilter with these init-params (after the auth filter). */
        Builder xaccelFilter(Map<String, String> initParams) {
            this.xaccelParams = new LinkedHashMap<>(initParams);
            return this;
        }

        /** Maps a servlet; {@code pattern} is a web.xml url-pattern. */
        Builder servlet(String pattern, Servlet servlet) {
            servlets.put(pattern, servlet);
            return this;
        }

        /** Replaces the default {@link BearerAuthFilter} (still mapped first, before the XAccelFilter). */
        Builder auth(Filter filter) {
            this.auth = filter;
            return this;
        }

        /**
         * Makes the connector pass more to the application: backslashes, decoded {@code %2F} and
         * {@code %5C}, and the characters Tomcat rejects in paths by default. Used to hand the filter
         * input a stricter container would have refused already.
         */
        Builder lenientConnector() {
            this.lenient = true;
            return this;
        }

        EmbeddedTomcat start() {
            TestLogging.install();
            Path base = TestPaths.freshDir("tomcat-" + name);
            Path docBase;
            try {
                docBase = Files.createDirectories(base.resolve("webapp"));
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            Tomcat tomcat = new Tomcat();
            tomcat.setBaseDir(base.toString());
            Connector connector = new Connector();
            connector.setPort(0);
            connector.setProperty("address", "127.0.0.1");
            // Unlimited requests per connection: the connection-reuse assertions must not depend on where
            // Tomcat's default limit of 100 falls in the suite's request sequence.
            connector.setProperty("maxKeepAliveRequests", "-1");
            if (lenient) {
                connector.setAllowBackslash(true);
                connector.setEncodedSolidusHandling("decode");
                connector.setEncodedReverseSolidusHandling("decode");
                connector.setProperty("relaxedPathChars", "\"<>[\\]^`{|}");
                connector.setProperty("relaxedQueryChars", "\"<>[\\]^`{|}");
            }
            tomcat.setConnector(connector);
            tomcat.getHost().setAutoDeploy(false);

            Context ctx = tomcat.addContext("", docBase.toString());
            if (ctx instanceof org.apache.catalina.core.StandardContext std) {
                // Leak detection at stop needs --add-opens and only warns about the test JVM itself.
                std.setClearReferencesRmiTargets(false);
                std.setClearReferencesThreadLocals(false);
            }
            addMimeMappings(ctx);

            addFilter(ctx, "auth", auth, null);
            if (xaccelParams != null) {
                FilterDef def = new FilterDef();
                def.setFilterName(FILTER_NAME);
                def.setFilterClass(FILTER_CLASS);
                xaccelParams.forEach(def::addInitParameter);
                ctx.addFilterDef(def);
                FilterMap map = new FilterMap();
                map.setFilterName(FILTER_NAME);
                map.addURLPattern("/*");
                ctx.addFilterMap(map);
            }
            int s = 0;
            for (Map.Entry<String, Servlet> e : servlets.entrySet()) {
                String servletName = "servlet" + s++;
                Tomcat.addServlet(ctx, servletName, e.getValue());
                ctx.addServletMapping(e.getKey(), servletName);
            }
            Tomcat.addServlet(ctx, "default", new NotFoundServlet());
            ctx.addServletMapping("/", "default");
            try {
                tomcat.start();
            } catch (LifecycleException e) {
                throw new IllegalStateException("Tomcat did not start: " + e, e);
            }
            if (!ctx.getState().isAvailable()) {
                throw new IllegalStateException("web application " + name + " failed to start (state "
                        + ctx.getState() + "); see " + TestLogging.logFile());
            }
            return new EmbeddedTomcat(tomcat, connector, auth);
        }

        private static void addFilter(Context ctx, String filterName, Filter filter, Map<String, String> params) {
            FilterDef def = new FilterDef();
            def.setFilterName(filterName);
            def.setFilter(filter);
            def.setFilterClass(filter.getClass().getName());
            if (params != null) {
                params.forEach(def::addInitParameter);
            }
            ctx.addFilterDef(def);
            FilterMap map = new FilterMap();
            map.setFilterName(filterName);
            map.addURLPattern("/*");
            ctx.addFilterMap(map);
        }

        /** The &lt;mime-mapping&gt;s of the test application (a subset of Tomcat's conf/web.xml). */
        private static void addMimeMappings(Context ctx) {
            ctx.addMimeMapping("txt", "text/plain");
            ctx.addMimeMapping("html", "text/html");
            ctx.addMimeMapping("mp3", "audio/mpeg");
            ctx.addMimeMapping("pdf", "application/pdf");
            ctx.addMimeMapping("jpg", "image/jpeg");
            // Unknown to nginx's mime.types: proves the backend's Content-Type crosses the redirect.
            ctx.addMimeMapping("xat", "application/x-xaccel-test");
        }
    }
}
