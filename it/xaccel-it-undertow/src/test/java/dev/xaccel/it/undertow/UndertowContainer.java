package dev.xaccel.it.undertow;

import dev.xaccel.testsupport.TestLogging;
import dev.xaccel.testsupport.servlet.ServletContainer;
import dev.xaccel.testsupport.servlet.WebApp;
import io.undertow.Undertow;
import io.undertow.UndertowOptions;
import io.undertow.Version;
import io.undertow.servlet.Servlets;
import io.undertow.servlet.api.DeploymentInfo;
import io.undertow.servlet.api.DeploymentManager;
import io.undertow.servlet.api.FilterInfo;
import io.undertow.servlet.api.MimeMapping;
import io.undertow.servlet.api.ServletInfo;
import io.undertow.servlet.util.ImmediateInstanceFactory;
import jakarta.servlet.DispatcherType;
import jakarta.servlet.Filter;
import jakarta.servlet.Servlet;
import java.net.InetSocketAddress;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * An embedded Undertow on 127.0.0.1 running one {@link WebApp}, deployed as its web.xml would declare it with
 * {@code Servlets.deployment()}: each filter a {@code FilterInfo} (the XAccelFilter by class, instantiated by
 * Undertow, with its init-params) mapped to {@code /*}, each servlet a {@code ServletInfo}, the MIME mappings;
 * filters initialized at deployment ({@code setEagerFilterInit}).
 */
final class UndertowContainer implements ServletContainer {

    private static final AtomicInteger DEPLOYMENTS = new AtomicInteger();

    private final String suite;
    private final boolean lenient;
    private DeploymentInfo info;
    private DeploymentManager manager;
    private Undertow server;

    private UndertowContainer(String suite, boolean lenient) {
        this.suite = suite;
        this.lenient = lenient;
    }

    @Override
    public int start(WebApp app) throws Exception {
        TestLogging.install();
        // Filters initialized at deployment, so a misconfigured one fails it (Undertow's default: at the first
        // request; WildFly's eager-filter-initialization is this setting)
        DeploymentInfo info = Servlets.deployment()
                .setEagerFilterInit(true)
                .setClassLoader(UndertowContainer.class.getClassLoader())
                .setContextPath(app.contextPath().isEmpty() ? "/" : app.contextPath())
                .setDeploymentName(suite + "-" + DEPLOYMENTS.incrementAndGet());
        app.mimeMappings().forEach((ext, type) -> info.addMimeMapping(new MimeMapping(ext, type)));
        for (WebApp.FilterDecl f : app.filters()) {
            FilterInfo filter = f.instance() != null
                    ? Servlets.filter(f.name(), f.instance().getClass(), new ImmediateInstanceFactory<>(f.instance()))
                    : Servlets.filter(f.name(), Class.forName(f.className()).asSubclass(Filter.class));
            f.initParams().forEach(filter::addInitParam);
            filter.setAsyncSupported(true);
            info.addFilter(filter);
            for (DispatcherType d : f.dispatchers()) {
                info.addFilterUrlMapping(f.name(), "/*", d);
            }
        }
        for (WebApp.ServletDecl d : app.servlets()) {
            info.addServlet(servlet(d.name(), d.urlPattern(), d.servlet()));
        }
        if (app.defaultServlet() != null) {
            info.addServlet(servlet("default", "/", app.defaultServlet()));
        }
        this.info = info;
        manager = Servlets.defaultContainer().addDeployment(info);
        manager.deploy();
        Undertow.Builder builder = Undertow.builder().addHttpListener(0, "127.0.0.1").setHandler(manager.start());
        if (lenient) {
            builder.setServerOption(UndertowOptions.DECODE_SLASH, true)
                    .setServerOption(UndertowOptions.ALLOW_UNESCAPED_CHARACTERS_IN_URL, true);
        }
        server = builder.build();
        server.start();
        return ((InetSocketAddress) server.getListenerInfo().get(0).getAddress()).getPort();
    }

    private static ServletInfo servlet(String name, String pattern, Servlet servlet) {
        return Servlets.servlet(name, servlet.getClass(), new ImmediateInstanceFactory<>(servlet))
                .addMapping(pattern).setAsyncSupported(true);
    }

    @Override
    public void close() {
        try {
            if (server != null) {
                server.stop();
            }
        } finally {
            server = null;
            if (manager != null) {
                try {
                    manager.stop();
                } catch (jakarta.servlet.ServletException e) {
                    throw new IllegalStateException(e);
                } finally {
                    manager.undeploy();
                    Servlets.defaultContainer().removeDeployment(info);
                    manager = null;
                }
            }
        }
    }

    /** Registered in this module's META-INF/services: the filter transfers from its own channel here. */
    public static final class Factory implements ServletContainer.Factory {

        @Override
        public String name() {
            return "undertow-" + Version.getVersionString();
        }

        @Override
        public ServletContainer create(String suite, boolean lenient) {
            return new UndertowContainer(suite, lenient);
        }

        @Override
        public String servletVersion() {
            return "6.0";
        }

        @Override
        public boolean hasLenientMode() {
            return true;
        }

        @Override
        public String expectedBodyWriter() {
            return "channel-transfer";
        }
    }
}
