package dev.xaccel.filter;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

import jakarta.servlet.DispatcherType;
import jakarta.servlet.Filter;
import jakarta.servlet.Servlet;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import org.apache.catalina.Context;
import org.apache.catalina.LifecycleException;
import org.apache.catalina.Wrapper;
import org.apache.catalina.connector.Connector;
import org.apache.catalina.startup.Tomcat;
import org.apache.tomcat.util.descriptor.web.FilterDef;
import org.apache.tomcat.util.descriptor.web.FilterMap;

/** Embedded Tomcat on 127.0.0.1:0; the filter is declared exactly as web.xml would (FilterDef + FilterMap). */
final class TomcatHarness implements AutoCloseable {

    final Tomcat tomcat = new Tomcat();
    final HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
    private int port;

    TomcatHarness(Path baseDir) throws IOException {
        tomcat.setBaseDir(Files.createDirectories(baseDir.resolve("tomcat")).toString());
        Connector c = new Connector();
        c.setPort(0);
        c.setProperty("address", "127.0.0.1");
        tomcat.setConnector(c);
    }

    /** A context whose unmatched requests reach a catch-all servlet answering 200 "chain". */
    Context context(String path, Path docBase, Map<String, String> initParams) throws IOException {
        return context(path, docBase, initParams, DispatcherType.REQUEST);
    }

    /** Like {@link #context(String, Path, Map)}, the filter mapped for these dispatcher types. */
    Context context(String path, Path docBase, Map<String, String> initParams, DispatcherType... dispatchers)
            throws IOException {
        Context ctx = tomcat.addContext(path, Files.createDirectories(docBase).toString());
        Tomcat.addDefaultMimeTypeMappings(ctx);
        FilterDef def = new FilterDef();
        def.setFilterName("xaccel");
        def.setFilterClass(XAccelFilter.class.getName());
        initParams.forEach(def::addInitParameter);
        ctx.addFilterDef(def);
        FilterMap map = new FilterMap();
        map.setFilterName("xaccel");
        map.addURLPattern("/*");
        for (DispatcherType d : dispatchers) {
            map.setDispatcher(d.name());
        }
        ctx.addFilterMap(map);
        servlet(ctx, "catchAll", "/", new HttpServlet() {
            private static final long serialVersionUID = 1L;

            @Override
            protected void service(HttpServletRequest req, HttpServletResponse resp) throws IOException {
                resp.setContentType("text/plain");
                resp.getWriter().write("chain");
            }
        });
        return ctx;
    }

    /** Maps {@code filter} for all requests, in front of every filter declared so far (an outer filter). */
    static void outerFilter(Context ctx, String name, Filter filter) {
        FilterDef def = new FilterDef();
        def.setFilterName(name);
        def.setFilter(filter);
        def.setFilterClass(filter.getClass().getName());
        ctx.addFilterDef(def);
        FilterMap map = new FilterMap();
        map.setFilterName(name);
        map.addURLPattern("/*");
        ctx.addFilterMapBefore(map);
    }

    static void servlet(Context ctx, String name, String pattern, Servlet servlet) {
        Wrapper w = Tomcat.addServlet(ctx, name, servlet);
        w.setAsyncSupported(true);
        w.addMapping(pattern);
    }

    void start() throws LifecycleException {
        tomcat.start();
        port = tomcat.getConnector().getLocalPort();
    }

    int port() {
        return port;
    }

    HttpResponse<byte[]> get(String pathAndQuery, String... headers) throws IOException, InterruptedException {
        return send("GET", pathAndQuery, headers);
    }

    HttpResponse<byte[]> send(String method, String pathAndQuery, String... headers)
            throws IOException, InterruptedException {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + pathAndQuery))
                .method(method, HttpRequest.BodyPublishers.noBody());
        if (headers.length > 0) {
            b.headers(headers);
        }
        return client.send(b.build(), HttpResponse.BodyHandlers.ofByteArray());
    }

    @Override
    public void close() throws LifecycleException {
        tomcat.stop();
        tomcat.destroy();
    }
}
