package dev.xaccel.testsupport.jetty;

import dev.xaccel.testsupport.TestLogging;
import dev.xaccel.testsupport.servlet.ServletContainer;
import dev.xaccel.testsupport.servlet.WebApp;
import jakarta.servlet.Filter;
import jakarta.servlet.Servlet;
import java.lang.reflect.InvocationTargetException;
import java.util.EnumSet;
import java.util.Locale;
import org.eclipse.jetty.http.MimeTypes;
import org.eclipse.jetty.http.UriCompliance;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.HttpConfiguration;
import org.eclipse.jetty.server.HttpConnectionFactory;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.util.Jetty;

/**
 * An embedded Jetty 12 on 127.0.0.1 running one {@link WebApp} in a {@code ServletContextHandler} of one
 * environment (ee10: Servlet 6.0, ee11: Servlet 6.1), deployed as its web.xml would declare it: each filter a
 * {@code FilterHolder} (the XAccelFilter by class name with its init-params) mapped to {@code /*}, each servlet a
 * {@code ServletHolder}, the MIME mappings in the context's table.
 * <p>
 * The two environments have the same classes in two packages ({@code org.eclipse.jetty.ee10.servlet},
 * {@code org.eclipse.jetty.ee11.servlet}), so the holders and the handler are made by name; only Jetty's core is
 * compiled against ({@code provided}: the module that runs it brings the environment it tests).
 */
public final class JettyContainer implements ServletContainer {

    private final String servletPackage;
    private final boolean lenient;
    private Server server;

    private JettyContainer(String environment, boolean lenient) {
        this.servletPackage = "org.eclipse.jetty." + environment + ".servlet.";
        this.lenient = lenient;
    }

    @Override
    public int start(WebApp app) throws Exception {
        TestLogging.install();
        Server s = new Server();
        HttpConfiguration http = new HttpConfiguration();
        http.setSendServerVersion(false);
        // Jetty answers 400 to a %25 in a path by default (an ambiguous encoding): a file named "100%.bin" needs it
        // allowed (docs/containers.md); lenient: ambiguous segments, encoded / and \, backslashes passed on too
        http.setUriCompliance(lenient ? UriCompliance.UNSAFE
                : UriCompliance.DEFAULT.with("xaccel", UriCompliance.Violation.AMBIGUOUS_PATH_ENCODING));
        ServerConnector connector = new ServerConnector(s, new HttpConnectionFactory(http));
        connector.setHost("127.0.0.1");
        connector.setPort(0);
        s.addConnector(connector);
        Object context = load("ServletContextHandler").getConstructor(String.class)
                .newInstance(app.contextPath().isEmpty() ? "/" : app.contextPath());
        Object servletHandler = call(context, "getServletHandler");
        servletHandler.getClass().getMethod("setDecodeAmbiguousURIs", boolean.class).invoke(servletHandler, true);
        MimeTypes.Mutable mime = (MimeTypes.Mutable) call(context, "getMimeTypes");
        app.mimeMappings().forEach((ext, type) -> mime.addMimeMapping(ext.toLowerCase(Locale.ROOT), type));
        Class<?> filterHolder = load("FilterHolder");
        for (WebApp.FilterDecl f : app.filters()) {
            Object holder = f.instance() != null
                    ? filterHolder.getConstructor(Filter.class).newInstance(f.instance())
                    : filterHolder.getConstructor().newInstance();
            filterHolder.getMethod("setName", String.class).invoke(holder, f.name());
            if (f.instance() == null) {
                filterHolder.getMethod("setClassName", String.class).invoke(holder, f.className());
            }
            for (var p : f.initParams().entrySet()) {
                filterHolder.getMethod("setInitParameter", String.class, String.class).invoke(holder, p.getKey(),
                        p.getValue());
            }
            filterHolder.getMethod("setAsyncSupported", boolean.class).invoke(holder, true);
            context.getClass().getMethod("addFilter", filterHolder, String.class, EnumSet.class)
                    .invoke(context, holder, "/*", EnumSet.copyOf(f.dispatchers()));
        }
        for (WebApp.ServletDecl d : app.servlets()) {
            addServlet(context, d.name(), d.urlPattern(), d.servlet());
        }
        if (app.defaultServlet() != null) {
            addServlet(context, "default", "/", app.defaultServlet());
        }
        s.setHandler((Handler) context);
        server = s;
        try {
            s.start();
        } catch (Exception e) {
            close();
            throw new IllegalStateException("Jetty did not start: " + e + "; see " + TestLogging.install(), e);
        }
        return connector.getLocalPort();
    }

    private void addServlet(Object context, String name, String pattern, Servlet servlet) throws Exception {
        Class<?> servletHolder = load("ServletHolder");
        Object holder = servletHolder.getConstructor(String.class, Servlet.class).newInstance(name, servlet);
        servletHolder.getMethod("setAsyncSupported", boolean.class).invoke(holder, true);
        context.getClass().getMethod("addServlet", servletHolder, String.class).invoke(context, holder, pattern);
    }

    private Class<?> load(String simpleName) throws ClassNotFoundException {
        return Class.forName(servletPackage + simpleName);
    }

    private static Object call(Object target, String method) throws Exception {
        try {
            return target.getClass().getMethod(method).invoke(target);
        } catch (InvocationTargetException e) {
            throw e.getCause() instanceof Exception ex ? ex : e;
        }
    }

    @Override
    public void close() {
        Server s = server;
        server = null;
        if (s != null) {
            try {
                s.stop();
            } catch (Exception e) {
                throw new IllegalStateException("Jetty did not stop", e);
            }
        }
    }

    /** Jetty of one environment; registered by the Jetty modules' test resources. */
    public abstract static class Factory implements ServletContainer.Factory {
        private final String environment;
        private final String servletVersion;

        Factory(String environment, String servletVersion) {
            this.environment = environment;
            this.servletVersion = servletVersion;
        }

        @Override
        public String servletVersion() {
            return servletVersion;
        }

        @Override
        public String name() {
            return "jetty-" + Jetty.VERSION + "-" + environment;
        }

        @Override
        public ServletContainer create(String suite, boolean lenient) {
            return new JettyContainer(environment, lenient);
        }

        @Override
        public boolean hasLenientMode() {
            return true;
        }

        @Override
        public String expectedBodyWriter() {
            return "byte-buffer";
        }
    }

    /** Jetty's ee10 environment (Servlet 6.0). */
    public static final class Ee10 extends Factory {
        public Ee10() {
            super("ee10", "6.0");
        }
    }

    /** Jetty's ee11 environment (Servlet 6.1). */
    public static final class Ee11 extends Factory {
        public Ee11() {
            super("ee11", "6.1");
        }
    }
}
