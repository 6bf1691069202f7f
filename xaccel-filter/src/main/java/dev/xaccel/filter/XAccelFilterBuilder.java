package dev.xaccel.filter;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Programmatic configuration of an {@link XAccelFilter}, for {@code ServletContext.addFilter(name, filter)}:
 *
 * <pre>{@code
 * XAccelFilter f = XAccelFilter.builder()
 *         .location(Path.of("/srv/media"), "/_xaccel/media/")
 *         .mapping("/library/", Path.of("/srv/media/library"))
 *         .offload(OffloadMode.AUTO)
 *         .build();
 * servletContext.addFilter("xaccel", f).addMappingForUrlPatterns(null, false, "/*");
 * }</pre>
 *
 * Each method corresponds to the init-param of the same name and is validated by the same code;
 * {@link #build()} throws {@link IllegalArgumentException} with the same message {@code init()} would use.
 * Values are taken literally (no {@code ${env:...}} expansion). A filter built here <b>rejects
 * init-params</b>: its {@code init()} fails if the container passes any. Not thread-safe; build once.
 */
public final class XAccelFilterBuilder {

    private final Map<String, String> params = new HashMap<>();
    private final List<XAccelConfigParser.Entry> locations = new ArrayList<>();
    private final List<XAccelConfigParser.Entry> mappings = new ArrayList<>();

    XAccelFilterBuilder() {
    }

    /** Adds a {@code locations} entry: files below {@code root} are offloaded as {@code uriPrefix + relative path}. */
    public XAccelFilterBuilder location(Path root, String uriPrefix) {
        locations.add(new XAccelConfigParser.Entry(Objects.requireNonNull(root, "root").toString(),
                Objects.requireNonNull(uriPrefix, "uriPrefix")));
        return this;
    }

    /** Adds a {@code mappings} entry: requests below {@code urlPrefix} are answered from {@code root}. */
    public XAccelFilterBuilder mapping(String urlPrefix, Path root) {
        mappings.add(new XAccelConfigParser.Entry(Objects.requireNonNull(urlPrefix, "urlPrefix"),
                Objects.requireNonNull(root, "root").toString()));
        return this;
    }

    public XAccelFilterBuilder offload(OffloadMode mode) {
        return set(XAccelFilter.PARAM_OFFLOAD, Objects.requireNonNull(mode, "mode").paramValue());
    }

    /** Comma/whitespace separated IP literals and CIDRs; empty trusts nobody. */
    public XAccelFilterBuilder trustedProxies(String ipsAndCidrs) {
        return set(XAccelFilter.PARAM_TRUSTED_PROXIES, ipsAndCidrs == null ? "" : ipsAndCidrs);
    }

    public XAccelFilterBuilder markerHeader(String name) {
        return set(XAccelFilter.PARAM_MARKER_HEADER, name);
    }

    public XAccelFilterBuilder headerType(HeaderType type) {
        return set(XAccelFilter.PARAM_HEADER_TYPE, Objects.requireNonNull(type, "type").headerName());
    }

    public XAccelFilterBuilder limitRate(long bytesPerSecond) {
        return set(XAccelFilter.PARAM_LIMIT_RATE, Long.toString(bytesPerSecond));
    }

    public XAccelFilterBuilder charset(String charset) {
        return set(XAccelFilter.PARAM_CHARSET, charset);
    }

    /** Seconds, or {@code @} + epoch seconds. */
    public XAccelFilterBuilder accelExpires(String value) {
        return set(XAccelFilter.PARAM_ACCEL_EXPIRES, value);
    }

    public XAccelFilterBuilder cacheControl(String value) {
        return set(XAccelFilter.PARAM_CACHE_CONTROL, value);
    }

    /** {@code inline} or {@code attachment}. */
    public XAccelFilterBuilder disposition(String type) {
        return set(XAccelFilter.PARAM_DISPOSITION, type);
    }

    public XAccelFilterBuilder allowUnmapped(boolean allow) {
        return set(XAccelFilter.PARAM_ALLOW_UNMAPPED, Boolean.toString(allow));
    }

    public XAccelFilterBuilder allowHidden(boolean allow) {
        return set(XAccelFilter.PARAM_ALLOW_HIDDEN, Boolean.toString(allow));
    }

    /** {@code within-root} or {@code never}. */
    public XAccelFilterBuilder symlinks(String policy) {
        return set(XAccelFilter.PARAM_SYMLINKS, policy);
    }

    public XAccelFilterBuilder defaultContentType(String type) {
        return set(XAccelFilter.PARAM_DEFAULT_CONTENT_TYPE, type);
    }

    public XAccelFilterBuilder sendfile(boolean use) {
        return set(XAccelFilter.PARAM_SENDFILE, Boolean.toString(use));
    }

    /** An ObjectName, or {@code none} to disable JMX; default derived from context path and filter name. */
    public XAccelFilterBuilder jmxName(String name) {
        return set(XAccelFilter.PARAM_JMX_NAME, name);
    }

    /**
     * Adds a {@code locations} entry whose offloaded responses carry {@code X-Accel-Expires: expiresSeconds}
     * (the {@code expires=} option): nginx may cache the authorization decision that long, so <b>revocation
     * takes up to that long</b>.
     */
    public XAccelFilterBuilder location(Path root, String uriPrefix, long expiresSeconds) {
        if (expiresSeconds < 0) {
            throw new IllegalArgumentException(Messages.get("config.invalid", XAccelFilter.PARAM_LOCATIONS,
                    expiresSeconds, Messages.get("config.location.expires")));
        }
        return location(root, uriPrefix + " " + Location.OPTION_EXPIRES + "=" + expiresSeconds);
    }

    /** Header names sent as {@code Vary} with cacheable offloaded responses; default {@code Cookie, Authorization}. */
    public XAccelFilterBuilder cacheVary(String headerNames) {
        return set(XAccelFilter.PARAM_CACHE_VARY, headerNames);
    }

    /**
     * Enables {@link SignedLinks} ({@code signedLinkSecret}, {@code signedLinkPrefix}, {@code signedLinkTtl}).
     * Pass the secret from configuration, never a literal in code.
     */
    public XAccelFilterBuilder signedLinks(String secret, String publicPrefix, long ttlSeconds) {
        set(XAccelFilter.PARAM_SIGNED_LINK_SECRET, secret);
        set(XAccelFilter.PARAM_SIGNED_LINK_PREFIX, publicPrefix);
        return set(XAccelFilter.PARAM_SIGNED_LINK_TTL, Long.toString(ttlSeconds));
    }

    /** {@code Content-Security-Policy} sent with every file, or {@code none}; see the init-param. */
    public XAccelFilterBuilder contentSecurityPolicy(String policy) {
        return set(XAccelFilter.PARAM_CONTENT_SECURITY_POLICY, policy);
    }

    /** Longest offload header value(s) in bytes; longer ones are served directly. */
    public XAccelFilterBuilder maxRedirectLength(int bytes) {
        return set(XAccelFilter.PARAM_MAX_REDIRECT_LENGTH, Integer.toString(bytes));
    }

    /**
     * @throws IllegalArgumentException naming the parameter and value when the configuration is invalid
     *                                  (e.g. a root that does not exist)
     */
    public XAccelFilter build() {
        try {
            return new XAccelFilter(XAccelConfigParser.parse(params, locations, mappings), Placeholders.system());
        } catch (ConfigException e) {
            throw new IllegalArgumentException(e.getMessage(), e);
        }
    }

    private XAccelFilterBuilder set(String param, String value) {
        params.put(param, Objects.requireNonNull(value, param));
        return this;
    }
}
