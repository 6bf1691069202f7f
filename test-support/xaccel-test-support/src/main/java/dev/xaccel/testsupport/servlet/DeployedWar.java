package dev.xaccel.testsupport.servlet;

import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.lang.reflect.Modifier;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.stream.Stream;

import jakarta.servlet.DispatcherType;

import dev.xaccel.testsupport.TestPaths;

/**
 * A {@link WebApp} as a real exploded WAR for a server in another JVM (WildFly, Open Liberty), the way a user
 * deploys the filter: {@code WEB-INF/lib} holds the filter's jar and its dependencies (the directory the system
 * property {@value #LIB} names, copied there by the module's build) and the jars of the test classes the
 * application names (a classes directory is jarred); {@code WEB-INF/web.xml} declares every filter and servlet by
 * class name with string init-params (an instance's from {@link WarDeclared}, none for a class with a public
 * no-argument constructor and no state), and {@link ServerLogLines} for the filter's log lines (its FINE ones too).
 */
public final class DeployedWar {

    /** System property: the directory of the filter's jar and its runtime dependencies. */
    public static final String LIB = "xaccel.war.lib";
    /** The logger whose lines, FINE included, come back to the tests ({@code BodyWriterLog}, TraversalIT). */
    public static final String FILTER_LOGGER = "dev.xaccel.filter";

    private DeployedWar() {
    }

    /**
     * Writes {@code app} as an exploded WAR into {@code dir} (emptied first); {@code extra} files (relative name,
     * text) go in too, e.g. a server's own descriptor.
     */
    public static Path write(WebApp app, Path dir, Map<String, String> extra) throws IOException {
        dir = dir.toAbsolutePath();
        Path lib = Files.createDirectories(freshParent(dir).resolve("WEB-INF/lib"));
        Path state = Files.createDirectories(dir.getParent().resolve(dir.getFileName() + "-state"));
        String libDir = System.getProperty(LIB);
        if (libDir == null || !Files.isDirectory(Path.of(libDir))) {
            throw new IllegalStateException("no directory of the filter's jars: -D" + LIB + "=" + libDir);
        }
        try (Stream<Path> jars = Files.list(Path.of(libDir))) {
            for (Path jar : jars.filter(p -> p.toString().endsWith(".jar")).toList()) {
                Files.copy(jar, lib.resolve(jar.getFileName()));
            }
        }
        Set<Path> sources = new LinkedHashSet<>();
        sources.add(codeSource(DeployedWar.class));
        StringBuilder x = new StringBuilder("""
                <?xml version="1.0" encoding="UTF-8"?>
                <web-app xmlns="https://jakarta.ee/xml/ns/jakartaee"
                         xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"
                         xsi:schemaLocation="https://jakarta.ee/xml/ns/jakartaee https://jakarta.ee/xml/ns/jakartaee/web-app_6_0.xsd"
                         version="6.0" metadata-complete="true">
                  <request-character-encoding>UTF-8</request-character-encoding>
                """);
        x.append(param(ServerLogLines.LOGGER, FILTER_LOGGER))
                .append(param(ServerLogLines.FILE, ServerLogLines.file(FILTER_LOGGER).toString()))
                .append("  <listener><listener-class>").append(ServerLogLines.class.getName())
                .append("</listener-class></listener>\n");
        Files.createDirectories(ServerLogLines.file(FILTER_LOGGER).getParent());
        int n = 0;
        for (WebApp.FilterDecl f : app.filters()) {
            Map<String, String> params = f.initParams();
            if (f.instance() != null) {
                params = declared(f.instance(), state.resolve(f.name()), sources);
            }
            x.append("  <filter>\n    <filter-name>").append(esc(f.name())).append("</filter-name>\n")
                    .append("    <filter-class>").append(f.className()).append("</filter-class>\n")
                    .append("    <async-supported>true</async-supported>\n");
            params.forEach((k, v) -> x.append("    ").append(initParam(k, v)));
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
            Map<String, String> params = declared(s.servlet(), state.resolve("servlet" + n++), sources);
            x.append("  <servlet>\n    <servlet-name>").append(esc(s.name())).append("</servlet-name>\n")
                    .append("    <servlet-class>").append(s.servlet().getClass().getName())
                    .append("</servlet-class>\n");
            params.forEach((k, v) -> x.append("    ").append(initParam(k, v)));
            x.append("    <load-on-startup>1</load-on-startup>\n")
                    .append("    <async-supported>true</async-supported>\n  </servlet>\n")
                    .append("  <servlet-mapping><servlet-name>").append(esc(s.name()))
                    .append("</servlet-name><url-pattern>").append(esc(s.urlPattern()))
                    .append("</url-pattern></servlet-mapping>\n");
        }
        app.mimeMappings().forEach((ext, type) -> x.append("  <mime-mapping><extension>").append(esc(ext))
                .append("</extension><mime-type>").append(esc(type)).append("</mime-type></mime-mapping>\n"));
        Files.writeString(dir.resolve("WEB-INF/web.xml"), x.append("</web-app>\n"), StandardCharsets.UTF_8);
        for (Path source : sources) {
            Path name = lib.resolve(Files.isDirectory(source) ? "classes-" + source.getParent().getParent()
                    .getFileName() + ".jar" : source.getFileName().toString());
            if (!Files.exists(name)) {
                if (Files.isDirectory(source)) {
                    jar(source, name);
                } else {
                    Files.copy(source, name);
                }
            }
        }
        for (Map.Entry<String, String> e : extra.entrySet()) {
            Path file = dir.resolve(e.getKey());
            Files.createDirectories(file.getParent());
            Files.writeString(file, e.getValue(), StandardCharsets.UTF_8);
        }
        return dir;
    }

    private static Path freshParent(Path dir) throws IOException {
        TestPaths.deleteRecursively(dir);
        return Files.createDirectories(dir);
    }

    /** The init-params of an instance declared by its class, whose code source goes into WEB-INF/lib. */
    private static Map<String, String> declared(Object instance, Path state, Set<Path> sources) throws IOException {
        Class<?> type = instance.getClass();
        try {
            if (!Modifier.isPublic(type.getModifiers()) || !Modifier.isPublic(type.getConstructor().getModifiers())) {
                throw new IllegalArgumentException(type + " is not public");
            }
        } catch (NoSuchMethodException e) {
            throw new IllegalArgumentException(type + " has no public no-argument constructor: a server in another "
                    + "JVM cannot make it from web.xml", e);
        }
        sources.add(codeSource(type));
        if (instance instanceof WarDeclared w) {
            return new LinkedHashMap<>(w.warParams(Files.createDirectories(state)));
        }
        return Map.of();
    }

    private static Path codeSource(Class<?> type) {
        try {
            return Path.of(type.getProtectionDomain().getCodeSource().getLocation().toURI());
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }

    private static void jar(Path classes, Path jar) throws IOException {
        try (OutputStream out = Files.newOutputStream(jar); JarOutputStream j = new JarOutputStream(out);
                Stream<Path> files = Files.walk(classes)) {
            for (Path f : files.filter(Files::isRegularFile).toList()) {
                j.putNextEntry(new JarEntry(classes.relativize(f).toString().replace('\\', '/')));
                Files.copy(f, j);
                j.closeEntry();
            }
        } catch (UncheckedIOException e) {
            throw e.getCause();
        }
    }

    private static String param(String name, String value) {
        return "  <context-param><param-name>" + esc(name) + "</param-name><param-value>" + esc(value)
                + "</param-value></context-param>\n";
    }

    private static String initParam(String name, String value) {
        return "<init-param><param-name>" + esc(name) + "</param-name><param-value>" + esc(value)
                + "</param-value></init-param>\n";
    }

    private static String esc(String s) {
        return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;");
    }
}
