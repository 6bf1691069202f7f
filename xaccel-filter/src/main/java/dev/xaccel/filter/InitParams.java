package dev.xaccel.filter;

/**
 * The names and defaults of {@link XAccelFilter}'s init-params, as compile-time constants (usable in
 * {@code @WebInitParam}). What each one means, its type and how it is validated is documented in
 * {@code docs/filter.md}; the table behind parsing, the startup line and that documentation is one list
 * ({@code InitParam}), checked against this class by a test.
 */
public final class InitParams {

    /** Required. {@code ROOT => INTERNAL_URI_PREFIX [expires=SECONDS]} entries separated by newlines or {@code ;}. */
    public static final String LOCATIONS = "locations";
    /** {@code URL_PREFIX => ROOT} entries separated by newlines or {@code ;}. Default: none. */
    public static final String MAPPINGS = "mappings";
    /** {@code auto}, {@code always} or {@code never}. Default {@value #DEFAULT_OFFLOAD}. */
    public static final String OFFLOAD = "offload";
    /** Comma/whitespace separated IPs and CIDRs. Default {@value #DEFAULT_TRUSTED_PROXIES}. */
    public static final String TRUSTED_PROXIES = "trustedProxies";
    /** Request header the front-end server sets. Default {@value #DEFAULT_MARKER_HEADER}. */
    public static final String MARKER_HEADER = "markerHeader";
    /**
     * {@code X-Accel-Redirect} (nginx, Caddy) or {@code X-Sendfile} (Apache, lighttpd). Default
     * {@value #DEFAULT_HEADER_TYPE}.
     */
    public static final String HEADER_TYPE = "headerType";
    /** Bytes per second for {@code X-Accel-Limit-Rate} (nginx only). Default: not sent. */
    public static final String LIMIT_RATE = "limitRate";
    /** Charset token for {@code X-Accel-Charset} (nginx only). Default: not sent. */
    public static final String CHARSET = "charset";
    /** {@code X-Accel-Expires}: seconds or {@code @epoch} (nginx only). Default: not sent. */
    public static final String ACCEL_EXPIRES = "accelExpires";
    /** {@code Cache-Control} on served and offloaded files. Default: not sent. */
    public static final String CACHE_CONTROL = "cacheControl";
    /** {@code inline} or {@code attachment}. Default {@value #DEFAULT_DISPOSITION}. */
    public static final String DISPOSITION = "disposition";
    /** Serve declared files outside every location directly instead of answering 500. Default {@code false}. */
    public static final String ALLOW_UNMAPPED = "allowUnmapped";
    /** Allow path segments starting with {@code .}. Default {@code false}. */
    public static final String ALLOW_HIDDEN = "allowHidden";
    /** {@code within-root} or {@code never}. Default {@value #DEFAULT_SYMLINKS}. */
    public static final String SYMLINKS = "symlinks";
    /** Content type when the servlet context knows none. Default {@value #DEFAULT_DEFAULT_CONTENT_TYPE}. */
    public static final String DEFAULT_CONTENT_TYPE = "defaultContentType";
    /** Hand directly served files to the container's sendfile (which re-opens them by name). Default {@code false}. */
    public static final String SENDFILE = "sendfile";
    /**
     * The front end refuses symbolic links when it opens an offloaded file (nginx {@code disable_symlinks on
     * from=<root>} in every internal location, as the shipped configs do), so offloaded requests check only the
     * file's own name for a link: 2 file-system calls per request instead of one per path segment and one more.
     * Only with {@code headerType=X-Accel-Redirect}. Default {@code false}.
     */
    public static final String FRONT_END_CONFINES = "frontEndConfines";
    /**
     * {@code nginx} or {@code any}: which front end reads the offload answer ({@link FrontEnd}); {@code nginx}
     * leaves out the headers nginx drops across an {@code X-Accel-Redirect}. Only {@code any} with
     * {@code headerType=X-Sendfile}. Default {@value #DEFAULT_FRONT_END}.
     */
    public static final String FRONT_END = "frontEnd";
    /** ObjectName of the MBean, or {@value #JMX_NAME_NONE}. Default derived from context path and filter name. */
    public static final String JMX_NAME = "jmxName";
    /** {@code Vary} of offloaded responses nginx may cache. Default {@value #DEFAULT_CACHE_VARY}. */
    public static final String CACHE_VARY = "cacheVary";
    /** Secret for {@link SignedLinks} (at least 32 characters); setting it enables signed links. Default: off. */
    public static final String SIGNED_LINK_SECRET = "signedLinkSecret";
    /** Public prefix of signed links, e.g. {@code /s/media/}; required with a secret. */
    public static final String SIGNED_LINK_PREFIX = "signedLinkPrefix";
    /** Default lifetime of signed links in seconds. Default {@value #DEFAULT_SIGNED_LINK_TTL}. */
    public static final String SIGNED_LINK_TTL = "signedLinkTtl";
    /** {@code Content-Security-Policy} of every file, or {@value #CONTENT_SECURITY_POLICY_NONE}. */
    public static final String CONTENT_SECURITY_POLICY = "contentSecurityPolicy";
    /** Longest offload header value(s) in bytes. Default {@value #DEFAULT_MAX_REDIRECT_LENGTH}. */
    public static final String MAX_REDIRECT_LENGTH = "maxRedirectLength";

    /**
     * Directories below each root held open for the one-pass open (two descriptors each); {@code 0}: none. Default
     * {@value #DEFAULT_HELD_DIRECTORIES}.
     */
    public static final String HELD_DIRECTORIES = "heldDirectories";
    /** Total bytes of small files kept in memory for direct answers; {@code 0}: off. Default 32 MiB. */
    public static final String SMALL_FILE_CACHE_SIZE = "smallFileCacheSize";
    /** Largest file kept in memory, bytes. Default {@value #DEFAULT_SMALL_FILE_MAX_SIZE}. */
    public static final String SMALL_FILE_MAX_SIZE = "smallFileMaxSize";

    /**
     * The stores {@link XAccelRemote} objects may come from: {@code scheme://host[:port]} origins separated by
     * commas or whitespace. Default: none (every remote object is refused).
     */
    public static final String REMOTE_ORIGINS = "remoteOrigins";

    /**
     * Delivery receipts: {@code off}, {@code direct} (only answers the filter sends itself), the absolute path of
     * nginx's buffered receipt log, which the filter reads as well, or a loopback {@code 127.0.0.1:PORT} where the
     * filter reads nginx's or Apache's receipt lines (syslog over UDP) as well.
     * Default {@value #DEFAULT_RECEIPTS}.
     */
    public static final String RECEIPTS = "receipts";
    /** Class name of an {@link XAccelReceiptListener} (public, no-argument constructor). Default: none. */
    public static final String RECEIPT_LISTENER = "receiptListener";
    /** Seconds an issued receipt waits for the front end's line. Default {@value #DEFAULT_RECEIPT_TIMEOUT}. */
    public static final String RECEIPT_TIMEOUT = "receiptTimeout";
    /** Receipts waiting for the listeners at most (then the oldest go). Default {@value #DEFAULT_RECEIPT_QUEUE}. */
    public static final String RECEIPT_QUEUE = "receiptQueue";

    /** Default of {@value #OFFLOAD}. */
    public static final String DEFAULT_OFFLOAD = "auto";
    /** Default of {@value #TRUSTED_PROXIES}: loopback. */
    public static final String DEFAULT_TRUSTED_PROXIES = "127.0.0.0/8, ::1";
    /** Default of {@value #MARKER_HEADER}. */
    public static final String DEFAULT_MARKER_HEADER = "X-Sendfile-Type";
    /** Default of {@value #HEADER_TYPE}. */
    public static final String DEFAULT_HEADER_TYPE = "X-Accel-Redirect";
    /** Default of {@value #FRONT_END}. */
    public static final String DEFAULT_FRONT_END = "any";
    /** Default of {@value #DISPOSITION}. */
    public static final String DEFAULT_DISPOSITION = "inline";
    /** Default of {@value #SYMLINKS}. */
    public static final String DEFAULT_SYMLINKS = "within-root";
    /** Default of {@value #DEFAULT_CONTENT_TYPE}. */
    public static final String DEFAULT_DEFAULT_CONTENT_TYPE = "application/octet-stream";
    /** Default of {@value #CACHE_VARY}. */
    public static final String DEFAULT_CACHE_VARY = "Cookie, Authorization";
    /** Default of {@value #SIGNED_LINK_TTL}, seconds. */
    public static final long DEFAULT_SIGNED_LINK_TTL = 3600;
    /** Default of {@value #CONTENT_SECURITY_POLICY}: a user's HTML or SVG shown inline cannot run script. */
    public static final String DEFAULT_CONTENT_SECURITY_POLICY =
            "default-src 'none'; style-src 'unsafe-inline'; sandbox";
    /** Default of {@value #MAX_REDIRECT_LENGTH}, bytes. */
    public static final int DEFAULT_MAX_REDIRECT_LENGTH = 2048;
    /** Default of {@value #HELD_DIRECTORIES}: a library of a few thousand books' directories stays open. */
    public static final int DEFAULT_HELD_DIRECTORIES = 4096;
    /**
     * Default of {@value #SMALL_FILE_CACHE_SIZE}, bytes: 32 MiB, taken only as files are kept. A library's few
     * thousand small files fit (2,000 of 8 KiB with their 512 bytes each are 17.4 MB, more than the 16 MiB this
     * was), and it stays a small part of a typical heap: 6 % of 512 MiB, under 1 % of 4 GiB.
     */
    public static final long DEFAULT_SMALL_FILE_CACHE_SIZE = 32L * 1024 * 1024;
    /** Default of {@value #SMALL_FILE_MAX_SIZE}, bytes: 64 KiB. */
    public static final int DEFAULT_SMALL_FILE_MAX_SIZE = 64 * 1024;

    /** Default of {@value #RECEIPTS}. */
    public static final String DEFAULT_RECEIPTS = "off";
    /** Default of {@value #RECEIPT_TIMEOUT}, seconds. */
    public static final long DEFAULT_RECEIPT_TIMEOUT = 3600;
    /** Default of {@value #RECEIPT_QUEUE}. */
    public static final int DEFAULT_RECEIPT_QUEUE = 10000;

    /** {@value #JMX_NAME} value that disables JMX registration. */
    public static final String JMX_NAME_NONE = "none";
    /** {@value #CONTENT_SECURITY_POLICY} value that sends no such header. */
    public static final String CONTENT_SECURITY_POLICY_NONE = "none";

    private InitParams() {
    }
}
