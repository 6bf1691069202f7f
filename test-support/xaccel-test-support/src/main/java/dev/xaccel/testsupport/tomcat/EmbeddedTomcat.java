package dev.xaccel.testsupport.tomcat;

import dev.xaccel.testsupport.TestLogging;
import dev.xaccel.testsupport.TestPaths;
import dev.xaccel.testsupport.servlet.WebApp;
import jakarta.servlet.DispatcherType;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.catalina.Context;
import org.apache.catalina.LifecycleException;
import org.apache.catalina.Wrapper;
import org.apache.catalina.connector.Connector;
import org.apache.catalina.core.StandardContext;
import org.apache.catalina.startup.Tomcat;
import org.apache.coyote.UpgradeProtocol;
import org.apache.tomcat.util.net.SSLHostConfig;
import org.apache.tomcat.util.net.SSLHostConfigCertificate;
import org.apache.tomcat.util.descriptor.web.FilterDef;
import org.apache.tomcat.util.descriptor.web.FilterMap;

/**
 * An embedded Tomcat on 127.0.0.1 (a port the kernel picks) running one or more {@link WebApp}s, each deployed
 * the way its web.xml would declare it: filters by {@code FilterDef}/{@code FilterMap} in the declared order (the
 * XAccelFilter by class name with string init-params), servlets with their mappings, the default servlet at
 * {@code /}, the MIME mappings. Its java.util.logging goes to {@code target/it-logs/jul.log} ({@link TestLogging}).
 * <pre>
 * EmbeddedTomcat tomcat = EmbeddedTomcat.builder(TestPaths.freshDir("tomcat-suite"))
 *         .webapp(WebApp.root().filter("auth", auth).xaccelFilter(params).servlet("/files/*", files))
 *         .start();
 * </pre>
 */
public final class EmbeddedTomcat implements AutoCloseable {

    private final Tomcat tomcat;
    private final Connector connector;
    private final Map<String, Context> contexts;

    private EmbeddedTomcat(Tomcat tomcat, Connector connector, Map<String, Context> contexts) {
        this.tomcat = tomcat;
        this.connector = connector;
        this.contexts = contexts;
    }

    /** A Tomcat whose base directory ({@code work/}, the contexts' docBases) is {@code baseDir}, created if needed. */
    public static Builder builder(Path baseDir) {
        return new Builder(baseDir);
    }

    /** A Tomcat in {@code target/tomcat-<suite>} (made fresh) running {@code app}. */
    public static EmbeddedTomcat start(String suite, WebApp app) {
        return builder(TestPaths.freshDir("tomcat-" + suite)).webapp(app).start();
    }

    /** The connector's port. */
    public int port() {
        return connector.getLocalPort();
    }

    /** {@code http://127.0.0.1:<port><path>}. */
    public String url(String path) {
        return "http://127.0.0.1:" + port() + path;
    }

    /** The deployed context of {@code contextPath}. */
    public Context context(String contextPath) {
        Context ctx = contexts.get(contextPath);
        if (ctx == null) {
            throw new IllegalArgumentException("no context " + contextPath + " (" + contexts.keySet() + ")");
        }
        return ctx;
    }

    /** The Tomcat itself, for what a test does beyond the harness. */
    public Tomcat tomcat() {
        return tomcat;
    }

    /**
     * Deploys {@code app} into a Tomcat set up elsewhere (one with connectors of its own, such as the benchmark's
     * server) exactly as this harness deploys its applications, with {@code docBase} as the context's document root
     * (what a file-serving default servlet serves). The context starts with that Tomcat; the caller checks its state.
     */
    public static Context deploy(Tomcat tomcat, WebApp app, Path docBase) {
        Context ctx = tomcat.addContext(app.contextPath(), docBase.toString());
        if (ctx instanceof StandardContext std) {
            // Leak detection at stop needs --add-opens and would only warn about the test JVM itself.
            std.setClearReferencesRmiTargets(false);
            std.setClearReferencesThreadLocals(false);
        }
        if (app.usesContainerMimeMappings()) {
            Tomcat.addDefaultMimeTypeMappings(ctx);
        }
        app.mimeMappings().forEach(ctx::addMimeMapping);
        for (WebApp.FilterDecl f : app.filters()) {
            FilterDef def = new FilterDef();
            def.setFilterName(f.name());
            def.setFilterClass(f.className());
            if (f.instance() != null) {
                def.setFilter(f.instance());
            }
            f.initParams().forEach(def::addInitParameter);
            ctx.addFilterDef(def);
            FilterMap map = new FilterMap();
            map.setFilterName(f.name());
            map.addURLPattern("/*");
            for (DispatcherType d : f.dispatchers()) {
                map.setDispatcher(d.name());
            }
            ctx.addFilterMap(map);
        }
        for (WebApp.ServletDecl s : app.servlets()) {
            addServlet(ctx, s.name(), s.urlPattern(), s.servlet());
        }
        if (app.defaultServlet() != null) {
            addServlet(ctx, "default", "/", app.defaultServlet());
        }
        return ctx;
    }

    private static void addServlet(Context ctx, String name, String pattern, jakarta.servlet.Servlet servlet) {
        Wrapper w = Tomcat.addServlet(ctx, name, servlet);
        w.setAsyncSupported(true);
        w.addMapping(pattern);
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

    /** The connector and the applications. */
    public static final class Builder {
        private final Path baseDir;
        private final List<WebApp> webapps = new ArrayList<>();
        private boolean lenient;
        private int port;
        private String protocol;
        private final List<UpgradeProtocol> upgradeProtocols = new ArrayList<>();
        private SSLHostConfig tls;
        private final Map<String, String> connectorProperties = new LinkedHashMap<>();

        private Builder(Path baseDir) {
            this.baseDir = baseDir.toAbsolutePath();
            // Unlimited requests per connection: assertions about connection reuse must not depend on where
            // Tomcat's default limit of 100 falls in a suite's request sequence.
            connectorProperties.put("maxKeepAliveRequests", "-1");
        }

        /** Deploys {@code app} (one per context path). */
        public Builder webapp(WebApp app) {
            webapps.add(app);
            return this;
        }

        /**
         * Makes the connector pass more to the applications: backslashes, decoded {@code %2F} and {@code %5C}, and
         * the characters Tomcat rejects in paths and queries by default. Hands the code under test input a stricter
         * container would have refused already.
         */
        public Builder lenientConnector() {
            this.lenient = true;
            return this;
        }

        /**
         * A fixed port instead of one the kernel picks: for a server that must come back on the same port (a node
         * behind nginx's {@code upstream}, restarted after it was killed).
         */
        public Builder port(int fixed) {
            this.port = fixed;
            return this;
        }

        /** The connector's protocol class, as server.xml's {@code protocol} (default: Tomcat's HTTP/1.1 NIO). */
        public Builder protocol(String className) {
            this.protocol = className;
            return this;
        }

        /** An upgrade protocol of the connector, as server.xml's {@code <UpgradeProtocol>} (HTTP/2: h2c). */
        public Builder upgradeProtocol(UpgradeProtocol upgrade) {
            upgradeProtocols.add(upgrade);
            return this;
        }

        /** TLS with this certificate, as server.xml's {@code SSLEnabled="true"} and {@code <SSLHostConfig>}. */
        public Builder tls(Path pkcs12Keystore, String password) {
            SSLHostConfig config = new SSLHostConfig();
            SSLHostConfigCertificate certificate = new SSLHostConfigCertificate(config,
                    SSLHostConfigCertificate.Type.UNDEFINED);
            certificate.setCertificateKeystoreFile(pkcs12Keystore.toAbsolutePath().toString());
            certificate.setCertificateKeystorePassword(password);
            certificate.setCertificateKeystoreType("PKCS12");
            config.addCertificate(certificate);
            this.tls = config;
            return this;
        }

        /** A connector attribute, as in server.xml's {@code <Connector>}. */
        public Builder connectorProperty(String name, String value) {
            connectorProperties.put(name, value);
            return this;
        }

        /**
         * Starts Tomcat.
         *
         * @throws IllegalStateException when Tomcat or an application does not start (the log file is named)
         */
        public EmbeddedTomcat start() {
            Path log = TestLogging.install();
            Tomcat tomcat = new Tomcat();
            tomcat.setBaseDir(createDirectories(baseDir).toString());
            Connector connector = protocol == null ? new Connector() : new Connector(protocol);
            connector.setPort(port);
            connector.setProperty("address", "127.0.0.1");
            connectorProperties.forEach(connector::setProperty);
            upgradeProtocols.forEach(connector::addUpgradeProtocol);
            if (tls != null) {
                connector.setProperty("SSLEnabled", "true");
                connector.setScheme("https");
                connector.setSecure(true);
                connector.addSslHostConfig(tls);
            }
            if (lenient) {
                connector.setAllowBackslash(true);
                connector.setEncodedSolidusHandling("decode");
                connector.setEncodedReverseSolidusHandling("decode");
                connector.setProperty("relaxedPathChars", "\"<>[\\]^`{|}");
                connector.setProperty("relaxedQueryChars", "\"<>[\\]^`{|}");
            }
            tomcat.setConnector(connector);
            tomcat.getHost().setAutoDeploy(false);
            Map<String, Context> contexts = new LinkedHashMap<>();
            for (WebApp app : webapps) {
                contexts.put(app.contextPath(), deploy(tomcat, app));
            }
            EmbeddedTomcat started = new EmbeddedTomcat(tomcat, connector, contexts);
            try {
                tomcat.start();
            } catch (LifecycleException e) {
                throw new IllegalStateException("Tomcat did not start: " + e + "; see " + log, e);
            }
            for (Map.Entry<String, Context> e : contexts.entrySet()) {
                if (!e.getValue().getState().isAvailable()) {
                    started.close();
                    throw new IllegalStateException("web application '" + e.getKey() + "' failed to start (state "
                            + e.getValue().getState() + "); see " + log);
                }
            }
            return started;
        }

        private Context deploy(Tomcat tomcat, WebApp app) {
            return EmbeddedTomcat.deploy(tomcat, app,
                    createDirectories(baseDir.resolve("webapps").resolve(app.baseName())));
        }

        private static Path createDirectories(Path dir) {
            try {
                return Files.createDirectories(dir);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
    }
}
