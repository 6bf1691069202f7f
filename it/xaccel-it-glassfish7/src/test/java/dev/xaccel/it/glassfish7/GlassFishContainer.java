package dev.xaccel.it.glassfish7;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

import jakarta.servlet.DispatcherType;

import org.glassfish.embeddable.CommandResult;
import org.glassfish.embeddable.GlassFish;
import org.glassfish.embeddable.GlassFishProperties;
import org.glassfish.embeddable.GlassFishRuntime;

import dev.xaccel.testsupport.Ports;
import dev.xaccel.testsupport.TestLogging;
import dev.xaccel.testsupport.TestPaths;
import dev.xaccel.testsupport.servlet.ServletContainer;
import dev.xaccel.testsupport.servlet.WebApp;

/**
 * GlassFish 7 (embedded, in the tests' JVM) on 127.0.0.1 running one {@link WebApp} as a WAR: an exploded
 * directory whose {@code WEB-INF/web.xml} declares each filter (the XAccelFilter by class name with its
 * init-params; an instance through {@link InstanceFilter}) mapped to {@code /*} in order, each servlet, the MIME
 * mappings, deployed with GlassFish's deployer and undeployed by {@link #close()}.
 * <p>
 * One GlassFish per JVM, started with the first application and stopped when the JVM exits: embedded GlassFish
 * cannot start a second server in a JVM once one was disposed (its services' run levels stay set). Each container
 * is a virtual server of its own with an HTTP listener of its own on a free loopback port, made with GlassFish's
 * admin commands and deleted again by {@link #close()}, so that several applications at the root context run at
 * once (the suite's spoofed-marker and symlink-swap classes start two).
 */
final class GlassFishContainer implements ServletContainer {

    private static final AtomicInteger DEPLOYMENTS = new AtomicInteger();
    private static GlassFish glassfish;

    private final String suite;
    private final List<String> instanceIds = new ArrayList<>();
    private String deployed;
    private String listener;
    private String virtualServer;

    private GlassFishContainer(String suite) {
        this.suite = suite;
    }

    private static synchronized GlassFish server() throws Exception {
        if (glassfish == null) {
            // GlassFish unpacks its instance to a temporary directory: below target/, not /tmp
            Path tmp = Files.createDirectories(TestPaths.target().resolve("glassfish-tmp").toAbsolutePath());
            System.setProperty("glassfish.embedded.tmpdir", tmp.toString());
            GlassFishProperties properties = new GlassFishProperties();
            properties.setPort("http-listener", Ports.freeLoopbackPort());
            properties.setProperty("embedded-glassfish-config.server.network-config.network-listeners"
                    + ".network-listener.http-listener.address", "127.0.0.1");
            GlassFish gf = GlassFishRuntime.bootstrap().newGlassFish(properties);
            gf.start();
            Runtime.getRuntime().addShutdownHook(new Thread(() -> {
                try {
                    gf.dispose();
                } catch (Exception e) {
                    // the JVM is going: nothing is left to tell
                }
            }, "glassfish-stop"));
            glassfish = gf;
        }
        return glassfish;
    }

    @Override
    public int start(WebApp app) throws Exception {
        Path log = TestLogging.install();
        String name = suite + "-" + DEPLOYMENTS.incrementAndGet();
        Path war = TestPaths.target().resolve("glassfish-apps").resolve(name).toAbsolutePath();
        Files.createDirectories(war.resolve("WEB-INF"));
        Files.writeString(war.resolve("WEB-INF/web.xml"), webXml(app), StandardCharsets.UTF_8);
        String deployedName;
        int port = Ports.freeLoopbackPort();
        try {
            GlassFish gf = server();
            virtualServer = "vs-" + name;
            admin(gf, "create-virtual-server", "--hosts=127.0.0.1", virtualServer);
            listener = "l-" + name;
            admin(gf, "create-http-listener", "--listeneraddress=127.0.0.1", "--listenerport=" + port,
                    "--defaultvs=" + virtualServer, listener);
            deployedName = gf.getDeployer().deploy(war.toFile(), "--name=" + name, "--virtualservers=" + virtualServer,
                    "--contextroot=" + (app.contextPath().isEmpty() ? "/" : app.contextPath()));
        } catch (Exception e) {
            close();
            throw new IllegalStateException("GlassFish did not start: " + e + "; see " + log, e);
        }
        if (deployedName == null) {
            close();
            throw new IllegalStateException("GlassFish did not deploy " + war + "; see " + log);
        }
        deployed = deployedName;
        return port;
    }

    private static void admin(GlassFish gf, String command, String... args) throws Exception {
        CommandResult result = gf.getCommandRunner().run(command, args);
        if (result.getExitStatus() != CommandResult.ExitStatus.SUCCESS) {
            throw new IllegalStateException(command + " failed: " + result.getOutput(), result.getFailureCause());
        }
    }

    private String webXml(WebApp app) {
        StringBuilder x = new StringBuilder("""
                <?xml version="1.0" encoding="UTF-8"?>
                <web-app xmlns="https://jakarta.ee/xml/ns/jakartaee"
                         xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"
                         xsi:schemaLocation="https://jakarta.ee/xml/ns/jakartaee https://jakarta.ee/xml/ns/jakartaee/web-app_6_0.xsd"
                         version="6.0" metadata-complete="true">
                  <!-- GlassFish decodes query parameters as ISO-8859-1 unless told (docs/containers.md) -->
                  <request-character-encoding>UTF-8</request-character-encoding>
                """);
        for (WebApp.FilterDecl f : app.filters()) {
            String className = f.className();
            Map<String, String> params = f.initParams();
            if (f.instance() != null) {
                className = InstanceFilter.class.getName();
                params = Map.of(Instances.PARAM, track(f.instance()));
            }
            x.append("  <filter>\n    <filter-name>").append(esc(f.name())).append("</filter-name>\n")
                    .append("    <filter-class>").append(className).append("</filter-class>\n")
                    .append("    <async-supported>true</async-supported>\n");
            params.forEach((k, v) -> x.append("    <init-param><param-name>").append(esc(k))
                    .append("</param-name><param-value>").append(esc(v)).append("</param-value></init-param>\n"));
            x.append("  </filter>\n  <filter-mapping>\n    <filter-name>").append(esc(f.name()))
                    .append("</filter-name>\n    <url-pattern>/*</url-pattern>\n");
            for (DispatcherType d : f.dispatchers()) {
                x.append("    <dispatcher>").append(d.name()).append("</dispatcher>\n");
            }
            x.append("  </filter-mapping>\n");
        }
        List<WebApp.ServletDecl> servlets = new ArrayList<>(app.servlets());
        if (app.defaultServlet() != null) {
            servlets.add(new WebApp.ServletDecl("default-replaced", "/", app.defaultServlet()));
        }
        for (WebApp.ServletDecl s : servlets) {
            x.append("  <servlet>\n    <servlet-name>").append(esc(s.name())).append("</servlet-name>\n")
                    .append("    <servlet-class>").append(InstanceServlet.class.getName()).append("</servlet-class>\n")
                    .append("    <init-param><param-name>").append(Instances.PARAM).append("</param-name><param-value>")
                    .append(track(s.servlet())).append("</param-value></init-param>\n")
                    .append("    <load-on-startup>1</load-on-startup>\n")
                    .append("    <async-supported>true</async-supported>\n  </servlet>\n")
                    .append("  <servlet-mapping><servlet-name>").append(esc(s.name()))
                    .append("</servlet-name><url-pattern>").append(esc(s.urlPattern()))
                    .append("</url-pattern></servlet-mapping>\n");
        }
        app.mimeMappings().forEach((ext, type) -> x.append("  <mime-mapping><extension>").append(esc(ext))
                .append("</extension><mime-type>").append(esc(type)).append("</mime-type></mime-mapping>\n"));
        return x.append("</web-app>\n").toString();
    }

    private String track(Object instance) {
        String id = Instances.put(instance);
        instanceIds.add(id);
        return id;
    }

    private static String esc(String s) {
        return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;");
    }

    @Override
    public void close() {
        String name = deployed;
        String l = listener;
        String vs = virtualServer;
        deployed = null;
        listener = null;
        virtualServer = null;
        try {
            if (name != null) {
                glassfish.getDeployer().undeploy(name);
            }
            if (l != null) {
                admin(glassfish, "delete-http-listener", l);
            }
            if (vs != null) {
                admin(glassfish, "delete-virtual-server", vs);
            }
        } catch (Exception e) {
            throw new IllegalStateException("GlassFish did not undeploy " + name, e);
        } finally {
            Instances.remove(instanceIds);
            instanceIds.clear();
        }
    }

    /** Registered in this module's META-INF/services. */
    public static final class Factory implements ServletContainer.Factory {

        @Override
        public String name() {
            return "glassfish-7.0.25";
        }

        @Override
        public ServletContainer create(String suite, boolean lenient) {
            return new GlassFishContainer(suite);
        }

        @Override
        public String servletVersion() {
            return "6.0";
        }

        @Override
        public boolean hasLenientMode() {
            return false;
        }

        @Override
        public String expectedBodyWriter() {
            return "copy";
        }

        /** GlassFish answers 404 to a {@code ;} in the path and 503 to the name with {@code :} (measured). */
        @Override
        public boolean passesName(String name) {
            return !name.contains(";") && !name.contains(":");
        }
    }
}
