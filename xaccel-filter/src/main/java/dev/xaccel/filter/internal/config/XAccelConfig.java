package dev.xaccel.filter.internal.config;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.regex.Pattern;
import javax.management.MalformedObjectNameException;
import javax.management.ObjectName;

import dev.xaccel.filter.ConfigException;
import dev.xaccel.filter.Disposition;
import dev.xaccel.filter.FrontEnd;
import dev.xaccel.filter.HeaderType;
import dev.xaccel.filter.InitParams;
import dev.xaccel.filter.OffloadMode;
import dev.xaccel.filter.SignedLinks;
import dev.xaccel.filter.SymlinkPolicy;
import dev.xaccel.filter.XAccelFilter;
import dev.xaccel.filter.internal.fs.SafePathResolver;
import dev.xaccel.filter.internal.fs.SmallFileCache;
import dev.xaccel.filter.internal.http.TrustedProxies;
import dev.xaccel.filter.internal.util.Messages;
import dev.xaccel.filter.internal.util.PathRules;
import dev.xaccel.filter.internal.util.ValueRules;

/**
 * The effective, validated configuration of one {@link XAccelFilter}. Immutable and thread-safe; made by
 * {@link Builder}, whose typed setters validate each value (a {@link ConfigException} names the init-param and the
 * value). Locations are ordered longest root first, mappings longest prefix first, so the first match is the most
 * specific one. The startup line that shows it by init-param names is {@link InitParam#describe}.
 *
 * @param locations             at least one
 * @param mappings              possibly none
 * @param offload               when to offload
 * @param trustedProxies        addresses whose marker is believed
 * @param markerHeader          the request header the front end sets
 * @param headerType            the offload header
 * @param limitRate             {@code X-Accel-Limit-Rate}, or {@code null}
 * @param charset               {@code X-Accel-Charset}, or {@code null}
 * @param accelExpires          {@code X-Accel-Expires} of locations without {@code expires=}, or {@code null}
 * @param cacheControl          {@code Cache-Control} of every file, or {@code null}
 * @param disposition           the default disposition
 * @param allowUnmapped         serve declared files outside every location directly
 * @param allowHidden           allow names starting with {@code .}
 * @param symlinks              the link policy
 * @param defaultContentType    the type when nothing else names one
 * @param sendfile              hand direct bodies to the container's sendfile (re-opens by name)
 * @param frontEndConfines      offloaded requests check only the file's own name for a link (the front end
 *                              refuses links at open time)
 * @param frontEnd              which front end reads the offload answer ({@link FrontEnd#NGINX}: the headers
 *                              nginx drops across the redirect are left out)
 * @param jmxName               the MBean name, {@code null} for the derived one, or {@link InitParams#JMX_NAME_NONE}
 * @param cacheVary             the {@code Vary} of cacheable offloads
 * @param signedLinks           the signer, or {@code null} when no secret is configured
 * @param contentSecurityPolicy the policy of every file, or {@code null} for none
 * @param maxRedirectLength     the longest offload header value(s)
 * @param remoteOrigins         the stores declared remote objects may come from (none: all refused)
 * @param heldDirectories       the most directories below each root held open (0: none)
 * @param smallFileCacheSize    total bytes of small files kept in memory (0: none)
 * @param smallFileMaxSize      the largest file kept in memory
 * @param smallFileCache        the kept files, shared by every root's resolver; {@code null} when off
 * @param receipts              delivery receipts ({@link ReceiptSettings#OFF} by default)
 */
public record XAccelConfig(List<Location> locations, List<Mapping> mappings, OffloadMode offload,
        TrustedProxies trustedProxies, String markerHeader, HeaderType headerType, Long limitRate, String charset,
        String accelExpires, String cacheControl, Disposition disposition, boolean allowUnmapped,
        boolean allowHidden, SymlinkPolicy symlinks, String defaultContentType, boolean sendfile,
        boolean frontEndConfines, FrontEnd frontEnd, String jmxName, String cacheVary, SignedLinks signedLinks,
        String contentSecurityPolicy, int maxRedirectLength, RemoteOrigins remoteOrigins, int heldDirectories,
        long smallFileCacheSize, int smallFileMaxSize, SmallFileCache smallFileCache,
        ReceiptSettings receipts) {

    /** Shortest accepted {@code maxRedirectLength}: every offload header below it would be refused anyway. */
    public static final int MIN_REDIRECT_LENGTH = 256;
    /** Most {@code heldDirectories}: 131,072 descriptors per root, within a usual hard limit. */
    public static final int MAX_HELD_DIRECTORIES = 65536;
    /** Most {@code smallFileCacheSize}: 1 GiB, memory a heap holds without a second thought elsewhere. */
    public static final long MAX_SMALL_FILE_CACHE_SIZE = 1L << 30;
    /** Most {@code smallFileMaxSize}: 16 MiB; larger files leave through the container's zero-copy ways. */
    public static final int MAX_SMALL_FILE_MAX_SIZE = 16 * 1024 * 1024;

    private static final Pattern MEDIA_TYPE = Pattern.compile(
            "[!#$%&'*+.^_`|~0-9A-Za-z-]+/[!#$%&'*+.^_`|~0-9A-Za-z-]+(\\s*;\\s*[^\\u0000-\\u001f\\u007f]*)?");

    public XAccelConfig {
        locations = List.copyOf(locations);
        mappings = List.copyOf(mappings);
    }

    /** The most specific location whose real root contains {@code realFile}, or {@code null}. */
    public Location locationFor(Path realFile) {
        for (Location l : locations) {
            if (realFile.startsWith(l.root())) {
                return l;
            }
        }
        return null;
    }

    /**
     * The most specific location whose real root starts the name of {@code absoluteFile} (compared by name
     * elements, not by string), or {@code null}. For a name without {@code .}/{@code ..} segments and without a
     * link below that root, this is {@link #locationFor} of its real path.
     */
    public Location locationNamed(Path absoluteFile) {
        for (Location l : locations) {
            if (absoluteFile.startsWith(l.root())) {
                return l;
            }
        }
        return null;
    }

    /** The mapping with the longest prefix matching {@code pathInApp}, or {@code null}. */
    public Mapping mappingFor(String pathInApp) {
        if (pathInApp == null) {
            return null;
        }
        // indexed: no iterator on every request
        for (int i = 0; i < mappings.size(); i++) {
            Mapping m = mappings.get(i);
            if (pathInApp.startsWith(m.urlPrefix())) {
                return m;
            }
        }
        return null;
    }

    /** Typed, validating setters; {@link #build()} checks what depends on several values. Not thread-safe. */
    public static final class Builder {

        private record LocationEntry(Path root, String uriPrefix, Long expires) {
        }

        private record MappingEntry(String urlPrefix, Path root) {
        }

        private final List<LocationEntry> locations = new ArrayList<>();
        private final List<MappingEntry> mappings = new ArrayList<>();
        private OffloadMode offload = OffloadMode.AUTO;
        private TrustedProxies trustedProxies = TrustedProxies.parse(InitParams.TRUSTED_PROXIES,
                InitParams.DEFAULT_TRUSTED_PROXIES);
        private String markerHeader = InitParams.DEFAULT_MARKER_HEADER;
        private HeaderType headerType = HeaderType.X_ACCEL_REDIRECT;
        private Long limitRate;
        private String charset;
        private String accelExpires;
        private String cacheControl;
        private Disposition disposition = Disposition.INLINE;
        private boolean allowUnmapped;
        private boolean allowHidden;
        private SymlinkPolicy symlinks = SymlinkPolicy.WITHIN_ROOT;
        private String defaultContentType = InitParams.DEFAULT_DEFAULT_CONTENT_TYPE;
        private boolean sendfile;
        private boolean frontEndConfines;
        private FrontEnd frontEnd = FrontEnd.ANY;
        private String jmxName;
        private String cacheVary = InitParams.DEFAULT_CACHE_VARY;
        private String signedLinkSecret;
        private String signedLinkPrefix;
        private Long signedLinkTtl;
        private String contentSecurityPolicy = InitParams.DEFAULT_CONTENT_SECURITY_POLICY;
        private int maxRedirectLength = InitParams.DEFAULT_MAX_REDIRECT_LENGTH;
        private RemoteOrigins remoteOrigins = RemoteOrigins.NONE;
        private int heldDirectories = InitParams.DEFAULT_HELD_DIRECTORIES;
        private long smallFileCacheSize = InitParams.DEFAULT_SMALL_FILE_CACHE_SIZE;
        private int smallFileMaxSize = InitParams.DEFAULT_SMALL_FILE_MAX_SIZE;
        /** Made once the values are known ({@link #build()}), before the resolvers that share it. */
        private SmallFileCache smallFileCache;
        private ReceiptSettings receipts = ReceiptSettings.OFF;

        /**
         * A {@code locations} entry; roots are checked in {@link #build()} (they depend on the link policy).
         *
         * @param expires the {@code expires=} option in seconds, or {@code null}
         */
        public Builder location(Path root, String uriPrefix, Long expires) {
            String text = root + " => " + uriPrefix + (expires == null ? "" : " expires=" + expires);
            if (!PathRules.isUriPrefix(uriPrefix)) {
                throw ConfigException.invalid(InitParams.LOCATIONS, text, Messages.get("config.location.prefix"));
            }
            if (expires != null && expires < 0) {
                throw ConfigException.invalid(InitParams.LOCATIONS, text, Messages.get("config.location.expires"));
            }
            locations.add(new LocationEntry(Objects.requireNonNull(root, "root"), uriPrefix, expires));
            return this;
        }

        public Builder mapping(String urlPrefix, Path root) {
            if (urlPrefix == null || !isUrlPrefix(urlPrefix)) {
                throw ConfigException.invalid(InitParams.MAPPINGS, urlPrefix + " => " + root,
                        Messages.get("config.mapping.prefix"));
            }
            mappings.add(new MappingEntry(urlPrefix, Objects.requireNonNull(root, "root")));
            return this;
        }

        public Builder offload(OffloadMode mode) {
            offload = Objects.requireNonNull(mode, InitParams.OFFLOAD);
            return this;
        }

        public Builder trustedProxies(TrustedProxies proxies) {
            trustedProxies = Objects.requireNonNull(proxies, InitParams.TRUSTED_PROXIES);
            return this;
        }

        public Builder markerHeader(String name) {
            markerHeader = token(InitParams.MARKER_HEADER, name);
            return this;
        }

        public Builder headerType(HeaderType type) {
            headerType = supported(Objects.requireNonNull(type, InitParams.HEADER_TYPE));
            return this;
        }

        /** The type itself, when a filter may use it: never the deprecated lighttpd header (names X-Sendfile). */
        @SuppressWarnings("removal")
        private static HeaderType supported(HeaderType type) {
            if (type == HeaderType.X_LIGHTTPD_SEND_FILE) {
                throw ConfigException.invalid(InitParams.HEADER_TYPE, type.headerName(),
                        Messages.get("config.headerType.lighttpd", HeaderType.X_SENDFILE.headerName()));
            }
            return type;
        }

        public Builder limitRate(long bytesPerSecond) {
            ValueRules.limitRate(bytesPerSecond).ifPresent(why -> {
                throw ConfigException.invalid(InitParams.LIMIT_RATE, bytesPerSecond, why);
            });
            limitRate = bytesPerSecond;
            return this;
        }

        public Builder charset(String token) {
            charset = token(InitParams.CHARSET, token);
            return this;
        }

        /** @param value seconds, or {@code @} + epoch seconds */
        public Builder accelExpires(String value) {
            ValueRules.accelExpires(value).ifPresent(why -> {
                throw ConfigException.invalid(InitParams.ACCEL_EXPIRES, value, why);
            });
            accelExpires = value;
            return this;
        }

        public Builder cacheControl(String value) {
            cacheControl = headerText(InitParams.CACHE_CONTROL, value);
            return this;
        }

        public Builder disposition(Disposition type) {
            disposition = Objects.requireNonNull(type, InitParams.DISPOSITION);
            return this;
        }

        public Builder allowUnmapped(boolean allow) {
            allowUnmapped = allow;
            return this;
        }

        public Builder allowHidden(boolean allow) {
            allowHidden = allow;
            return this;
        }

        public Builder symlinks(SymlinkPolicy policy) {
            symlinks = Objects.requireNonNull(policy, InitParams.SYMLINKS);
            return this;
        }

        public Builder defaultContentType(String type) {
            if (type == null || !MEDIA_TYPE.matcher(type).matches()) {
                throw ConfigException.invalid(InitParams.DEFAULT_CONTENT_TYPE, type, Messages.get("config.mediaType"));
            }
            defaultContentType = type;
            return this;
        }

        public Builder sendfile(boolean use) {
            sendfile = use;
            return this;
        }

        public Builder frontEndConfines(boolean confines) {
            frontEndConfines = confines;
            return this;
        }

        public Builder frontEnd(FrontEnd end) {
            frontEnd = Objects.requireNonNull(end, InitParams.FRONT_END);
            return this;
        }

        /** @param name an ObjectName (not a pattern), or {@link InitParams#JMX_NAME_NONE} (any case) */
        public Builder jmxName(String name) {
            if (name != null && name.equalsIgnoreCase(InitParams.JMX_NAME_NONE)) {
                jmxName = InitParams.JMX_NAME_NONE;
                return this;
            }
            try {
                if (name == null || new ObjectName(name).isPattern()) {
                    throw ConfigException.invalid(InitParams.JMX_NAME, name, Messages.get("config.jmxName"));
                }
            } catch (MalformedObjectNameException e) {
                throw ConfigException.invalid(InitParams.JMX_NAME, name, Messages.get("config.jmxName"));
            }
            jmxName = name;
            return this;
        }

        /** @param headerNames comma/whitespace separated HTTP tokens, not {@code *}; normalized to {@code A, B} */
        public Builder cacheVary(String headerNames) {
            StringBuilder sb = new StringBuilder();
            for (String t : (headerNames == null ? "" : headerNames).split("[,\\s]+")) {
                if (t.isEmpty()) {
                    continue;
                }
                if (!ValueRules.isToken(t) || t.equals("*")) {
                    throw ConfigException.invalid(InitParams.CACHE_VARY, headerNames, Messages.get("config.cacheVary"));
                }
                sb.append(sb.length() > 0 ? ", " : "").append(t);
            }
            if (sb.length() == 0) {
                throw ConfigException.invalid(InitParams.CACHE_VARY, headerNames, Messages.get("config.cacheVary"));
            }
            cacheVary = sb.toString();
            return this;
        }

        /** Checked here (never echoed in a message); prefix and TTL are checked with it in {@link #build()}. */
        public Builder signedLinkSecret(String secret) {
            SignedLinks.secretProblem(secret).ifPresent(problem -> {
                throw new ConfigException(InitParams.SIGNED_LINK_SECRET,
                        Messages.get("config.signed.secret", InitParams.SIGNED_LINK_SECRET, problem));
            });
            signedLinkSecret = secret;
            return this;
        }

        public Builder signedLinkPrefix(String prefix) {
            if (!PathRules.isUriPrefix(prefix)) {
                throw ConfigException.invalid(InitParams.SIGNED_LINK_PREFIX, prefix,
                        Messages.get("config.location.prefix"));
            }
            signedLinkPrefix = prefix;
            return this;
        }

        public Builder signedLinkTtl(long seconds) {
            if (seconds < 1) {
                throw ConfigException.invalid(InitParams.SIGNED_LINK_TTL, seconds, Messages.get("config.signed.ttl"));
            }
            signedLinkTtl = seconds;
            return this;
        }

        /** @param policy a header value, or {@link InitParams#CONTENT_SECURITY_POLICY_NONE} (any case) */
        public Builder contentSecurityPolicy(String policy) {
            String v = headerText(InitParams.CONTENT_SECURITY_POLICY, policy);
            contentSecurityPolicy = v.equalsIgnoreCase(InitParams.CONTENT_SECURITY_POLICY_NONE) ? null : v;
            return this;
        }

        public Builder maxRedirectLength(long bytes) {
            if (bytes < MIN_REDIRECT_LENGTH || bytes > 1_000_000) {
                throw ConfigException.invalid(InitParams.MAX_REDIRECT_LENGTH, bytes,
                        Messages.get("config.maxRedirectLength", MIN_REDIRECT_LENGTH));
            }
            maxRedirectLength = (int) bytes;
            return this;
        }

        /** @param count directories below each root held open, 0 (none) to {@value #MAX_HELD_DIRECTORIES} */
        public Builder heldDirectories(long count) {
            if (count < 0 || count > MAX_HELD_DIRECTORIES) {
                throw ConfigException.invalid(InitParams.HELD_DIRECTORIES, count,
                        Messages.get("config.heldDirectories", String.valueOf(MAX_HELD_DIRECTORIES)));
            }
            heldDirectories = (int) count;
            return this;
        }

        /** @param bytes total bytes of small files kept, 0 (off) to {@value #MAX_SMALL_FILE_CACHE_SIZE} */
        public Builder smallFileCacheSize(long bytes) {
            if (bytes < 0 || bytes > MAX_SMALL_FILE_CACHE_SIZE) {
                throw ConfigException.invalid(InitParams.SMALL_FILE_CACHE_SIZE, bytes,
                        Messages.get("config.smallFileCacheSize", String.valueOf(MAX_SMALL_FILE_CACHE_SIZE)));
            }
            smallFileCacheSize = bytes;
            return this;
        }

        /** @param bytes the largest file kept, 1 to {@value #MAX_SMALL_FILE_MAX_SIZE} */
        public Builder smallFileMaxSize(long bytes) {
            if (bytes < 1 || bytes > MAX_SMALL_FILE_MAX_SIZE) {
                throw ConfigException.invalid(InitParams.SMALL_FILE_MAX_SIZE, bytes,
                        Messages.get("config.smallFileMaxSize", String.valueOf(MAX_SMALL_FILE_MAX_SIZE)));
            }
            smallFileMaxSize = (int) bytes;
            return this;
        }

        public Builder remoteOrigins(RemoteOrigins origins) {
            remoteOrigins = Objects.requireNonNull(origins, InitParams.REMOTE_ORIGINS);
            return this;
        }

        /** @param value {@code off}, {@code direct} or a loopback {@code IP:PORT} */
        public Builder receipts(String value) {
            receipts = ReceiptSettings.parseMode(receipts, value);
            return this;
        }

        /** @param className an {@link dev.xaccel.filter.XAccelReceiptListener}, made at {@code init()} */
        public Builder receiptListener(String className) {
            receipts = receipts.withListenerClass(className);
            return this;
        }

        /** One more listener object (builder, Spring beans). */
        public Builder receiptListener(dev.xaccel.filter.XAccelReceiptListener listener) {
            receipts = receipts.withListener(listener);
            return this;
        }

        public Builder receiptTimeout(long seconds) {
            receipts = receipts.withTimeout(seconds);
            return this;
        }

        public Builder receiptQueue(long size) {
            receipts = receipts.withQueue(size);
            return this;
        }

        /** Resolves the roots and checks what depends on several values. */
        public XAccelConfig build() {
            smallFileCache = smallFileCacheSize == 0 ? null : new SmallFileCache(smallFileCacheSize, smallFileMaxSize);
            List<Location> locs = locations();
            List<Mapping> maps = mappings();
            if (offload != OffloadMode.NEVER && !allowUnmapped) {
                for (Mapping m : maps) {
                    if (locs.stream().noneMatch(l -> m.root().startsWith(l.root()))) {
                        throw ConfigException.invalid(InitParams.MAPPINGS, m.toString(),
                                Messages.get("config.mapping.unmapped"));
                    }
                }
            }
            if (frontEndConfines && !headerType.isNginx()) {
                // Apache's mod_xsendfile, lighttpd and Caddy follow links when they open the file
                throw ConfigException.invalid(InitParams.FRONT_END_CONFINES, "true",
                        Messages.get("config.frontEndConfines", InitParams.HEADER_TYPE, headerType.headerName()));
            }
            if (frontEnd == FrontEnd.NGINX && !headerType.isNginx()) {
                // Apache and lighttpd pass the validators on and answer If-Range with them: they must be sent
                throw ConfigException.invalid(InitParams.FRONT_END, frontEnd.paramValue(),
                        Messages.get("config.frontEnd.nginx", InitParams.HEADER_TYPE, headerType.headerName()));
            }
            return new XAccelConfig(locs, maps, offload, trustedProxies, markerHeader, headerType, limitRate, charset,
                    accelExpires, cacheControl, disposition, allowUnmapped, allowHidden, symlinks, defaultContentType,
                    sendfile, frontEndConfines, frontEnd, jmxName, cacheVary, signedLinks(), contentSecurityPolicy,
                    maxRedirectLength, remoteOrigins, heldDirectories, smallFileCacheSize, smallFileMaxSize,
                    smallFileCache, receipts);
        }

        private List<Location> locations() {
            if (locations.isEmpty()) {
                throw new ConfigException(InitParams.LOCATIONS,
                        Messages.get("config.locations.required", InitParams.LOCATIONS));
            }
            List<Location> out = new ArrayList<>();
            Set<String> prefixes = new HashSet<>();
            Set<Path> roots = new HashSet<>();
            for (LocationEntry e : locations) {
                String text = e.root() + " => " + e.uriPrefix()
                        + (e.expires() == null ? "" : " expires=" + e.expires());
                if (!prefixes.add(e.uriPrefix())) {
                    throw ConfigException.invalid(InitParams.LOCATIONS, text, Messages.get("config.duplicatePrefix"));
                }
                SafePathResolver resolver = resolver(InitParams.LOCATIONS, text, e.root());
                if (!roots.add(resolver.root())) {
                    throw ConfigException.invalid(InitParams.LOCATIONS, text, Messages.get("config.duplicateRoot"));
                }
                out.add(new Location(resolver, e.uriPrefix(), e.expires() == null ? null : e.expires().toString()));
            }
            out.sort(Comparator.comparingInt((Location l) -> l.root().getNameCount()).reversed());
            return out;
        }

        private List<Mapping> mappings() {
            List<Mapping> out = new ArrayList<>();
            Set<String> prefixes = new HashSet<>();
            for (MappingEntry e : mappings) {
                String text = e.urlPrefix() + " => " + e.root();
                if (!prefixes.add(e.urlPrefix())) {
                    throw ConfigException.invalid(InitParams.MAPPINGS, text, Messages.get("config.duplicatePrefix"));
                }
                out.add(new Mapping(e.urlPrefix(), resolver(InitParams.MAPPINGS, text, e.root())));
            }
            out.sort(Comparator.comparingInt((Mapping m) -> m.urlPrefix().length()).reversed());
            return out;
        }

        private SafePathResolver resolver(String param, String text, Path root) {
            if (!root.isAbsolute()) {
                throw ConfigException.invalid(param, text, Messages.get("config.root.relative"));
            }
            try {
                return new SafePathResolver(root, allowHidden, symlinks, heldDirectories, smallFileCache);
            } catch (IOException | IllegalArgumentException ex) {
                throw ConfigException.invalid(param, text, Messages.get("config.root.missing"));
            }
        }

        private SignedLinks signedLinks() {
            if (signedLinkSecret == null) {
                if (signedLinkPrefix != null || signedLinkTtl != null) {
                    throw new ConfigException(InitParams.SIGNED_LINK_SECRET, Messages.get("config.signed.noSecret",
                            InitParams.SIGNED_LINK_SECRET, InitParams.SIGNED_LINK_PREFIX, InitParams.SIGNED_LINK_TTL));
                }
                return null;
            }
            if (signedLinkPrefix == null) {
                throw new ConfigException(InitParams.SIGNED_LINK_PREFIX, Messages.get("config.signed.prefixRequired",
                        InitParams.SIGNED_LINK_PREFIX, InitParams.SIGNED_LINK_SECRET));
            }
            long ttl = signedLinkTtl == null ? InitParams.DEFAULT_SIGNED_LINK_TTL : signedLinkTtl;
            return SignedLinks.create(signedLinkSecret, signedLinkPrefix, Duration.ofSeconds(ttl));
        }

        private static String token(String param, String value) {
            ValueRules.token(value).ifPresent(why -> {
                throw ConfigException.invalid(param, value, why);
            });
            return value;
        }

        private static String headerText(String param, String value) {
            if (value == null) {
                throw ConfigException.invalid(param, null, Messages.get("config.headerText"));
            }
            for (int i = 0; i < value.length(); i++) {
                char c = value.charAt(i);
                if ((c < 0x20 && c != '\t') || c > 0x7e) {
                    throw ConfigException.invalid(param, value, Messages.get("config.headerText"));
                }
            }
            return value;
        }

        /** Starts and ends with '/', no empty or dot segments, no characters a decoded servlet path cannot match. */
        public static boolean isUrlPrefix(String p) {
            if (p.isEmpty() || p.charAt(0) != '/' || p.charAt(p.length() - 1) != '/') {
                return false;
            }
            if (p.equals("/")) {
                return true;
            }
            for (int i = 0; i < p.length(); i++) {
                char c = p.charAt(i);
                if (PathRules.isControl(c) || c == '\\' || c == ';' || c == '?' || c == '#') {
                    return false;
                }
            }
            return !p.contains("//") && !PathRules.hasDotSegment(p);
        }
    }
}
