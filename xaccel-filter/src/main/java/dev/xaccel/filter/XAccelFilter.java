package dev.xaccel.filter;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Enumeration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.logging.Logger;

import jakarta.servlet.DispatcherType;
import jakarta.servlet.Filter;
import jakarta.servlet.FilterChain;
import jakarta.servlet.FilterConfig;
import jakarta.servlet.ServletContext;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletRequest;
import jakarta.servlet.ServletResponse;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import dev.xaccel.filter.internal.config.InitParam;
import dev.xaccel.filter.internal.config.Location;
import dev.xaccel.filter.internal.config.Mapping;
import dev.xaccel.filter.internal.config.Placeholders;
import dev.xaccel.filter.internal.config.SignedLinksPublication;
import dev.xaccel.filter.internal.config.XAccelConfig;
import dev.xaccel.filter.internal.delivery.DeclaredFiles;
import dev.xaccel.filter.internal.delivery.DeclaredState;
import dev.xaccel.filter.internal.delivery.DirectFileSender;
import dev.xaccel.filter.internal.delivery.FileDelivery;
import dev.xaccel.filter.internal.delivery.MappedFiles;
import dev.xaccel.filter.internal.delivery.OffloadDecision;
import dev.xaccel.filter.internal.delivery.OffloadResponseWrapper;
import dev.xaccel.filter.internal.delivery.RemoteDelivery;
import dev.xaccel.filter.internal.delivery.RootWatch;
import dev.xaccel.filter.internal.fs.ConfinedOpener;
import dev.xaccel.filter.internal.fs.SmallFileCache;
import dev.xaccel.filter.internal.metrics.FilterStatistics;
import dev.xaccel.filter.internal.metrics.JmxRegistration;
import dev.xaccel.filter.internal.receipt.Receipts;
import dev.xaccel.filter.internal.util.Messages;

/**
 * Answers file requests either by handing the file to the front-end server ({@code X-Accel-Redirect} for nginx and
 * Caddy, {@code X-Sendfile} for Apache httpd and lighttpd) or, when offloading is not possible or not allowed for the
 * request, by sending the bytes itself.
 * <p>
 * <b>Mapped mode</b> ({@code MappedFiles}): requests whose path within the application starts with a
 * {@code mappings} URL prefix are answered by the filter (GET/HEAD only) from the mapped root; the chain is not
 * invoked. <b>Declared mode</b> ({@code DeclaredFiles}): every other request goes down the chain with a response
 * wrapper; application code calls {@link XAccel#sendFile} and the filter delivers the file when the chain returns
 * with a 2xx status. Both end in {@code FileDelivery}; a declared remote object ({@link XAccel#sendRemote}) in
 * {@code RemoteDelivery}.
 * <p>
 * Configuration comes either from init-params (parsed and validated once in {@link #init}, names and defaults in
 * {@link InitParams}; every invalid value makes {@code init} throw a {@link ServletException} naming the parameter
 * and the value) or from {@link #builder()}. A builder-configured filter <b>rejects</b> init-params: if the
 * container passes any, {@code init} fails, so there is never a question which of two configurations is in
 * effect. See {@code docs/filter.md} for the parameter table and deployment notes.
 */
public final class XAccelFilter implements Filter {

    private static final Logger LOG = Logger.getLogger(XAccelFilter.class.getName());

    /** Every init-param this filter understands; others are reported with one WARNING at startup. */
    public static final Set<String> PARAMS = InitParam.names();

    /** Copy buffer of directly served bodies. */
    static final int BUFFER_SIZE = 64 * 1024;

    private final XAccelConfig preset;
    private final Placeholders placeholders;

    /** Everything {@code init} made; {@code null} before init. */
    private record Started(String name, FileDelivery delivery, MappedFiles mapped, DeclaredFiles declared,
            OffloadResponseWrapper.Warnings warnings, ServletContext context, JmxRegistration jmx, RootWatch roots) {
    }

    private volatile Started started;

    /** For web.xml / annotations: configured by init-params. */
    public XAccelFilter() {
        this(null, Placeholders.system());
    }

    /** For the builder: configured, rejects init-params. */
    XAccelFilter(XAccelConfig preset) {
        this(preset, Placeholders.system());
    }

    XAccelFilter(XAccelConfig preset, Placeholders placeholders) {
        this.preset = preset;
        this.placeholders = placeholders;
    }

    /**
     * Programmatic configuration; the built filter rejects init-params.
     *
     * @return a new builder
     */
    public static XAccelFilterBuilder builder() {
        return new XAccelFilterBuilder();
    }

    @Override
    public void init(FilterConfig filterConfig) throws ServletException {
        try {
            start(filterConfig);
        } catch (ServletException | RuntimeException e) {
            // Tomcat writes the exception to the context's log only (localhost.<date>.log) and its console just says
            // that a filter failed: this line goes where the container's console handler sends the root's records.
            LOG.severe(Messages.get("filter.notStarted", filterConfig.getFilterName(), e.getMessage()));
            throw e;
        }
    }

    private void start(FilterConfig filterConfig) throws ServletException {
        String name = filterConfig.getFilterName();
        XAccelConfig cfg = configure(name, filterConfig);
        ServletContext ctx = filterConfig.getServletContext();
        SignedLinksPublication links = new SignedLinksPublication(ctx, cfg.signedLinks());
        links.checkFree(name);
        String line = InitParam.describe(cfg);
        RootWatch roots = new RootWatch(cfg);
        SmallFileCache smallFiles = cfg.smallFileCache();
        FilterStatistics stats = smallFiles == null ? new FilterStatistics(line, roots::missingNow)
                : new FilterStatistics(line, roots::missingNow, smallFiles::hits, smallFiles::misses);
        OffloadDecision decision = new OffloadDecision(cfg);
        Receipts receipts;
        try {
            receipts = Receipts.start(name, cfg.receipts(), applicationLoader(), stats, cfg.signedLinks());
        } catch (ConfigException e) {
            throw new ServletException(e.getMessage(), e);
        }
        // Tomcat's sendfile by name tells no one how it ended: not while each delivery gets a receipt
        FileDelivery delivery = new FileDelivery(cfg, stats, decision,
                new DirectFileSender(cfg.sendfile() && !receipts.enabled(), BUFFER_SIZE), ctx, roots, receipts);
        reportConfinement(name, cfg);
        JmxRegistration jmx;
        try {
            jmx = JmxRegistration.forFilter(cfg.jmxName(), ctx, name, stats);
            RemoteDelivery remote = RemoteDelivery.create(cfg, stats, decision, BUFFER_SIZE, ctx, receipts);
            started = new Started(name, delivery, new MappedFiles(delivery), new DeclaredFiles(delivery, remote),
                    new OffloadResponseWrapper.Warnings(), ctx, jmx, roots);
        } catch (RuntimeException e) {
            receipts.close(); // a failed start must not keep the port bound
            throw e;
        }
        links.publish(); // last: a failed init must not leave the attribute behind
        LOG.info(Messages.get("filter.started", name, line, jmx == null ? InitParams.JMX_NAME_NONE : jmx.name()));
    }

    /** The preset, or the init-params parsed once; unknown names get one WARNING. */
    private XAccelConfig configure(String filterName, FilterConfig filterConfig) throws ServletException {
        Map<String, String> raw = new LinkedHashMap<>();
        for (Enumeration<String> e = filterConfig.getInitParameterNames(); e != null && e.hasMoreElements();) {
            String n = e.nextElement();
            raw.put(n, filterConfig.getInitParameter(n));
        }
        if (preset != null) {
            if (!raw.isEmpty()) {
                throw new ServletException(Messages.get("filter.builderWithInitParams", filterName, raw.keySet()));
            }
            return preset;
        }
        List<String> unknown = new ArrayList<>(raw.keySet());
        unknown.removeAll(PARAMS);
        if (!unknown.isEmpty()) {
            Collections.sort(unknown);
            LOG.warning(Messages.get("filter.unknownParams", filterName, unknown));
        }
        try {
            return InitParam.parse(raw, placeholders);
        } catch (ConfigException e) {
            throw new ServletException(e.getMessage(), e);
        }
    }

    /**
     * Logs one WARNING per root this platform cannot open link by link, and one INFO line when {@code sendfile}
     * re-opens directly served files by name.
     */
    private static void reportConfinement(String filterName, XAccelConfig cfg) {
        for (Location l : cfg.locations()) {
            if (!ConfinedOpener.isConfined(l.root())) {
                LOG.warning(Messages.get("filter.notConfined", filterName, l.root()));
            }
        }
        if (cfg.sendfile()) {
            LOG.info(Messages.get("filter.sendfileByName", filterName, InitParams.SENDFILE));
        }
    }

    @Override
    public void destroy() {
        Started s = started;
        started = null;
        if (s != null) {
            new SignedLinksPublication(s.context(), s.delivery().config().signedLinks()).withdraw();
            if (s.jmx() != null) {
                s.jmx().unregister();
            }
            s.roots().close();
            s.delivery().receipts().close();
        }
    }

    /** The application's class loader (a {@code receiptListener} class is the application's), else this one's. */
    private static ClassLoader applicationLoader() {
        ClassLoader l = Thread.currentThread().getContextClassLoader();
        return l != null ? l : XAccelFilter.class.getClassLoader();
    }

    /**
     * The statistics of this instance (also registered as MBean).
     *
     * @return the counters, or {@code null} before init
     */
    public XAccelFilterMXBean getStatistics() {
        Started s = started;
        return s == null ? null : s.delivery().stats();
    }

    @Override
    public void doFilter(ServletRequest request, ServletResponse response, FilterChain chain)
            throws IOException, ServletException {
        Started s = started;
        if (s == null) {
            throw new ServletException(Messages.get("filter.notInitialized"));
        }
        if (!(request instanceof HttpServletRequest req) || !(response instanceof HttpServletResponse resp)
                || (request.getAttribute(DeclaredState.ATTRIBUTE) != null
                        && request.getDispatcherType() != DispatcherType.ASYNC)) {
            // not HTTP, or a nested dispatch (forward, include, error page) of a request this filter already
            // handles; an ASYNC dispatch is a new pass of its own (the first one has returned)
            chain.doFilter(request, response);
            return;
        }
        String pathInApp = pathInApplication(req);
        Mapping mapping = s.delivery().config().mappingFor(pathInApp);
        if (mapping != null) {
            s.mapped().serve(req, resp, mapping, pathInApp);
            return;
        }
        DeclaredState state = new DeclaredState(s.declared(), req, resp);
        OffloadResponseWrapper wrapper = new OffloadResponseWrapper(resp, state::isDeclared, s.warnings());
        state.setWrapper(wrapper);
        req.setAttribute(DeclaredState.ATTRIBUTE, state);
        boolean async = false;
        try {
            chain.doFilter(req, wrapper);
        } finally {
            async = req.isAsyncStarted();
            if (!async) {
                req.removeAttribute(DeclaredState.ATTRIBUTE);
            }
        }
        Declaration<?> declared = state.chainReturned(async);
        if (declared != null) {
            s.declared().deliver(state, declared);
        }
    }

    /**
     * The request's path within the application: servletPath + pathInfo, decoded once and normalized by the
     * container; never the raw request URI.
     */
    static String pathInApplication(HttpServletRequest req) {
        String sp = req.getServletPath();
        String pi = req.getPathInfo();
        if (sp == null) {
            sp = "";
        }
        return pi == null ? sp : sp + pi;
    }

    /** For tests: the effective configuration, or {@code null} before init. */
    XAccelConfig config() {
        Started s = started;
        return s == null ? null : s.delivery().config();
    }

    @Override
    public String toString() {
        Started s = started;
        return "XAccelFilter[" + Objects.toString(s == null ? null : s.name(), "") + "]";
    }
}
