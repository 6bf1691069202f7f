package dev.xaccel.filter;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Enumeration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.logging.Level;
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

/**
 * Answers file requests either by handing the file to the front-end server ({@code X-Accel-Redirect} for
 * nginx, or {@code X-Sendfile}/{@code X-LIGHTTPD-send-file}) or, when offloading is not possible or not
 * allowed for the request, by sending the bytes itself.
 * <p>
 * <b>Mapped mode</b>: requests whose path within the application starts with a {@code mappings} URL prefix
 * are answered by the filter (GET/HEAD only) from the mapped root; the chain is not invoked.
 * <b>Declared mode</b>: every other request goes down the chain with a response wrapper; application code
 * calls {@link XAccel#sendFile} and the filter delivers the file when the chain returns with a 2xx status.
 * <p>
 * Configuration comes either from init-params (parsed and validated once in {@link #init}; every invalid value
 * makes {@code init} throw a {@link ServletException} naming the parameter and the value) or from
 * {@link #builder()}. A builder-configured filter <b>rejects</b> init-params: if the container passes any,
 * {@code init} fails, so there is never a question which of two configurations is in effect.
 * <p>
 * See {@code docs/filter.md} for the parameter table and deployment notes.
 */
public class XAccelFilter implements Filter {

    private static final Logger LOG = Logger.getLogger(XAccelFilter.class.getName());

    /** Required. {@code ROOT => INTERNAL_URI_PREFIX} entries separated by newlines or {@code ;}. */
    public static final String PARAM_LOCATIONS = "locations";
    /** {@code URL_PREFIX => ROOT} entries separated by newlines or {@code ;}. Default: none. */
    public static final String PARAM_MAPPINGS = "mappings";
    /** {@code auto}, {@code always} or {@code never}. Default {@value #DEFAULT_OFFLOAD_VALUE}. */
    public static final String PARAM_OFFLOAD = "offload";
    /** Comma/whitespace separated IPs and CIDRs. Default {@value #DEFAULT_TRUSTED_PROXIES}. */
    public static final String PARAM_TRUSTED_PROXIES = "trustedProxies";
    /** Request header the front-end server sets. Default {@value #DEFAULT_MARKER_HEADER}. */
    public static final String PARAM_MARKER_HEADER = "markerHeader";
    /** {@code X-Accel-Redirect}, {@code X-Sendfile} or {@code X-LIGHTTPD-send-file}. Default {@value #DEFAULT_HEADER_TYPE}. */
    public static final String PARAM_HEADER_TYPE = "headerType";
    /** Bytes per second for {@code X-Accel-Limit-Rate} (nginx only). Default: not sent. */
    public static final String PARAM_LIMIT_RATE = "limitRate";
    /** Charset token for {@code X-Accel-Charset} (nginx only). Default: not sent. */
    public static final String PARAM_CHARSET = "charset";
    /** {@code X-Accel-Expires}: seconds or {@code @epoch} (nginx only). Default: not sent. */
    public static final String PARAM_ACCEL_EXPIRES = "accelExpires";
    /** {@code Cache-Control} on served and offloaded files. Default: not sent. */
    public static final String PARAM_CACHE_CONTROL = "cacheControl";
    /** {@code inline} or {@code attachment}. Default {@value #DEFAULT_DISPOSITION}. */
    public static final String PARAM_DISPOSITION = "disposition";
    /** Serve declared files outside every location directly instead of answering 500. Default {@value #DEFAULT_ALLOW_UNMAPPED}. */
    public static final String PARAM_ALLOW_UNMAPPED = "allowUnmapped";
    /** Allow path segments starting with {@code .}. Default {@value #DEFAULT_ALLOW_HIDDEN}. */
    public static final String PARAM_ALLOW_HIDDEN = "allowHidden";
    /** {@code within-root} or {@code never}. Default {@value #DEFAULT_SYMLINKS}. */
    public static final String PARAM_SYMLINKS = "symlinks";
    /** Content type when the servlet context knows none. Default {@value #DEFAULT_DEFAULT_CONTENT_TYPE}. */
    public static final String PARAM_DEFAULT_CONTENT_TYPE = "defaultContentType";
    /** Use the container's zero-copy sendfile when serving directly. Default {@value #DEFAULT_SENDFILE}. */
    public static final String PARAM_SENDFILE = "sendfile";
    /** ObjectName of the MBean, or {@value #JMX_NAME_NONE}. Default derived from context path and filter name. */
    public static final String PARAM_JMX_NAME = "jmxName";
    /**
     * Request headers that carry credentials, sent as {@code Vary} with every offloaded response that nginx may
     * cache (non-zero {@code X-Accel-Expires}). Default {@value #DEFAULT_CACHE_VARY}.
     */
    public static final String PARAM_CACHE_VARY = "cacheVary";
    /** Secret for {@link SignedLinks} (at least 32 characters); setting it enables signed links. Default: off. */
    public static final String PARAM_SIGNED_LINK_SECRET = "signedLinkSecret";
    /** Public prefix of signed links, e.g. {@code /s/media/}; required with a secret. */
    public static final String PARAM_SIGNED_LINK_PREFIX = "signedLinkPrefix";
    /** Default lifetime of signed links in seconds. Default {@value #DEFAULT_SIGNED_LINK_TTL}. */
    public static final String PARAM_SIGNED_LINK_TTL = "signedLinkTtl";
    /**
     * {@code Content-Security-Policy} sent with every file, or {@value #CONTENT_SECURITY_POLICY_NONE}. Default
     * {@value #DEFAULT_CONTENT_SECURITY_POLICY}: a user's HTML or SVG shown inline cannot run script in the
     * application's origin.
     */
    public static final String PARAM_CONTENT_SECURITY_POLICY = "contentSecurityPolicy";
    /**
     * Longest offload header value(s) in bytes; a longer one is served directly (nginx answers 502 when the headers
     * exceed its {@code proxy_buffer_size}). Default {@value #DEFAULT_MAX_REDIRECT_LENGTH}.
     */
    public static final String PARAM_MAX_REDIRECT_LENGTH = "maxRedirectLength";

    public static final String DEFAULT_OFFLOAD_VALUE = "auto";
    public static final OffloadMode DEFAULT_OFFLOAD = OffloadMode.AUTO;
    public static final String DEFAULT_TRUSTED_PROXIES = "127.0.0.0/8, ::1";
    public static final String DEFAULT_MARKER_HEADER = "X-Sendfile-Type";
    public static final String DEFAULT_HEADER_TYPE = "X-Accel-Redirect";
    public static final String DEFAULT_DISPOSITION = "inline";
    public static final boolean DEFAULT_ALLOW_UNMAPPED = false;
    public static final boolean DEFAULT_ALLOW_HIDDEN = false;
    public static final String DEFAULT_SYMLINKS = "within-root";
    public static final String DEFAULT_DEFAULT_CONTENT_TYPE = "application/octet-stream";
    public static final boolean DEFAULT_SENDFILE = false;
    public static final String DEFAULT_CACHE_VARY = "Cookie, Authorization";
    public static final long DEFAULT_SIGNED_LINK_TTL = 3600;
    public static final String DEFAULT_CONTENT_SECURITY_POLICY = "default-src 'none'; style-src 'unsafe-inline'; sandbox";
    /** {@code contentSecurityPolicy} value that sends no such header. */
    public static final String CONTENT_SECURITY_POLICY_NONE = "none";
    public static final int DEFAULT_MAX_REDIRECT_LENGTH = 2048;
    /** {@code jmxName} value that disables JMX registration. */
    public static final String JMX_NAME_NONE = "none";

    /** Every init-param this filter understands; others are reported with one WARNING at startup. */
    public static final Set<String> PARAMS = Set.of(PARAM_LOCATIONS, PARAM_MAPPINGS, PARAM_OFFLOAD,
            PARAM_TRUSTED_PROXIES, PARAM_MARKER_HEADER, PARAM_HEADER_TYPE, PARAM_LIMIT_RATE, PARAM_CHARSET,
            PARAM_ACCEL_EXPIRES, PARAM_CACHE_CONTROL, PARAM_DISPOSITION, PARAM_ALLOW_UNMAPPED, PARAM_ALLOW_HIDDEN,
            PARAM_SYMLINKS, PARAM_DEFAULT_CONTENT_TYPE, PARAM_SENDFILE, PARAM_JMX_NAME, PARAM_CACHE_VARY,
            PARAM_SIGNED_LINK_SECRET, PARAM_SIGNED_LINK_PREFIX, PARAM_SIGNED_LINK_TTL, PARAM_CONTENT_SECURITY_POLICY,
            PARAM_MAX_REDIRECT_LENGTH);

    static final int BUFFER_SIZE = 64 * 1024;

    private final XAccelConfig preset;
    private final Placeholders placeholders;
    private final Set<String> warnedHeaders = ConcurrentHashMap.newKeySet();
    private final ThrottledLog committedLog = new ThrottledLog(LOG, Level.WARNING);
    private final ThrottledLog unmappedLog = new ThrottledLog(LOG, Level.SEVERE);
    private final ThrottledLog tooLongLog = new ThrottledLog(LOG, Level.WARNING);

    private volatile XAccelConfig config;
    private volatile FilterStatistics stats;
    private volatile DirectFileSender sender;
    private volatile ServletContext servletContext;
    private volatile JmxRegistration jmx;
    private volatile String filterName;

    /** For web.xml / annotations: configured by init-params. */
    public XAccelFilter() {
        this(null, Placeholders.system());
    }

    XAccelFilter(XAccelConfig preset, Placeholders placeholders) {
        this.preset = preset;
        this.placeholders = placeholders;
    }

    /** Programmatic configuration; the built filter rejects init-params. */
    public static XAccelFilterBuilder builder() {
        return new XAccelFilterBuilder();
    }

    @Override
    public void init(FilterConfig filterConfig) throws ServletException {
        filterName = filterConfig.getFilterName();
        List<String> names = new ArrayList<>();
        for (Enumeration<String> e = filterConfig.getInitParameterNames(); e != null && e.hasMoreElements();) {
            names.add(e.nextElement());
        }
        XAccelConfig cfg;
        if (preset != null) {
            if (!names.isEmpty()) {
                throw new ServletException(Messages.get("filter.builderWithInitParams", filterName, names));
            }
            cfg = preset;
        } else {
            Map<String, String> raw = new LinkedHashMap<>();
            List<String> unknown = new ArrayList<>();
            for (String n : names) {
                raw.put(n, filterConfig.getInitParameter(n));
                if (!PARAMS.contains(n)) {
                    unknown.add(n);
                }
            }
            if (!unknown.isEmpty()) {
                Collections.sort(unknown);
                LOG.warning(Messages.get("filter.unknownParams", filterName, unknown));
            }
            try {
                cfg = XAccelConfigParser.fromInitParams(raw, placeholders);
            } catch (ConfigException e) {
                throw new ServletException(e.getMessage(), e);
            }
        }
        this.servletContext = filterConfig.getServletContext();
        boolean publishSignedLinks = cfg.signedLinks != null && servletContext != null;
        if (publishSignedLinks && servletContext.getAttribute(SignedLinks.CONTEXT_ATTRIBUTE) != null) {
            throw new ServletException(Messages.get("filter.signedLinksTwice", filterName,
                    SignedLinks.CONTEXT_ATTRIBUTE));
        }
        this.sender = new DirectFileSender(cfg.sendfile, BUFFER_SIZE);
        warnAboutOpenTimeConfinement(cfg);
        FilterStatistics s = new FilterStatistics(cfg.toString());
        this.stats = s;
        this.config = cfg;
        if (!JMX_NAME_NONE.equals(cfg.jmxName)) {
            String ctx = servletContext == null ? "" : servletContext.getContextPath();
            String name = cfg.jmxName != null ? cfg.jmxName : JmxRegistration.defaultName(ctx, filterName);
            jmx = JmxRegistration.register(name, s);
        }
        if (publishSignedLinks) {
            // last: a failed init must not leave the attribute behind
            servletContext.setAttribute(SignedLinks.CONTEXT_ATTRIBUTE, cfg.signedLinks);
        }
        LOG.info(Messages.get("filter.started", filterName, cfg,
                jmx == null ? JMX_NAME_NONE : jmx.name().toString()));
    }

    /** One line per root the platform cannot open link by link, and one when sendfile re-opens files by name. */
    private void warnAboutOpenTimeConfinement(XAccelConfig cfg) {
        for (Location l : cfg.locations) {
            if (!ConfinedOpener.isConfined(l.root())) {
                LOG.warning(Messages.get("filter.notConfined", filterName, l.root()));
            }
        }
        if (cfg.sendfile) {
            LOG.info(Messages.get("filter.sendfileByName", filterName, PARAM_SENDFILE));
        }
    }

    @Override
    public void destroy() {
        XAccelConfig cfg = config;
        ServletContext ctx = servletContext;
        if (cfg != null && cfg.signedLinks != null && ctx != null
                && ctx.getAttribute(SignedLinks.CONTEXT_ATTRIBUTE) == cfg.signedLinks) {
            ctx.removeAttribute(SignedLinks.CONTEXT_ATTRIBUTE);
        }
        JmxRegistration j = jmx;
        jmx = null;
        if (j != null) {
            j.unregister();
        }
    }

    /** The statistics of this instance (also registered as MBean); {@code null} before init. */
    public XAccelFilterMXBean getStatistics() {
        return stats;
    }

    @Override
    public void doFilter(ServletRequest request, ServletResponse response, FilterChain chain)
            throws IOException, ServletException {
        XAccelConfig cfg = config;
        if (cfg == null) {
            throw new ServletException(Messages.get("filter.notInitialized"));
        }
        if (!(request instanceof HttpServletRequest) || !(response instanceof HttpServletResponse)
                || (request.getAttribute(DeclaredState.ATTRIBUTE) != null
                        && request.getDispatcherType() != DispatcherType.ASYNC)) {
            // not HTTP, or a nested dispatch (forward, include, error page) of a request this filter already
            // handles; an ASYNC dispatch is a new pass of its own (the first one has returned)
            chain.doFilter(request, response);
            return;
        }
        HttpServletRequest req = (HttpServletRequest) request;
        HttpServletResponse resp = (HttpServletResponse) response;
        String pathInApp = pathInApplication(req);
        Mapping mapping = cfg.mappingFor(pathInApp);
        if (mapping != null) {
            serveMapped(cfg, req, resp, mapping, pathInApp);
            return;
        }
        DeclaredState state = new DeclaredState(this, req, resp);
        OffloadResponseWrapper wrapper = new OffloadResponseWrapper(resp, state, warnedHeaders);
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
        XAccelFile declared = state.chainReturned(async);
        if (declared != null) {
            deliverDeclared(state, declared);
        }
    }

    /** servletPath + pathInfo: decoded once and normalized by the container; never the raw request URI. */
    static String pathInApplication(HttpServletRequest req) {
        String sp = req.getServletPath();
        String pi = req.getPathInfo();
        if (sp == null) {
            sp = "";
        }
        return pi == null ? sp : sp + pi;
    }

    private void serveMapped(XAccelConfig cfg, HttpServletRequest req, HttpServletResponse resp, Mapping mapping,
            String pathInApp) throws IOException {
        String method = req.getMethod();
        if (!"GET".equals(method) && !"HEAD".equals(method)) {
            stats.rejected.increment();
            resp.setHeader("Allow", "GET, HEAD");
            resp.sendError(HttpServletResponse.SC_METHOD_NOT_ALLOWED);
            return;
        }
        Resolution r = mapping.resolver().resolve(mapping.remainder(pathInApp));
        if (!r.isOk()) {
            reject(resp, r, pathInApp);
            return;
        }
        Location location = cfg.locationFor(r.file());
        deliver(cfg, req, resp, location == null ? r : location.resolver().rebase(r), location,
                XAccelFile.of(r.file()), false);
    }

    private void reject(HttpServletResponse resp, Resolution r, Object what) throws IOException {
        stats.countRejection(r.status());
        if (LOG.isLoggable(Level.FINE)) {
            LOG.fine(Messages.get("filter.rejected", what, r.status(), r.reason()));
        }
        if (!resp.isCommitted()) {
            resp.sendError(r.status());
        }
    }

    /** Delivers a declared file (called by the filter after the chain, or by {@link DeclaredState} when async). */
    void deliverDeclared(DeclaredState state, XAccelFile file) throws IOException {
        XAccelConfig cfg = config;
        HttpServletResponse resp = state.response();
        OffloadResponseWrapper wrapper = state.wrapper();
        int status = wrapper.getStatus();
        if (status < 200 || status > 299) {
            if (LOG.isLoggable(Level.FINE)) {
                LOG.fine(Messages.get("filter.declaredNot2xx", file.getPath(), status));
            }
            return;
        }
        if (resp.isCommitted()) {
            committedLog.log(() -> Messages.get("filter.declaredCommitted", file.getPath()));
            return;
        }
        if (wrapper.bodyWritten()) {
            resp.resetBuffer();
        }
        Path declared = file.getPath();
        Path real;
        try {
            real = declared.toRealPath();
        } catch (IOException e) {
            reject(resp, Resolution.rejected(404, "not found"), declared);
            return;
        }
        Location location = cfg.locationFor(real);
        Resolution resolved;
        if (location == null) {
            if (!cfg.allowUnmapped) {
                stats.rejected.increment();
                Path outside = real;
                unmappedLog.log(() -> Messages.get("filter.declaredUnmapped", declared, outside));
                resp.sendError(HttpServletResponse.SC_INTERNAL_SERVER_ERROR);
                return;
            }
            // the checks resolveDeclared applies below a location root, here on the whole path
            String bad = SafePathResolver.checkNames(declared, cfg.allowHidden);
            if (bad == null) {
                bad = SafePathResolver.checkNames(real, cfg.allowHidden);
            }
            if (bad != null) {
                reject(resp, Resolution.rejected(404, bad), declared);
                return;
            }
            if (!Files.isRegularFile(real) || !Files.isReadable(real)) {
                reject(resp, Resolution.rejected(404, "not a readable regular file"), declared);
                return;
            }
            resolved = Resolution.outsideRoots(real);
        } else {
            resolved = location.resolver().resolveDeclared(declared);
            if (!resolved.isOk()) {
                reject(resp, resolved, declared);
                return;
            }
        }
        deliver(cfg, state.request(), resp, resolved, location, file, wrapper.bodyWritten());
    }

    /**
     * Answers with the offload header or the file's bytes.
     *
     * @param file     the checked file: below the real root of {@code location}, or outside every root
     * @param location the location containing the file, or {@code null} (then always direct)
     */
    private void deliver(XAccelConfig cfg, HttpServletRequest req, HttpServletResponse resp, Resolution file,
            Location location, XAccelFile declared, boolean resetNeeded) throws IOException {
        FileHeaders headers = fileHeaders(cfg, file.file(), declared);
        OffloadHeaders offload = location != null && shouldOffload(cfg, req)
                ? OffloadHeaders.of(cfg.headerType, location, file) : null;
        if (offload != null && offload.length() > cfg.maxRedirectLength) {
            Path tooLong = file.file();
            int length = offload.length();
            tooLongLog.log(() -> Messages.get("filter.redirectTooLong", tooLong, length,
                    PARAM_MAX_REDIRECT_LENGTH, cfg.maxRedirectLength));
            offload = null;
        }
        if (LOG.isLoggable(Level.FINE)) {
            LOG.fine(Messages.get("filter.deliver", file.file(), offload != null ? "offload" : "direct"));
        }
        // possibly set by downstream code before the declaration (a compressing filter's Content-Encoding, ...)
        ResponseHeaders.remove(resp, OffloadResponseWrapper.FILE_MANAGED_HEADERS);
        if (offload != null) {
            resp.resetBuffer();
            resp.setStatus(HttpServletResponse.SC_OK);
            resp.setContentType(headers.contentType());
            if (headers.contentDisposition() != null) {
                resp.setHeader("Content-Disposition", headers.contentDisposition());
            }
            if (headers.cacheControl() != null) {
                resp.setHeader("Cache-Control", headers.cacheControl());
            }
            headers.writeSecurityHeaders(resp);
            resp.setHeader(cfg.headerType.headerName(), offload.redirect());
            if (cfg.headerType.isNginx()) {
                if (cfg.limitRate != null) {
                    resp.setHeader("X-Accel-Limit-Rate", cfg.limitRate.toString());
                }
                if (cfg.charset != null) {
                    resp.setHeader("X-Accel-Charset", cfg.charset);
                }
                accelExpires(cfg, location, resp, file.file());
                if (location.accelExpires() != null && offload.rawPath() != null) {
                    resp.setHeader(OffloadHeaders.RAW_PATH_HEADER, offload.rawPath());
                }
            }
            resp.setContentLength(0);
            stats.offloaded.increment();
            return;
        }
        if (resetNeeded) {
            // downstream wrote body bytes (and may hold the writer) before declaring the file
            ResponseHeaders.resetKeepingOuterHeaders(resp);
        }
        long bytes = sender.send(req, resp, file, headers);
        if (bytes == DirectFileSender.VANISHED) {
            stats.notFound.increment();
        } else if (bytes == DirectFileSender.FAILED) {
            stats.rejected.increment();
        } else {
            stats.servedDirectly.increment();
            stats.bytesServedDirectly.add(bytes);
        }
    }

    /** Content type (the file's, the context's by extension, the default), disposition and the fixed headers. */
    private FileHeaders fileHeaders(XAccelConfig cfg, Path realFile, XAccelFile file) {
        String fileName = realFile.getFileName().toString();
        String contentType = file.getContentType().orElse(null);
        if (contentType == null && servletContext != null) {
            contentType = servletContext.getMimeType(fileName);
        }
        if (contentType == null) {
            contentType = cfg.defaultContentType;
        }
        String dispositionType = file.getDisposition().orElse(cfg.disposition);
        String contentDisposition = null;
        if (file.getDownloadName().isPresent()) {
            contentDisposition = ContentDisposition.format(dispositionType, file.getDownloadName().get());
        } else if (ContentDisposition.ATTACHMENT.equals(dispositionType)) {
            contentDisposition = ContentDisposition.format(dispositionType, fileName);
        }
        return new FileHeaders(contentType, contentDisposition, cfg.cacheControl, cfg.contentSecurityPolicy);
    }

    /**
     * {@code X-Accel-Expires} of the location (else the global {@code accelExpires}). A cacheable value (not
     * {@code 0}) also gets {@code Vary: <cacheVary>}, merged into one header line (nginx 1.22 reads only the
     * first {@code Vary}); a response carrying {@code Set-Cookie} is never cacheable: {@code X-Accel-Expires: 0}.
     */
    private static void accelExpires(XAccelConfig cfg, Location location, HttpServletResponse resp, Path file) {
        String expires = location.accelExpires() != null ? location.accelExpires() : cfg.accelExpires;
        if (expires == null) {
            return;
        }
        if (!expires.equals("0") && resp.containsHeader("Set-Cookie")) {
            if (LOG.isLoggable(Level.FINE)) {
                LOG.fine(Messages.get("filter.setCookieNotCached", file));
            }
            expires = "0";
        }
        resp.setHeader("X-Accel-Expires", expires);
        if (!expires.equals("0")) {
            String vary = resp.getHeader("Vary");
            resp.setHeader("Vary", vary == null || vary.isBlank() ? cfg.cacheVary : vary + ", " + cfg.cacheVary);
        }
    }

    /** The offload decision. The marker and the header type are compared, never taken from the request. */
    static boolean shouldOffload(XAccelConfig cfg, HttpServletRequest req) {
        switch (cfg.offload) {
            case NEVER:
                return false;
            case ALWAYS:
                return true;
            default:
                String marker = req.getHeader(cfg.markerHeader);
                return marker != null && cfg.headerType.headerName().equalsIgnoreCase(marker.trim())
                        && cfg.trustedProxies.matches(req.getRemoteAddr());
        }
    }

    /** For tests and the builder. */
    XAccelConfig config() {
        return config;
    }

    String filterName() {
        return filterName;
    }

    @Override
    public String toString() {
        return "XAccelFilter[" + Objects.toString(filterName, "") + "]";
    }
}
