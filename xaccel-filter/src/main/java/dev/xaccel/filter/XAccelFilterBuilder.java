package dev.xaccel.filter;

import java.nio.file.Path;
import java.util.Objects;

import dev.xaccel.filter.internal.config.RemoteOrigins;
import dev.xaccel.filter.internal.config.XAccelConfig;
import dev.xaccel.filter.internal.http.TrustedProxies;

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
 * Each method corresponds to the init-param of the same name and is validated by the same typed setter that
 * {@code init()} binds the init-param to: an invalid value throws {@link IllegalArgumentException} with the message
 * {@code init()} would use, naming the parameter and the value (at once, or from {@link #build()} for what depends
 * on several values, such as a root that must exist). Values are taken literally (no {@code ${env:...}}
 * expansion). A filter built here <b>rejects init-params</b>: its {@code init()} fails if the container passes any.
 * Not thread-safe; build once.
 */
public final class XAccelFilterBuilder {

    private final XAccelConfig.Builder config = new XAccelConfig.Builder();

    XAccelFilterBuilder() {
    }

    /**
     * Adds a {@code locations} entry: files below {@code root} are offloaded as {@code uriPrefix + relative path}.
     *
     * @param root      an existing directory
     * @param uriPrefix the front end's internal prefix, e.g. {@code /_xaccel/media/}
     * @return this builder
     */
    public XAccelFilterBuilder location(Path root, String uriPrefix) {
        config.location(Objects.requireNonNull(root, "root"), uriPrefix, null);
        return this;
    }

    /**
     * Adds a {@code locations} entry whose offloaded responses carry {@code X-Accel-Expires: expiresSeconds}
     * (the {@code expires=} option): nginx may cache the authorization decision that long, so <b>revocation
     * takes up to that long</b>.
     *
     * @param root           an existing directory
     * @param uriPrefix      the front end's internal prefix
     * @param expiresSeconds at least 0
     * @return this builder
     */
    public XAccelFilterBuilder location(Path root, String uriPrefix, long expiresSeconds) {
        config.location(Objects.requireNonNull(root, "root"), uriPrefix, expiresSeconds);
        return this;
    }

    /**
     * Adds a {@code mappings} entry: requests below {@code urlPrefix} are answered from {@code root}.
     *
     * @param urlPrefix starts and ends with {@code /}
     * @param root      an existing directory
     * @return this builder
     */
    public XAccelFilterBuilder mapping(String urlPrefix, Path root) {
        config.mapping(urlPrefix, Objects.requireNonNull(root, "root"));
        return this;
    }

    /**
     * When to offload.
     *
     * @param mode the mode
     * @return this builder
     */
    public XAccelFilterBuilder offload(OffloadMode mode) {
        config.offload(mode);
        return this;
    }

    /**
     * The addresses whose marker header is believed.
     *
     * @param ipsAndCidrs comma/whitespace separated IP literals and CIDRs; empty or {@code null} trusts nobody
     * @return this builder
     */
    public XAccelFilterBuilder trustedProxies(String ipsAndCidrs) {
        config.trustedProxies(TrustedProxies.parse(InitParams.TRUSTED_PROXIES, ipsAndCidrs == null ? "" : ipsAndCidrs));
        return this;
    }

    /**
     * The request header the front end sets.
     *
     * @param name an HTTP token
     * @return this builder
     */
    public XAccelFilterBuilder markerHeader(String name) {
        config.markerHeader(name);
        return this;
    }

    /**
     * The offload header: {@link HeaderType#X_ACCEL_REDIRECT} (nginx, Caddy) or {@link HeaderType#X_SENDFILE}
     * (Apache httpd, lighttpd).
     *
     * @param type the header type
     * @return this builder
     * @throws IllegalArgumentException for the deprecated {@code X-LIGHTTPD-send-file}, which lighttpd ignores
     *                                  through mod_proxy
     */
    public XAccelFilterBuilder headerType(HeaderType type) {
        config.headerType(type);
        return this;
    }

    /**
     * {@code X-Accel-Limit-Rate} (nginx only).
     *
     * @param bytesPerSecond at least 0 ({@code 0} = unlimited)
     * @return this builder
     */
    public XAccelFilterBuilder limitRate(long bytesPerSecond) {
        config.limitRate(bytesPerSecond);
        return this;
    }

    /**
     * {@code X-Accel-Charset} (nginx only).
     *
     * @param charset an HTTP token known to nginx
     * @return this builder
     */
    public XAccelFilterBuilder charset(String charset) {
        config.charset(charset);
        return this;
    }

    /**
     * {@code X-Accel-Expires} of locations without their own {@code expires=} (nginx's cache only).
     *
     * @param value seconds, or {@code @} + epoch seconds
     * @return this builder
     */
    public XAccelFilterBuilder accelExpires(String value) {
        config.accelExpires(value);
        return this;
    }

    /**
     * {@code Cache-Control} of every file.
     *
     * @param value printable ASCII
     * @return this builder
     */
    public XAccelFilterBuilder cacheControl(String value) {
        config.cacheControl(value);
        return this;
    }

    /**
     * The default disposition.
     *
     * @param type the disposition
     * @return this builder
     */
    public XAccelFilterBuilder disposition(Disposition type) {
        config.disposition(type);
        return this;
    }

    /**
     * Whether declared files outside every location are served directly.
     *
     * @param allow {@code true} to serve them, {@code false} (default) to answer 500
     * @return this builder
     */
    public XAccelFilterBuilder allowUnmapped(boolean allow) {
        config.allowUnmapped(allow);
        return this;
    }

    /**
     * Whether names starting with {@code .} may be served.
     *
     * @param allow {@code true} to allow them
     * @return this builder
     */
    public XAccelFilterBuilder allowHidden(boolean allow) {
        config.allowHidden(allow);
        return this;
    }

    /**
     * The symbolic link policy.
     *
     * @param policy the policy
     * @return this builder
     */
    public XAccelFilterBuilder symlinks(SymlinkPolicy policy) {
        config.symlinks(policy);
        return this;
    }

    /**
     * The content type when neither the file nor the servlet context names one.
     *
     * @param type a media type
     * @return this builder
     */
    public XAccelFilterBuilder defaultContentType(String type) {
        config.defaultContentType(type);
        return this;
    }

    /**
     * Whether directly served bodies go to the container's sendfile, which opens the file again by name: only
     * for roots that no untrusted party can write.
     *
     * @param use {@code true} to use it
     * @return this builder
     */
    public XAccelFilterBuilder sendfile(boolean use) {
        config.sendfile(use);
        return this;
    }

    /**
     * Whether the front end refuses symbolic links when it opens an offloaded file (nginx
     * {@code disable_symlinks on from=<root>} in every internal location, as the shipped configs do): then an
     * offloaded request's directories are not checked for links by the filter. Only with {@code X-Accel-Redirect}.
     *
     * @param confines {@code true} when every internal location of the front end refuses links
     * @return this builder
     */
    public XAccelFilterBuilder frontEndConfines(boolean confines) {
        config.frontEndConfines(confines);
        return this;
    }

    /**
     * Which front end reads the offload answer: {@link FrontEnd#NGINX} leaves out the headers nginx drops across an
     * {@code X-Accel-Redirect} (the validators, {@code X-Content-Type-Options}, {@code Content-Security-Policy});
     * only with {@code X-Accel-Redirect}, and never behind Caddy. Default {@link FrontEnd#ANY}.
     *
     * @param frontEnd the front end
     * @return this builder
     */
    public XAccelFilterBuilder frontEnd(FrontEnd frontEnd) {
        config.frontEnd(frontEnd);
        return this;
    }

    /**
     * The MBean's name.
     *
     * @param name an ObjectName, or {@code none} to disable JMX; default derived from context path and filter name
     * @return this builder
     */
    public XAccelFilterBuilder jmxName(String name) {
        config.jmxName(name);
        return this;
    }

    /**
     * Header names sent as {@code Vary} with cacheable offloaded responses.
     *
     * @param headerNames HTTP tokens; default {@code Cookie, Authorization}
     * @return this builder
     */
    public XAccelFilterBuilder cacheVary(String headerNames) {
        config.cacheVary(headerNames);
        return this;
    }

    /**
     * Enables {@link SignedLinks} ({@code signedLinkSecret}, {@code signedLinkPrefix}, {@code signedLinkTtl}).
     * Pass the secret from configuration, never a literal in code.
     *
     * @param secret       at least 32 characters of {@code A-Za-z0-9+/=._~-}
     * @param publicPrefix the public prefix of the links, e.g. {@code /s/media/}
     * @param ttlSeconds   at least 1
     * @return this builder
     */
    public XAccelFilterBuilder signedLinks(String secret, String publicPrefix, long ttlSeconds) {
        config.signedLinkSecret(secret).signedLinkPrefix(publicPrefix).signedLinkTtl(ttlSeconds);
        return this;
    }

    /**
     * {@code Content-Security-Policy} sent with every file.
     *
     * @param policy a header value, or {@code none}
     * @return this builder
     */
    public XAccelFilterBuilder contentSecurityPolicy(String policy) {
        config.contentSecurityPolicy(policy);
        return this;
    }

    /**
     * The longest offload header value(s); longer ones are served directly.
     *
     * @param bytes at least 256
     * @return this builder
     */
    public XAccelFilterBuilder maxRedirectLength(int bytes) {
        config.maxRedirectLength(bytes);
        return this;
    }

    /**
     * How many directories below each root are held open for the one-pass open (two descriptors each).
     *
     * @param count 0 (none: each opened per request) to 65536; default 4096
     * @return this builder
     */
    public XAccelFilterBuilder heldDirectories(int count) {
        config.heldDirectories(count);
        return this;
    }

    /**
     * Total bytes of small files whose bytes are kept in memory for the answers the filter sends itself, each hit
     * validated against the file at its name.
     *
     * @param bytes 0 (off) to 1 GiB; default 32 MiB
     * @return this builder
     */
    public XAccelFilterBuilder smallFileCacheSize(long bytes) {
        config.smallFileCacheSize(bytes);
        return this;
    }

    /**
     * The largest file whose bytes are kept in memory.
     *
     * @param bytes 1 to 16 MiB; default 64 KiB
     * @return this builder
     */
    public XAccelFilterBuilder smallFileMaxSize(int bytes) {
        config.smallFileMaxSize(bytes);
        return this;
    }

    /**
     * The stores declared remote objects ({@link XAccel#sendRemote}) may come from; any other origin is refused.
     *
     * @param origins {@code scheme://host[:port]} origins separated by commas or whitespace, e.g.
     *                {@code https://bucket.s3.eu-west-1.amazonaws.com}; {@code null} or blank for none
     * @return this builder
     */
    public XAccelFilterBuilder remoteOrigins(String origins) {
        config.remoteOrigins(RemoteOrigins.parse(InitParams.REMOTE_ORIGINS, origins));
        return this;
    }

    /**
     * Delivery receipts (docs/filter.md): {@code off}, {@code direct} (only what the filter sends itself), the
     * absolute path of the file the shipped nginx {@code xaccel-receipts.conf} logs to, or the loopback
     * {@code IP:PORT} the shipped nginx or Apache {@code xaccel-receipts.conf} sends its lines to.
     *
     * @param value {@code off}, {@code direct} or e.g. {@code 127.0.0.1:5140}
     * @return this builder
     */
    public XAccelFilterBuilder receipts(String value) {
        config.receipts(value);
        return this;
    }

    /**
     * Adds a listener of delivery receipts (as the {@code receiptListener} init-param names a class); may be
     * called again for more.
     *
     * @param listener called on the filter's receipt thread
     * @return this builder
     */
    public XAccelFilterBuilder receiptListener(XAccelReceiptListener listener) {
        config.receiptListener(listener);
        return this;
    }

    /**
     * A listener of delivery receipts named by class, as the {@code receiptListener} init-param: made at
     * {@code init()} from the application's class loader (a public no-argument constructor).
     *
     * @param className the binary name of an {@link XAccelReceiptListener}
     * @return this builder
     */
    public XAccelFilterBuilder receiptListener(String className) {
        config.receiptListener(className);
        return this;
    }

    /**
     * Seconds an issued receipt waits for the front end's line before it is reported unreceipted.
     *
     * @param seconds 1 to 604800
     * @return this builder
     */
    public XAccelFilterBuilder receiptTimeout(long seconds) {
        config.receiptTimeout(seconds);
        return this;
    }

    /**
     * Receipts that may wait for the listeners; beyond, the oldest are dropped and counted.
     *
     * @param size 1 to 10000000
     * @return this builder
     */
    public XAccelFilterBuilder receiptQueue(int size) {
        config.receiptQueue(size);
        return this;
    }

    /**
     * The filter with this configuration.
     *
     * @return a filter that rejects init-params
     * @throws IllegalArgumentException naming the parameter and value when the configuration is invalid
     *                                  (e.g. a root that does not exist)
     */
    public XAccelFilter build() {
        return new XAccelFilter(config.build());
    }
}
