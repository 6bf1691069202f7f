package dev.xaccel.spring.boot.autoconfigure;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import org.springframework.boot.context.properties.ConfigurationProperties;

import dev.xaccel.filter.Disposition;
import dev.xaccel.filter.FrontEnd;
import dev.xaccel.filter.HeaderType;
import dev.xaccel.filter.InitParams;
import dev.xaccel.filter.OffloadMode;
import dev.xaccel.filter.SymlinkPolicy;

/**
 * The {@code xaccel.*} properties: one per init-param of {@link dev.xaccel.filter.XAccelFilter}, with the same name
 * in kebab case ({@code trustedProxies} is {@code xaccel.trusted-proxies}), the same type and the same default
 * (the filter's {@link InitParams}; written as literals here so that the configuration metadata shows them, and
 * checked against {@code InitParams} by a test), plus the four properties of the Spring integration itself
 * ({@code enabled}, {@code filter-order}, {@code return-values}, {@code static-resources}) and what the Actuator
 * {@code info} endpoint shows ({@code info.show-configuration}). The values reach the
 * filter through {@link dev.xaccel.filter.XAccelFilterBuilder}, whose typed setters validate them as {@code init()}
 * validates init-params ({@link XAccelFilterFactory}). Placeholders are Spring's ({@code ${MEDIA_ROOT}}), not the
 * filter's.
 */
@ConfigurationProperties(prefix = XAccelProperties.PREFIX)
public class XAccelProperties {

    /** The prefix of every property. */
    public static final String PREFIX = "xaccel";

    /** Whether to register the XAccelFilter and offload Spring MVC file answers. */
    private boolean enabled = true;

    /**
     * Order of the filter registration: right after Spring Security's filter chain (whose default order is -100),
     * so a request is authenticated and authorized before the filter sees it. Keep it above
     * spring.security.filter.order when you change that.
     */
    private int filterOrder = -99;

    /**
     * Whether controller answers that are files (a Resource backed by a file, a ResponseEntity of one, a Path, File
     * or XAccelFile) are handed to the filter instead of being streamed by Spring.
     */
    private boolean returnValues = true;

    /**
     * Whether static resources on the file system (spring.web.resources.static-locations) are handed to the
     * filter; each such location must lie inside one of xaccel.locations.
     */
    private boolean staticResources = false;

    /**
     * Required: data roots and the front end's internal URI prefix of each (init-param locations), as
     * xaccel.locations[0].root, .uri and .expires. The longest root containing a file's real path wins.
     */
    private List<Location> locations = new ArrayList<>();

    /**
     * Mapped mode: URL prefixes the filter answers itself (GET/HEAD) from a root, without running the chain, as
     * xaccel.mappings[0].url-prefix and .root. Default: none.
     */
    private List<Mapping> mappings = new ArrayList<>();

    /**
     * When to offload: auto (only for requests from a trusted proxy that carry the marker header), always or never.
     */
    private OffloadMode offload = OffloadMode.AUTO;

    /**
     * IPv4/IPv6 literals and CIDR blocks, comma or blank separated, whose marker header is believed; empty trusts
     * nobody.
     */
    private String trustedProxies = "127.0.0.0/8, ::1";

    /** Request header the front end sets to the header type (proxy_set_header X-Sendfile-Type X-Accel-Redirect). */
    private String markerHeader = "X-Sendfile-Type";

    /** Offload header: X-Accel-Redirect (nginx, Caddy) or X-Sendfile (Apache httpd, lighttpd). */
    private HeaderType headerType = HeaderType.X_ACCEL_REDIRECT;

    /** Bytes per second sent as X-Accel-Limit-Rate (nginx; 0 = unlimited, no units). Default: not sent. */
    private Long limitRate;

    /** Charset token sent as X-Accel-Charset (nginx). Default: not sent. */
    private String charset;

    /** X-Accel-Expires of locations without their own expires: seconds, or @ and epoch seconds. Default: not sent. */
    private String accelExpires;

    /** Cache-Control of every offloaded or directly served file. Default: not sent. */
    private String cacheControl;

    /** Default Content-Disposition type: inline or attachment. */
    private Disposition disposition = Disposition.INLINE;

    /** Whether declared files outside every location are served directly instead of answering 500. */
    private boolean allowUnmapped = false;

    /** Whether path segments starting with a dot may be served. */
    private boolean allowHidden = false;

    /** Symbolic links below a root: within-root (followed while the target stays inside) or never. */
    private SymlinkPolicy symlinks = SymlinkPolicy.WITHIN_ROOT;

    /** Content type when neither the answer nor the servlet context names one. */
    private String defaultContentType = "application/octet-stream";

    /**
     * Whether directly served files go to Tomcat's zero-copy sendfile, which opens them again by name: only for
     * roots no untrusted party can write.
     */
    private boolean sendfile = false;

    /**
     * Whether nginx refuses symbolic links when it opens an offloaded file (disable_symlinks on from=ROOT in every
     * internal location, as the shipped configs do): then offloaded requests check only the file's own name for a
     * link. Only with header-type X-Accel-Redirect.
     */
    private boolean frontEndConfines = false;

    /**
     * Which front end reads the offload answer: any, or nginx, which drops the validators and security headers
     * across the redirect (computing its own from the file), so they are left out. Only with header-type
     * X-Accel-Redirect, and never behind Caddy.
     */
    private FrontEnd frontEnd = FrontEnd.ANY;

    /**
     * ObjectName of the statistics MBean, or none. Default: derived, dev.xaccel:type=XAccelFilter,context=CONTEXT
     * PATH,name=xaccel.
     */
    private String jmxName;

    /** Vary header names of offloaded answers nginx may cache (X-Accel-Expires other than 0). */
    private String cacheVary = "Cookie, Authorization";

    /**
     * Enables signed links verified by nginx's secure_link (a SignedLinks bean): at least 32 characters of
     * A-Za-z0-9+/=._~-, from a placeholder, never logged. Default: off.
     */
    private String signedLinkSecret;

    /** Public URI prefix of signed links, e.g. /s/media/; required with a secret. Default: none. */
    private String signedLinkPrefix;

    /** Seconds: signed links expire between 1 and 2 times this from now. */
    private long signedLinkTtl = 3600;

    /** Content-Security-Policy sent with every file, or none; nosniff is always sent. */
    private String contentSecurityPolicy = "default-src 'none'; style-src 'unsafe-inline'; sandbox";

    /** Longest offload header value(s) in bytes (at least 256); longer ones are served directly. */
    private int maxRedirectLength = 2048;

    /**
     * Directories below each root held open for the direct path (0 to 65536, two descriptors each); 0: none.
     */
    private int heldDirectories = 4096;

    /**
     * Total bytes of small files answered from memory, each hit validated against the file at its name (0 to 1 GiB);
     * 0: off.
     */
    private long smallFileCacheSize = 33554432;

    /** Largest file kept in memory, in bytes (1 to 16 MiB). */
    private int smallFileMaxSize = 65536;

    /**
     * Stores that declared remote objects (XAccel.sendRemote, presigned S3 URLs) may come from: scheme://host[:port]
     * origins, comma or blank separated; any other origin is refused. Default: none.
     */
    private String remoteOrigins;

    /**
     * Delivery receipts to every XAccelReceiptListener bean: off, direct (only what the filter sends itself), the
     * absolute path of the file nginx's xaccel-receipts.conf logs what it sent to (recommended), or a loopback
     * 127.0.0.1:PORT where nginx's or Apache's xaccel-receipts.conf sends it (docs/filter.md).
     */
    private String receipts = "off";

    /**
     * Class name of one more XAccelReceiptListener (public no-argument constructor); listener beans need none.
     * Default: none.
     */
    private String receiptListener;

    /** Seconds an offload waits for nginx's receipt line before it is reported unreceipted. */
    private long receiptTimeout = 3600;

    /** Receipts that may wait for the listeners; beyond, the oldest are dropped and counted. */
    private int receiptQueue = 10000;

    /** What the Actuator info endpoint shows (xaccel.info.*). */
    private final Info info = new Info();

    /** One entry of {@code xaccel.locations}. */
    public static class Location {

        /** Data root: an existing directory, absolute (its real path is used). */
        private Path root;

        /** The front end's internal URI prefix for this root, e.g. /_xaccel/media/ (starts and ends with /). */
        private String uri;

        /**
         * Seconds nginx may cache the authorization decision (X-Accel-Expires; revocation takes up to that long).
         * Default: off.
         */
        private Long expires;

        /** @return the data root */
        public Path getRoot() {
            return root;
        }

        /** @param root the data root */
        public void setRoot(Path root) {
            this.root = root;
        }

        /** @return the internal URI prefix */
        public String getUri() {
            return uri;
        }

        /** @param uri the internal URI prefix */
        public void setUri(String uri) {
            this.uri = uri;
        }

        /** @return the decision lifetime in seconds, or {@code null} */
        public Long getExpires() {
            return expires;
        }

        /** @param expires the decision lifetime in seconds, or {@code null} */
        public void setExpires(Long expires) {
            this.expires = expires;
        }
    }

    /** One entry of {@code xaccel.mappings}. */
    public static class Mapping {

        /** URL prefix within the application, e.g. /library/ (starts and ends with /). */
        private String urlPrefix;

        /**
         * The root the prefix is answered from; it must lie inside a location unless offload=never or allow-unmapped.
         */
        private Path root;

        /** @return the URL prefix */
        public String getUrlPrefix() {
            return urlPrefix;
        }

        /** @param urlPrefix the URL prefix */
        public void setUrlPrefix(String urlPrefix) {
            this.urlPrefix = urlPrefix;
        }

        /** @return the root */
        public Path getRoot() {
            return root;
        }

        /** @param root the root */
        public void setRoot(Path root) {
            this.root = root;
        }
    }

    /** @return whether the integration is on */
    public boolean isEnabled() {
        return enabled;
    }

    /** @param enabled whether the integration is on */
    public void setEnabled(boolean enabled) {
        this.enabled = enabled;
    }

    /** @return the registration order */
    public int getFilterOrder() {
        return filterOrder;
    }

    /** @param filterOrder the registration order */
    public void setFilterOrder(int filterOrder) {
        this.filterOrder = filterOrder;
    }

    /** @return whether file return values are offloaded */
    public boolean isReturnValues() {
        return returnValues;
    }

    /** @param returnValues whether file return values are offloaded */
    public void setReturnValues(boolean returnValues) {
        this.returnValues = returnValues;
    }

    /** @return whether static resources are offloaded */
    public boolean isStaticResources() {
        return staticResources;
    }

    /** @param staticResources whether static resources are offloaded */
    public void setStaticResources(boolean staticResources) {
        this.staticResources = staticResources;
    }

    /** @return the locations */
    public List<Location> getLocations() {
        return locations;
    }

    /** @param locations the locations */
    public void setLocations(List<Location> locations) {
        this.locations = locations;
    }

    /** @return the mappings */
    public List<Mapping> getMappings() {
        return mappings;
    }

    /** @param mappings the mappings */
    public void setMappings(List<Mapping> mappings) {
        this.mappings = mappings;
    }

    /** @return the offload mode */
    public OffloadMode getOffload() {
        return offload;
    }

    /** @param offload the offload mode */
    public void setOffload(OffloadMode offload) {
        this.offload = offload;
    }

    /** @return the trusted proxies */
    public String getTrustedProxies() {
        return trustedProxies;
    }

    /** @param trustedProxies the trusted proxies */
    public void setTrustedProxies(String trustedProxies) {
        this.trustedProxies = trustedProxies;
    }

    /** @return the marker header */
    public String getMarkerHeader() {
        return markerHeader;
    }

    /** @param markerHeader the marker header */
    public void setMarkerHeader(String markerHeader) {
        this.markerHeader = markerHeader;
    }

    /** @return the header type */
    public HeaderType getHeaderType() {
        return headerType;
    }

    /** @param headerType the header type */
    public void setHeaderType(HeaderType headerType) {
        this.headerType = headerType;
    }

    /** @return the rate limit, or {@code null} */
    public Long getLimitRate() {
        return limitRate;
    }

    /** @param limitRate the rate limit */
    public void setLimitRate(Long limitRate) {
        this.limitRate = limitRate;
    }

    /** @return the charset, or {@code null} */
    public String getCharset() {
        return charset;
    }

    /** @param charset the charset */
    public void setCharset(String charset) {
        this.charset = charset;
    }

    /** @return X-Accel-Expires, or {@code null} */
    public String getAccelExpires() {
        return accelExpires;
    }

    /** @param accelExpires X-Accel-Expires */
    public void setAccelExpires(String accelExpires) {
        this.accelExpires = accelExpires;
    }

    /** @return Cache-Control, or {@code null} */
    public String getCacheControl() {
        return cacheControl;
    }

    /** @param cacheControl Cache-Control */
    public void setCacheControl(String cacheControl) {
        this.cacheControl = cacheControl;
    }

    /** @return the default disposition */
    public Disposition getDisposition() {
        return disposition;
    }

    /** @param disposition the default disposition */
    public void setDisposition(Disposition disposition) {
        this.disposition = disposition;
    }

    /** @return whether files outside every location are served directly */
    public boolean isAllowUnmapped() {
        return allowUnmapped;
    }

    /** @param allowUnmapped whether files outside every location are served directly */
    public void setAllowUnmapped(boolean allowUnmapped) {
        this.allowUnmapped = allowUnmapped;
    }

    /** @return whether hidden names are allowed */
    public boolean isAllowHidden() {
        return allowHidden;
    }

    /** @param allowHidden whether hidden names are allowed */
    public void setAllowHidden(boolean allowHidden) {
        this.allowHidden = allowHidden;
    }

    /** @return the link policy */
    public SymlinkPolicy getSymlinks() {
        return symlinks;
    }

    /** @param symlinks the link policy */
    public void setSymlinks(SymlinkPolicy symlinks) {
        this.symlinks = symlinks;
    }

    /** @return the default content type */
    public String getDefaultContentType() {
        return defaultContentType;
    }

    /** @param defaultContentType the default content type */
    public void setDefaultContentType(String defaultContentType) {
        this.defaultContentType = defaultContentType;
    }

    /** @return whether nginx refuses links at open time */
    public boolean isFrontEndConfines() {
        return frontEndConfines;
    }

    /** @param frontEndConfines whether nginx refuses links at open time */
    public void setFrontEndConfines(boolean frontEndConfines) {
        this.frontEndConfines = frontEndConfines;
    }

    /** @return the front end that reads the offload answer */
    public FrontEnd getFrontEnd() {
        return frontEnd;
    }

    /** @param frontEnd the front end that reads the offload answer */
    public void setFrontEnd(FrontEnd frontEnd) {
        this.frontEnd = frontEnd;
    }

    /** @return whether Tomcat's sendfile is used */
    public boolean isSendfile() {
        return sendfile;
    }

    /** @param sendfile whether Tomcat's sendfile is used */
    public void setSendfile(boolean sendfile) {
        this.sendfile = sendfile;
    }

    /** @return the MBean name, or {@code null} for the derived one */
    public String getJmxName() {
        return jmxName;
    }

    /** @param jmxName the MBean name */
    public void setJmxName(String jmxName) {
        this.jmxName = jmxName;
    }

    /** @return the Vary of cacheable offloads */
    public String getCacheVary() {
        return cacheVary;
    }

    /** @param cacheVary the Vary of cacheable offloads */
    public void setCacheVary(String cacheVary) {
        this.cacheVary = cacheVary;
    }

    /** @return the signed-link secret, or {@code null} */
    public String getSignedLinkSecret() {
        return signedLinkSecret;
    }

    /** @param signedLinkSecret the signed-link secret */
    public void setSignedLinkSecret(String signedLinkSecret) {
        this.signedLinkSecret = signedLinkSecret;
    }

    /** @return the signed-link prefix, or {@code null} */
    public String getSignedLinkPrefix() {
        return signedLinkPrefix;
    }

    /** @param signedLinkPrefix the signed-link prefix */
    public void setSignedLinkPrefix(String signedLinkPrefix) {
        this.signedLinkPrefix = signedLinkPrefix;
    }

    /** @return the signed-link lifetime in seconds */
    public long getSignedLinkTtl() {
        return signedLinkTtl;
    }

    /** @param signedLinkTtl the signed-link lifetime in seconds */
    public void setSignedLinkTtl(long signedLinkTtl) {
        this.signedLinkTtl = signedLinkTtl;
    }

    /** @return the Content-Security-Policy */
    public String getContentSecurityPolicy() {
        return contentSecurityPolicy;
    }

    /** @param contentSecurityPolicy the Content-Security-Policy */
    public void setContentSecurityPolicy(String contentSecurityPolicy) {
        this.contentSecurityPolicy = contentSecurityPolicy;
    }

    /** @return the longest offload header */
    public int getMaxRedirectLength() {
        return maxRedirectLength;
    }

    /** @param maxRedirectLength the longest offload header */
    public void setMaxRedirectLength(int maxRedirectLength) {
        this.maxRedirectLength = maxRedirectLength;
    }

    /** @return the directories below each root held open */
    public int getHeldDirectories() {
        return heldDirectories;
    }

    /** @param heldDirectories the directories below each root held open */
    public void setHeldDirectories(int heldDirectories) {
        this.heldDirectories = heldDirectories;
    }

    /** @return total bytes of small files kept in memory */
    public long getSmallFileCacheSize() {
        return smallFileCacheSize;
    }

    /** @param smallFileCacheSize total bytes of small files kept in memory */
    public void setSmallFileCacheSize(long smallFileCacheSize) {
        this.smallFileCacheSize = smallFileCacheSize;
    }

    /** @return the largest file kept in memory */
    public int getSmallFileMaxSize() {
        return smallFileMaxSize;
    }

    /** @param smallFileMaxSize the largest file kept in memory */
    public void setSmallFileMaxSize(int smallFileMaxSize) {
        this.smallFileMaxSize = smallFileMaxSize;
    }

    /** @return the origins remote objects may come from */
    public String getRemoteOrigins() {
        return remoteOrigins;
    }

    /** @param remoteOrigins the origins remote objects may come from */
    public void setRemoteOrigins(String remoteOrigins) {
        this.remoteOrigins = remoteOrigins;
    }

    /** @return off, direct or the loopback address of nginx's receipt lines */
    public String getReceipts() {
        return receipts;
    }

    /** @param receipts off, direct, the receipt log's absolute path or a loopback IP:PORT */
    public void setReceipts(String receipts) {
        this.receipts = receipts;
    }

    /** @return the class name of a receipt listener, or {@code null} */
    public String getReceiptListener() {
        return receiptListener;
    }

    /** @param receiptListener the class name of a receipt listener */
    public void setReceiptListener(String receiptListener) {
        this.receiptListener = receiptListener;
    }

    /** @return seconds an offload waits for its receipt line */
    public long getReceiptTimeout() {
        return receiptTimeout;
    }

    /** @param receiptTimeout seconds an offload waits for its receipt line */
    public void setReceiptTimeout(long receiptTimeout) {
        this.receiptTimeout = receiptTimeout;
    }

    /** @return receipts that may wait for the listeners */
    public int getReceiptQueue() {
        return receiptQueue;
    }

    /** @param receiptQueue receipts that may wait for the listeners */
    public void setReceiptQueue(int receiptQueue) {
        this.receiptQueue = receiptQueue;
    }

    /** @return what the Actuator info endpoint shows */
    public Info getInfo() {
        return info;
    }

    /** {@code xaccel.info.*}: the Actuator {@code info} contribution. */
    public static class Info {

        /**
         * Whether the info endpoint shows each filter's effective configuration (data roots as absolute paths,
         * trusted proxies, locations): sensitive, for endpoints only trusted users can read. The started state and
         * the counters are always shown.
         */
        private boolean showConfiguration = false;

        /** @return whether the configuration is shown */
        public boolean isShowConfiguration() {
            return showConfiguration;
        }

        /** @param showConfiguration whether the configuration is shown */
        public void setShowConfiguration(boolean showConfiguration) {
            this.showConfiguration = showConfiguration;
        }
    }

    /**
     * The property name of an init-param: {@code trustedProxies} becomes {@code xaccel.trusted-proxies}.
     *
     * @param initParam an init-param name of {@link dev.xaccel.filter.XAccelFilter#PARAMS}
     * @return the property name
     */
    public static String propertyOf(String initParam) {
        StringBuilder sb = new StringBuilder(PREFIX).append('.');
        for (int i = 0; i < initParam.length(); i++) {
            char c = initParam.charAt(i);
            if (Character.isUpperCase(c)) {
                sb.append('-').append(Character.toLowerCase(c));
            } else {
                sb.append(c);
            }
        }
        return sb.toString();
    }
}
