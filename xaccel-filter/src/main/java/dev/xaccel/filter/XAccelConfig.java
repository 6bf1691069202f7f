package dev.xaccel.filter;

import java.nio.file.Path;
import java.util.List;

/**
 * The effective, validated configuration of one {@link XAccelFilter}. Immutable and thread-safe; built once
 * by {@link XAccelConfigParser}. Locations are ordered longest root first, mappings longest prefix first, so
 * the first match is the most specific one.
 */
final class XAccelConfig {

    final List<Location> locations;
    final List<Mapping> mappings;
    final OffloadMode offload;
    final TrustedProxies trustedProxies;
    final String markerHeader;
    final HeaderType headerType;
    /** {@code null} when not configured. */
    final Long limitRate;
    /** {@code null} when not configured. */
    final String charset;
    /** {@code null} when not configured. */
    final String accelExpires;
    /** {@code null} when not configured. */
    final String cacheControl;
    /** {@code inline} or {@code attachment}. */
    final String disposition;
    final boolean allowUnmapped;
    final boolean allowHidden;
    final SymlinkPolicy symlinks;
    final String defaultContentType;
    final boolean sendfile;
    /** {@code null}: derived from context and filter name; {@link XAccelFilter#JMX_NAME_NONE}: disabled. */
    final String jmxName;
    /** The {@code Vary} value sent with cacheable offloaded responses. */
    final String cacheVary;
    /** {@code null} unless {@code signedLinkSecret} is configured. */
    final SignedLinks signedLinks;
    /** {@code null} when disabled ({@code contentSecurityPolicy=none}). */
    final String contentSecurityPolicy;
    final int maxRedirectLength;

    XAccelConfig(List<Location> locations, List<Mapping> mappings, OffloadMode offload,
            TrustedProxies trustedProxies, String markerHeader, HeaderType headerType, Long limitRate,
            String charset, String accelExpires, String cacheControl, String disposition, boolean allowUnmapped,
            boolean allowHidden, SymlinkPolicy symlinks, String defaultContentType, boolean sendfile,
            String jmxName, String cacheVary, SignedLinks signedLinks, String contentSecurityPolicy,
            int maxRedirectLength) {
        this.locations = List.copyOf(locations);
        this.mappings = List.copyOf(mappings);
        this.offload = offload;
        this.trustedProxies = trustedProxies;
        this.markerHeader = markerHeader;
        this.headerType = headerType;
        this.limitRate = limitRate;
        this.charset = charset;
        this.accelExpires = accelExpires;
        this.cacheControl = cacheControl;
        this.disposition = disposition;
        this.allowUnmapped = allowUnmapped;
        this.allowHidden = allowHidden;
        this.symlinks = symlinks;
        this.defaultContentType = defaultContentType;
        this.sendfile = sendfile;
        this.jmxName = jmxName;
        this.cacheVary = cacheVary;
        this.signedLinks = signedLinks;
        this.contentSecurityPolicy = contentSecurityPolicy;
        this.maxRedirectLength = maxRedirectLength;
    }

    /** The most specific location whose real root contains {@code realFile}, or {@code null}. */
    Location locationFor(Path realFile) {
        for (Location l : locations) {
            if (l.resolver().contains(realFile)) {
                return l;
            }
        }
        return null;
    }

    /** The mapping with the longest prefix matching {@code pathInApp}, or {@code null}. */
    Mapping mappingFor(String pathInApp) {
        if (pathInApp == null) {
            return null;
        }
        for (Mapping m : mappings) {
            if (pathInApp.startsWith(m.urlPrefix())) {
                return m;
            }
        }
        return null;
    }

    /** One line, init-param names and effective values (logged at startup, JMX attribute). */
    @Override
    public String toString() {
        StringBuilder sb = new StringBuilder(256);
        sb.append(XAccelFilter.PARAM_LOCATIONS).append('=').append(locations);
        sb.append(", ").append(XAccelFilter.PARAM_MAPPINGS).append('=').append(mappings);
        sb.append(", ").append(XAccelFilter.PARAM_OFFLOAD).append('=').append(offload.paramValue());
        sb.append(", ").append(XAccelFilter.PARAM_TRUSTED_PROXIES).append('=').append(trustedProxies);
        sb.append(", ").append(XAccelFilter.PARAM_MARKER_HEADER).append('=').append(markerHeader);
        sb.append(", ").append(XAccelFilter.PARAM_HEADER_TYPE).append('=').append(headerType.headerName());
        sb.append(", ").append(XAccelFilter.PARAM_LIMIT_RATE).append('=').append(limitRate == null ? "" : limitRate);
        sb.append(", ").append(XAccelFilter.PARAM_CHARSET).append('=').append(charset == null ? "" : charset);
        sb.append(", ").append(XAccelFilter.PARAM_ACCEL_EXPIRES).append('=')
                .append(accelExpires == null ? "" : accelExpires);
        sb.append(", ").append(XAccelFilter.PARAM_CACHE_CONTROL).append('=')
                .append(cacheControl == null ? "" : cacheControl);
        sb.append(", ").append(XAccelFilter.PARAM_DISPOSITION).append('=').append(disposition);
        sb.append(", ").append(XAccelFilter.PARAM_ALLOW_UNMAPPED).append('=').append(allowUnmapped);
        sb.append(", ").append(XAccelFilter.PARAM_ALLOW_HIDDEN).append('=').append(allowHidden);
        sb.append(", ").append(XAccelFilter.PARAM_SYMLINKS).append('=')
                .append(symlinks == SymlinkPolicy.NEVER ? "never" : "within-root");
        sb.append(", ").append(XAccelFilter.PARAM_DEFAULT_CONTENT_TYPE).append('=').append(defaultContentType);
        sb.append(", ").append(XAccelFilter.PARAM_SENDFILE).append('=').append(sendfile);
        sb.append(", ").append(XAccelFilter.PARAM_CACHE_VARY).append('=').append(cacheVary);
        sb.append(", ").append(XAccelFilter.PARAM_CONTENT_SECURITY_POLICY).append('=')
                .append(contentSecurityPolicy == null ? XAccelFilter.CONTENT_SECURITY_POLICY_NONE : contentSecurityPolicy);
        sb.append(", ").append(XAccelFilter.PARAM_MAX_REDIRECT_LENGTH).append('=').append(maxRedirectLength);
        sb.append(", signedLinks=").append(signedLinks == null ? "off" : signedLinks.toString());
        sb.append(", ").append(XAccelFilter.PARAM_JMX_NAME).append('=').append(jmxName == null ? "(derived)" : jmxName);
        return sb.toString();
    }
}
