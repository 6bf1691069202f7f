package dev.xaccel.testsupport.servlet;

import jakarta.servlet.DispatcherType;
import jakarta.servlet.Filter;
import jakarta.servlet.Servlet;
import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * A test web application, described the way a {@code web.xml} declares one and independent of the container that
 * runs it (an embedded Tomcat today; Jetty and Undertow harnesses deploy the same description):
 * <pre>
 * &lt;filter&gt;s, mapped to /* in the order declared   (the XAccelFilter by class name, with string init-params)
 * &lt;servlet&gt;s with their url-patterns               (async-supported, so any of them may start async processing)
 * the default servlet at /                          ({@link NotFoundServlet} unless replaced)
 * &lt;mime-mapping&gt;s                                  (none, the container's default table, or the test's own)
 * </pre>
 */
public final class WebApp {

    /** The filter under test, named by class so that this module does not depend on the filter's. */
    public static final String XACCEL_FILTER_CLASS = "dev.xaccel.filter.XAccelFilter";
    /** Its {@code <filter-name>}. */
    public static final String XACCEL_FILTER_NAME = "xaccel";

    /**
     * A {@code <filter>} and its {@code <filter-mapping>} to {@code /*}: either an instance or a class the
     * container instantiates with {@code initParams}.
     */
    public record FilterDecl(String name, Filter instance, String className, Map<String, String> initParams,
            Set<DispatcherType> dispatchers) {
    }

    /** A {@code <servlet>} and its {@code <servlet-mapping>}. */
    public record ServletDecl(String name, String urlPattern, Servlet servlet) {
    }

    private final String contextPath;
    private final List<FilterDecl> filters = new ArrayList<>();
    private final List<ServletDecl> servlets = new ArrayList<>();
    private final Map<String, String> mimeMappings = new LinkedHashMap<>();
    private boolean containerMimeMappings;
    private Servlet defaultServlet = new NotFoundServlet();

    private WebApp(String contextPath) {
        this.contextPath = Objects.requireNonNull(contextPath);
    }

    /** The application at the root context ({@code ""}). */
    public static WebApp root() {
        return new WebApp("");
    }

    /** The application at {@code contextPath} ({@code ""} or {@code /name}). */
    public static WebApp at(String contextPath) {
        return new WebApp(contextPath);
    }

    /** A filter instance, mapped to {@code /*} for {@code dispatchers} (none given: REQUEST), after those so far. */
    public WebApp filter(String name, Filter filter, DispatcherType... dispatchers) {
        filters.add(new FilterDecl(name, Objects.requireNonNull(filter), filter.getClass().getName(), Map.of(),
                dispatcherSet(dispatchers)));
        return this;
    }

    /** A filter declared by class name with string init-params, as in web.xml; mapped like the others. */
    public WebApp filter(String name, String className, Map<String, String> initParams,
            DispatcherType... dispatchers) {
        filters.add(new FilterDecl(name, null, className, Collections.unmodifiableMap(new LinkedHashMap<>(initParams)),
                dispatcherSet(dispatchers)));
        return this;
    }

    /** The XAccelFilter ({@value #XACCEL_FILTER_CLASS} as {@value #XACCEL_FILTER_NAME}) with these init-params. */
    public WebApp xaccelFilter(Map<String, String> initParams, DispatcherType... dispatchers) {
        return filter(XACCEL_FILTER_NAME, XACCEL_FILTER_CLASS, initParams, dispatchers);
    }

    /** Maps a servlet; {@code urlPattern} is a web.xml url-pattern. */
    public WebApp servlet(String urlPattern, Servlet servlet) {
        servlets.add(new ServletDecl("servlet" + servlets.size(), urlPattern, Objects.requireNonNull(servlet)));
        return this;
    }

    /** Replaces the default servlet (mapped at {@code /}); null leaves {@code /} to the container's own answer. */
    public WebApp defaultServlet(Servlet servlet) {
        this.defaultServlet = servlet;
        return this;
    }

    /** A {@code <mime-mapping>}. */
    public WebApp mimeMapping(String extension, String mimeType) {
        mimeMappings.put(extension, mimeType);
        return this;
    }

    public WebApp mimeMappings(Map<String, String> mappings) {
        mimeMappings.putAll(mappings);
        return this;
    }

    /** The container's default MIME table as well (Tomcat's conf/web.xml list), under the test's own mappings. */
    public WebApp containerMimeMappings() {
        this.containerMimeMappings = true;
        return this;
    }

    public String contextPath() {
        return contextPath;
    }

    /** A name for the context's directories: {@code ROOT} for the root context. */
    public String baseName() {
        return contextPath.isEmpty() ? "ROOT" : contextPath.substring(1).replace('/', '#');
    }

    public List<FilterDecl> filters() {
        return Collections.unmodifiableList(filters);
    }

    public List<ServletDecl> servlets() {
        return Collections.unmodifiableList(servlets);
    }

    /** The default servlet, or null for none. */
    public Servlet defaultServlet() {
        return defaultServlet;
    }

    public Map<String, String> mimeMappings() {
        return Collections.unmodifiableMap(mimeMappings);
    }

    public boolean usesContainerMimeMappings() {
        return containerMimeMappings;
    }

    private static Set<DispatcherType> dispatcherSet(DispatcherType... dispatchers) {
        return dispatchers.length == 0 ? Set.of(DispatcherType.REQUEST)
                : Collections.unmodifiableSet(EnumSet.of(dispatchers[0], dispatchers));
    }
}
