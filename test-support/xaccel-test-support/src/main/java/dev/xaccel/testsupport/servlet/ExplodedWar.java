package dev.xaccel.testsupport.servlet;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import jakarta.servlet.DispatcherType;

/**
 * A {@link WebApp} as an exploded WAR directory for a server that deploys only what {@code WEB-INF/web.xml}
 * declares (GlassFish, Payara): each filter mapped to {@code /*} in order (the XAccelFilter by class name with its
 * init-params; an instance through {@link InstanceFilter}), each servlet through {@link InstanceServlet}, the MIME
 * mappings. No {@code WEB-INF/lib}: the server's web class loader finds the filter and the instances' classes on the
 * tests' class path. {@link #close()} forgets the instances it registered.
 */
public final class ExplodedWar implements AutoCloseable {

    private final Path dir;
    private final List<String> instanceIds = new ArrayList<>();

    private ExplodedWar(Path dir) {
        this.dir = dir;
    }

    /** Writes {@code app}'s web.xml below {@code dir} (created) and registers its instances. */
    public static ExplodedWar write(WebApp app, Path dir) throws IOException {
        ExplodedWar war = new ExplodedWar(dir);
        Files.createDirectories(dir.resolve("WEB-INF"));
        Files.writeString(dir.resolve("WEB-INF/web.xml"), war.webXml(app), StandardCharsets.UTF_8);
        return war;
    }

    /** The WAR directory. */
    public Path dir() {
        return dir;
    }

    private String webXml(WebApp app) {
        StringBuilder x = new StringBuilder("""
                <?xml version="1.0" encoding="UTF-8"?>
                <web-app xmlns="https://jakarta.ee/xml/ns/jakartaee"
                         xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"
                         xsi:schemaLocation="https://jakarta.ee/xml/ns/jakartaee https://jakarta.ee/xml/ns/jakartaee/web-app_6_0.xsd"
                         version="6.0" metadata-complete="true">
                  <!-- GlassFish and Payara decode query parameters as ISO-8859-1 unless told (docs/containers.md) -->
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

    /** Forgets the instances this WAR registered; the directory stays (under target/, for a look after a run). */
    @Override
    public void close() {
        Instances.remove(instanceIds);
        instanceIds.clear();
    }
}
