package dev.xaccel.spring.boot.autoconfigure;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import dev.xaccel.filter.ConfigException;
import dev.xaccel.filter.InitParams;
import dev.xaccel.filter.SignedLinks;
import dev.xaccel.filter.XAccelFilter;
import dev.xaccel.filter.XAccelFilterBuilder;
import dev.xaccel.filter.XAccelReceiptListener;

/**
 * How {@link XAccelProperties} reach the filter: every property is handed to the {@link XAccelFilterBuilder}
 * setter of its init-param, defaults included, so the filter's own code validates each value exactly as
 * {@code init()} validates init-params. A value it refuses becomes an {@link InvalidXAccelPropertyException}
 * naming the property, with the filter's message (init-param and value; never the secret). As for init-params,
 * a blank optional string counts as not set, and an empty {@code trusted-proxies} trusts nobody.
 */
final class XAccelFilterFactory {

    /** A builder call that may refuse its value. */
    @FunctionalInterface
    private interface Setter {
        void apply();
    }

    private XAccelFilterFactory() {
    }

    /**
     * The filter the properties describe.
     *
     * @throws InvalidXAccelPropertyException naming the first property the filter refuses
     */
    static XAccelFilter create(XAccelProperties p) {
        return create(p, List.of());
    }

    /**
     * The filter the properties describe, its receipts handed to {@code listeners} as well.
     *
     * @throws InvalidXAccelPropertyException naming the first property the filter refuses
     */
    static XAccelFilter create(XAccelProperties p, List<XAccelReceiptListener> listeners) {
        XAccelFilterBuilder b = XAccelFilter.builder();
        List<XAccelProperties.Location> locations = p.getLocations();
        for (int i = 0; i < locations.size(); i++) {
            XAccelProperties.Location l = locations.get(i);
            String entry = XAccelProperties.PREFIX + ".locations[" + i + "]";
            Path root = required(entry + ".root", l.getRoot());
            String uri = required(entry + ".uri", l.getUri());
            set(entry, () -> {
                if (l.getExpires() == null) {
                    b.location(root, uri);
                } else {
                    b.location(root, uri, l.getExpires());
                }
            });
        }
        List<XAccelProperties.Mapping> mappings = p.getMappings();
        for (int i = 0; i < mappings.size(); i++) {
            XAccelProperties.Mapping m = mappings.get(i);
            String entry = XAccelProperties.PREFIX + ".mappings[" + i + "]";
            String urlPrefix = required(entry + ".url-prefix", m.getUrlPrefix());
            Path root = required(entry + ".root", m.getRoot());
            set(entry, () -> b.mapping(urlPrefix, root));
        }
        if (p.getOffload() != null) {
            set(InitParams.OFFLOAD, () -> b.offload(p.getOffload()));
        }
        set(InitParams.TRUSTED_PROXIES, () -> b.trustedProxies(p.getTrustedProxies()));
        if (given(p.getMarkerHeader())) {
            set(InitParams.MARKER_HEADER, () -> b.markerHeader(p.getMarkerHeader().trim()));
        }
        if (p.getHeaderType() != null) {
            set(InitParams.HEADER_TYPE, () -> b.headerType(p.getHeaderType()));
        }
        if (p.getLimitRate() != null) {
            set(InitParams.LIMIT_RATE, () -> b.limitRate(p.getLimitRate()));
        }
        if (given(p.getCharset())) {
            set(InitParams.CHARSET, () -> b.charset(p.getCharset().trim()));
        }
        if (given(p.getAccelExpires())) {
            set(InitParams.ACCEL_EXPIRES, () -> b.accelExpires(p.getAccelExpires().trim()));
        }
        if (given(p.getCacheControl())) {
            set(InitParams.CACHE_CONTROL, () -> b.cacheControl(p.getCacheControl().trim()));
        }
        if (p.getDisposition() != null) {
            set(InitParams.DISPOSITION, () -> b.disposition(p.getDisposition()));
        }
        set(InitParams.ALLOW_UNMAPPED, () -> b.allowUnmapped(p.isAllowUnmapped()));
        set(InitParams.ALLOW_HIDDEN, () -> b.allowHidden(p.isAllowHidden()));
        if (p.getSymlinks() != null) {
            set(InitParams.SYMLINKS, () -> b.symlinks(p.getSymlinks()));
        }
        if (given(p.getDefaultContentType())) {
            set(InitParams.DEFAULT_CONTENT_TYPE, () -> b.defaultContentType(p.getDefaultContentType().trim()));
        }
        set(InitParams.SENDFILE, () -> b.sendfile(p.isSendfile()));
        set(InitParams.FRONT_END_CONFINES, () -> b.frontEndConfines(p.isFrontEndConfines()));
        if (p.getFrontEnd() != null) {
            set(InitParams.FRONT_END, () -> b.frontEnd(p.getFrontEnd()));
        }
        if (given(p.getJmxName())) {
            set(InitParams.JMX_NAME, () -> b.jmxName(p.getJmxName().trim()));
        }
        if (given(p.getCacheVary())) {
            set(InitParams.CACHE_VARY, () -> b.cacheVary(p.getCacheVary()));
        }
        signedLinks(b, p);
        if (given(p.getContentSecurityPolicy())) {
            set(InitParams.CONTENT_SECURITY_POLICY, () -> b.contentSecurityPolicy(p.getContentSecurityPolicy().trim()));
        }
        set(InitParams.MAX_REDIRECT_LENGTH, () -> b.maxRedirectLength(p.getMaxRedirectLength()));
        set(InitParams.HELD_DIRECTORIES, () -> b.heldDirectories(p.getHeldDirectories()));
        set(InitParams.SMALL_FILE_CACHE_SIZE, () -> b.smallFileCacheSize(p.getSmallFileCacheSize()));
        set(InitParams.SMALL_FILE_MAX_SIZE, () -> b.smallFileMaxSize(p.getSmallFileMaxSize()));
        if (given(p.getRemoteOrigins())) {
            set(InitParams.REMOTE_ORIGINS, () -> b.remoteOrigins(p.getRemoteOrigins()));
        }
        receipts(b, p, listeners);
        try {
            return b.build();
        } catch (IllegalArgumentException e) {
            throw refused(propertyOf(e), e);
        }
    }

    private static void receipts(XAccelFilterBuilder b, XAccelProperties p, List<XAccelReceiptListener> listeners) {
        if (given(p.getReceipts())) {
            set(InitParams.RECEIPTS, () -> b.receipts(p.getReceipts().trim()));
        }
        if (given(p.getReceiptListener())) {
            set(InitParams.RECEIPT_LISTENER, () -> b.receiptListener(p.getReceiptListener().trim()));
        }
        for (XAccelReceiptListener l : listeners) {
            b.receiptListener(l);
        }
        set(InitParams.RECEIPT_TIMEOUT, () -> b.receiptTimeout(p.getReceiptTimeout()));
        set(InitParams.RECEIPT_QUEUE, () -> b.receiptQueue(p.getReceiptQueue()));
    }

    /**
     * The signer the properties describe, validated as the filter validates them.
     *
     * @return the signer, or {@code null} when no secret is set
     */
    static SignedLinks signedLinks(XAccelProperties p) {
        if (!signedLinks(XAccelFilter.builder(), p)) {
            return null;
        }
        return SignedLinks.create(p.getSignedLinkSecret().trim(), p.getSignedLinkPrefix().trim(),
                Duration.ofSeconds(p.getSignedLinkTtl()));
    }

    /** Hands the three signed-link properties to the builder; {@code false} when they are off. */
    private static boolean signedLinks(XAccelFilterBuilder b, XAccelProperties p) {
        boolean secret = given(p.getSignedLinkSecret());
        boolean prefix = given(p.getSignedLinkPrefix());
        if (p.getSignedLinkSecret() != null && !secret) {
            // set but empty (an unset ${XACCEL_LINK_SECRET:}): signing was meant, so fail instead of turning it off
            throw new InvalidXAccelPropertyException(XAccelProperties.propertyOf(InitParams.SIGNED_LINK_SECRET),
                    "empty (remove the property to turn signed links off)", null);
        }
        if (!secret && !prefix) {
            return false;
        }
        if (!secret) {
            throw new InvalidXAccelPropertyException(XAccelProperties.propertyOf(InitParams.SIGNED_LINK_SECRET),
                    "required when " + XAccelProperties.propertyOf(InitParams.SIGNED_LINK_PREFIX) + " is set", null);
        }
        if (!prefix) {
            throw new InvalidXAccelPropertyException(XAccelProperties.propertyOf(InitParams.SIGNED_LINK_PREFIX),
                    "required when " + XAccelProperties.propertyOf(InitParams.SIGNED_LINK_SECRET)
                            + " is set (the public prefix of the links, e.g. /s/media/)", null);
        }
        try {
            b.signedLinks(p.getSignedLinkSecret().trim(), p.getSignedLinkPrefix().trim(), p.getSignedLinkTtl());
        } catch (IllegalArgumentException e) {
            // the builder checks secret, prefix and ttl in this order; its exception names the one it refused
            throw refused(propertyOf(e), e);
        }
        return true;
    }

    private static void set(String initParamOrProperty, Setter setter) {
        try {
            setter.apply();
        } catch (IllegalArgumentException | NullPointerException e) {
            String property = initParamOrProperty.startsWith(XAccelProperties.PREFIX + ".") ? initParamOrProperty
                    : XAccelProperties.propertyOf(initParamOrProperty);
            throw refused(property, e);
        }
    }

    private static InvalidXAccelPropertyException refused(String property, RuntimeException e) {
        String reason = e.getMessage();
        if (property.equals(XAccelProperties.propertyOf(InitParams.LOCATIONS)) && reason != null
                && reason.contains("required")) {
            reason += " (set " + XAccelProperties.PREFIX + ".locations[0].root and " + XAccelProperties.PREFIX
                    + ".locations[0].uri)";
        }
        return new InvalidXAccelPropertyException(property, reason, e);
    }

    /** The property of the init-param the filter refused; {@code xaccel} when the refusal names none. */
    private static String propertyOf(IllegalArgumentException e) {
        return e instanceof ConfigException c ? XAccelProperties.propertyOf(c.param()) : XAccelProperties.PREFIX;
    }

    private static <T> T required(String property, T value) {
        if (value == null || (value instanceof String s && s.isBlank())) {
            throw new InvalidXAccelPropertyException(property, "required", null);
        }
        return value;
    }

    private static boolean given(String value) {
        return value != null && !value.isBlank();
    }
}
