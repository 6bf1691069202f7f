package dev.xaccel.filter.internal.config;

import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.BiConsumer;
import java.util.function.Function;
import java.util.regex.Pattern;

import dev.xaccel.filter.ConfigException;
import dev.xaccel.filter.Disposition;
import dev.xaccel.filter.FrontEnd;
import dev.xaccel.filter.HeaderType;
import dev.xaccel.filter.InitParams;
import dev.xaccel.filter.OffloadMode;
import dev.xaccel.filter.SymlinkPolicy;
import dev.xaccel.filter.XAccelFilter;
import dev.xaccel.filter.internal.http.TrustedProxies;
import dev.xaccel.filter.internal.util.Messages;
import dev.xaccel.filter.internal.util.PathRules;

/**
 * The one table of {@link XAccelFilter}'s init-params: for each its name, its default as the documentation
 * states it, how a value is parsed onto the typed {@link XAccelConfig.Builder}, and how the effective value is
 * shown in the startup line. {@link #names()} is the set of known params; the docs tables (docs/filter.md,
 * README.md) are checked against {@link #values()} by a test. Parsing happens once, in {@code init()}.
 */
public enum InitParam {

    LOCATIONS(InitParams.LOCATIONS, "required", InitParam::locations, c -> c.locations().toString()),
    MAPPINGS(InitParams.MAPPINGS, "none", InitParam::mappings, c -> c.mappings().toString()),
    OFFLOAD(InitParams.OFFLOAD, InitParams.DEFAULT_OFFLOAD,
            (b, v) -> b.offload(parse(InitParams.OFFLOAD, v, OffloadMode.values(), OffloadMode::paramValue,
                    "config.offload")),
            c -> c.offload().paramValue()),
    TRUSTED_PROXIES(InitParams.TRUSTED_PROXIES, InitParams.DEFAULT_TRUSTED_PROXIES,
            (b, v) -> b.trustedProxies(TrustedProxies.parse(InitParams.TRUSTED_PROXIES, v)),
            c -> c.trustedProxies().toString()),
    MARKER_HEADER(InitParams.MARKER_HEADER, InitParams.DEFAULT_MARKER_HEADER, XAccelConfig.Builder::markerHeader,
            XAccelConfig::markerHeader),
    HEADER_TYPE(InitParams.HEADER_TYPE, InitParams.DEFAULT_HEADER_TYPE,
            (b, v) -> b.headerType(parse(InitParams.HEADER_TYPE, v, HeaderType.values(), HeaderType::headerName,
                    "config.headerType")),
            c -> c.headerType().headerName()),
    LIMIT_RATE(InitParams.LIMIT_RATE, "not sent",
            (b, v) -> b.limitRate(digits(InitParams.LIMIT_RATE, v, "config.limitRate")),
            c -> orEmpty(c.limitRate())),
    CHARSET(InitParams.CHARSET, "not sent", XAccelConfig.Builder::charset, c -> orEmpty(c.charset())),
    ACCEL_EXPIRES(InitParams.ACCEL_EXPIRES, "not sent", XAccelConfig.Builder::accelExpires,
            c -> orEmpty(c.accelExpires())),
    CACHE_CONTROL(InitParams.CACHE_CONTROL, "not sent", XAccelConfig.Builder::cacheControl,
            c -> orEmpty(c.cacheControl())),
    DISPOSITION(InitParams.DISPOSITION, InitParams.DEFAULT_DISPOSITION,
            (b, v) -> b.disposition(disposition(v)),
            c -> c.disposition().token()),
    ALLOW_UNMAPPED(InitParams.ALLOW_UNMAPPED, "false", (b, v) -> b.allowUnmapped(bool(InitParams.ALLOW_UNMAPPED, v)),
            c -> Boolean.toString(c.allowUnmapped())),
    ALLOW_HIDDEN(InitParams.ALLOW_HIDDEN, "false", (b, v) -> b.allowHidden(bool(InitParams.ALLOW_HIDDEN, v)),
            c -> Boolean.toString(c.allowHidden())),
    SYMLINKS(InitParams.SYMLINKS, InitParams.DEFAULT_SYMLINKS, (b, v) -> b.symlinks(symlinks(v)),
            c -> c.symlinks().paramValue()),
    DEFAULT_CONTENT_TYPE(InitParams.DEFAULT_CONTENT_TYPE, InitParams.DEFAULT_DEFAULT_CONTENT_TYPE,
            XAccelConfig.Builder::defaultContentType, XAccelConfig::defaultContentType),
    SENDFILE(InitParams.SENDFILE, "false", (b, v) -> b.sendfile(bool(InitParams.SENDFILE, v)),
            c -> Boolean.toString(c.sendfile())),
    FRONT_END_CONFINES(InitParams.FRONT_END_CONFINES, "false",
            (b, v) -> b.frontEndConfines(bool(InitParams.FRONT_END_CONFINES, v)),
            c -> Boolean.toString(c.frontEndConfines())),
    FRONT_END(InitParams.FRONT_END, InitParams.DEFAULT_FRONT_END,
            (b, v) -> b.frontEnd(parse(InitParams.FRONT_END, v, FrontEnd.values(), FrontEnd::paramValue,
                    "config.frontEnd")),
            c -> c.frontEnd().paramValue()),
    CACHE_VARY(InitParams.CACHE_VARY, InitParams.DEFAULT_CACHE_VARY, XAccelConfig.Builder::cacheVary,
            XAccelConfig::cacheVary),
    CONTENT_SECURITY_POLICY(InitParams.CONTENT_SECURITY_POLICY, InitParams.DEFAULT_CONTENT_SECURITY_POLICY,
            XAccelConfig.Builder::contentSecurityPolicy,
            c -> c.contentSecurityPolicy() == null ? InitParams.CONTENT_SECURITY_POLICY_NONE
                    : c.contentSecurityPolicy()),
    MAX_REDIRECT_LENGTH(InitParams.MAX_REDIRECT_LENGTH, Integer.toString(InitParams.DEFAULT_MAX_REDIRECT_LENGTH),
            (b, v) -> b.maxRedirectLength(digits(InitParams.MAX_REDIRECT_LENGTH, v,
                    "config.maxRedirectLength", XAccelConfig.MIN_REDIRECT_LENGTH)),
            c -> Integer.toString(c.maxRedirectLength())),
    HELD_DIRECTORIES(InitParams.HELD_DIRECTORIES, Integer.toString(InitParams.DEFAULT_HELD_DIRECTORIES),
            (b, v) -> b.heldDirectories(digits(InitParams.HELD_DIRECTORIES, v, "config.heldDirectories",
                    String.valueOf(XAccelConfig.MAX_HELD_DIRECTORIES))),
            c -> Integer.toString(c.heldDirectories())),
    SMALL_FILE_CACHE_SIZE(InitParams.SMALL_FILE_CACHE_SIZE, Long.toString(InitParams.DEFAULT_SMALL_FILE_CACHE_SIZE),
            (b, v) -> b.smallFileCacheSize(digits(InitParams.SMALL_FILE_CACHE_SIZE, v, "config.smallFileCacheSize",
                    String.valueOf(XAccelConfig.MAX_SMALL_FILE_CACHE_SIZE))),
            c -> Long.toString(c.smallFileCacheSize())),
    SMALL_FILE_MAX_SIZE(InitParams.SMALL_FILE_MAX_SIZE, Integer.toString(InitParams.DEFAULT_SMALL_FILE_MAX_SIZE),
            (b, v) -> b.smallFileMaxSize(digits(InitParams.SMALL_FILE_MAX_SIZE, v, "config.smallFileMaxSize",
                    String.valueOf(XAccelConfig.MAX_SMALL_FILE_MAX_SIZE))),
            c -> Integer.toString(c.smallFileMaxSize())),
    REMOTE_ORIGINS(InitParams.REMOTE_ORIGINS, "none",
            (b, v) -> b.remoteOrigins(RemoteOrigins.parse(InitParams.REMOTE_ORIGINS, v)),
            c -> c.remoteOrigins().toString()),
    /** Never shown: the line says whether signed links are on, and their prefix and lifetime. */
    SIGNED_LINK_SECRET(InitParams.SIGNED_LINK_SECRET, "off", XAccelConfig.Builder::signedLinkSecret,
            c -> c.signedLinks() == null ? "off" : "(set)"),
    SIGNED_LINK_PREFIX(InitParams.SIGNED_LINK_PREFIX, "required with", XAccelConfig.Builder::signedLinkPrefix,
            c -> c.signedLinks() == null ? null : c.signedLinks().prefix()),
    SIGNED_LINK_TTL(InitParams.SIGNED_LINK_TTL, Long.toString(InitParams.DEFAULT_SIGNED_LINK_TTL),
            (b, v) -> b.signedLinkTtl(digits(InitParams.SIGNED_LINK_TTL, v, "config.signed.ttl")),
            c -> c.signedLinks() == null ? null : Long.toString(c.signedLinks().ttl().getSeconds())),
    JMX_NAME(InitParams.JMX_NAME, "dev.xaccel:type=XAccelFilter,context=", XAccelConfig.Builder::jmxName,
            c -> c.jmxName() == null ? "(derived)" : c.jmxName()),
    RECEIPTS(InitParams.RECEIPTS, InitParams.DEFAULT_RECEIPTS, XAccelConfig.Builder::receipts,
            c -> c.receipts().shown()),
    RECEIPT_LISTENER(InitParams.RECEIPT_LISTENER, "none", XAccelConfig.Builder::receiptListener,
            c -> c.receipts().listenerClass() == null ? "none" : c.receipts().listenerClass()),
    RECEIPT_TIMEOUT(InitParams.RECEIPT_TIMEOUT, Long.toString(InitParams.DEFAULT_RECEIPT_TIMEOUT),
            (b, v) -> b.receiptTimeout(digits(InitParams.RECEIPT_TIMEOUT, v, "config.receiptTimeout")),
            c -> Long.toString(c.receipts().timeoutSeconds())),
    RECEIPT_QUEUE(InitParams.RECEIPT_QUEUE, Integer.toString(InitParams.DEFAULT_RECEIPT_QUEUE),
            (b, v) -> b.receiptQueue(digits(InitParams.RECEIPT_QUEUE, v, "config.receiptQueue")),
            c -> Integer.toString(c.receipts().queue()));

    private static final Pattern DIGITS = Pattern.compile("\\d{1,18}");
    private static final Set<String> NAMES;

    static {
        Set<String> names = new LinkedHashSet<>();
        for (InitParam p : values()) {
            names.add(p.paramName);
        }
        NAMES = Collections.unmodifiableSet(names);
    }

    private final String paramName;
    private final String defaultText;
    private final BiConsumer<XAccelConfig.Builder, String> binder;
    private final Function<XAccelConfig, String> shown;

    InitParam(String paramName, String defaultText, BiConsumer<XAccelConfig.Builder, String> binder,
            Function<XAccelConfig, String> shown) {
        this.paramName = paramName;
        this.defaultText = defaultText;
        this.binder = binder;
        this.shown = shown;
    }

    /** The init-param name. */
    public String paramName() {
        return paramName;
    }

    /** The default as the documentation states it (a value, or words such as {@code not sent}). */
    public String defaultText() {
        return defaultText;
    }

    /** The effective value for the startup line, or {@code null} to leave the param out. */
    public String show(XAccelConfig config) {
        return shown.apply(config);
    }

    /** One line, init-param names and effective values in the table's order (startup line, JMX attribute). */
    public static String describe(XAccelConfig config) {
        StringBuilder sb = new StringBuilder(256);
        for (InitParam p : values()) {
            String shown = p.show(config);
            if (shown != null) {
                sb.append(sb.length() == 0 ? "" : ", ").append(p.paramName).append('=').append(shown);
            }
        }
        return sb.toString();
    }

    /** Every known init-param name, in the table's order. */
    public static Set<String> names() {
        return NAMES;
    }

    /**
     * Builds the configuration from init-params: each value placeholder-expanded, trimmed, and bound to its typed
     * setter; blank values count as not set (so {@code ${env:RATE:-}} can switch a feature off). Unknown names are
     * the caller's to report.
     *
     * @throws ConfigException naming the param and the value
     */
    public static XAccelConfig parse(Map<String, String> raw, Placeholders placeholders) {
        XAccelConfig.Builder b = new XAccelConfig.Builder();
        for (InitParam p : values()) {
            String v = raw.get(p.paramName);
            if (v == null) {
                continue;
            }
            v = placeholders.resolve(p.paramName, v).trim();
            if (!v.isEmpty() || p == TRUSTED_PROXIES) {
                // an empty trustedProxies is a value: trust nobody
                p.binder.accept(b, v);
            }
        }
        return b.build();
    }

    /** {@code LEFT => RIGHT} entries separated by newlines or {@code ;}. */
    public record Entry(String left, String right) {
        public static List<Entry> split(String param, String value) {
            List<Entry> out = new ArrayList<>();
            for (String entry : value.split("[;\\r\\n]+")) {
                entry = entry.trim();
                if (entry.isEmpty()) {
                    continue;
                }
                int arrow = entry.indexOf("=>");
                String left = arrow < 0 ? "" : entry.substring(0, arrow).trim();
                String right = arrow < 0 ? "" : entry.substring(arrow + 2).trim();
                if (left.isEmpty() || right.isEmpty()) {
                    throw ConfigException.invalid(param, entry, Messages.get("config.entry.syntax"));
                }
                out.add(new Entry(left, right));
            }
            return out;
        }

        public String text() {
            return left + " => " + right;
        }
    }

    /** {@code ROOT => PREFIX [expires=SECONDS]}. */
    private static void locations(XAccelConfig.Builder b, String value) {
        for (Entry e : Entry.split(InitParams.LOCATIONS, value)) {
            String[] words = e.right().split("\\s+");
            Long expires = null;
            for (int i = 1; i < words.length; i++) {
                String key = Location.OPTION_EXPIRES + "=";
                if (!words[i].startsWith(key) || expires != null) {
                    throw ConfigException.invalid(InitParams.LOCATIONS, e.text(),
                            Messages.get("config.location.option"));
                }
                String seconds = words[i].substring(key.length());
                if (!DIGITS.matcher(seconds).matches()) {
                    throw ConfigException.invalid(InitParams.LOCATIONS, e.text(),
                            Messages.get("config.location.expires"));
                }
                expires = Long.parseLong(seconds);
            }
            if (!PathRules.isUriPrefix(words[0])) {
                throw ConfigException.invalid(InitParams.LOCATIONS, e.text(), Messages.get("config.location.prefix"));
            }
            b.location(path(InitParams.LOCATIONS, e.text(), e.left()), words[0], expires);
        }
    }

    /** {@code URL_PREFIX => ROOT}. */
    private static void mappings(XAccelConfig.Builder b, String value) {
        for (Entry e : Entry.split(InitParams.MAPPINGS, value)) {
            if (!XAccelConfig.Builder.isUrlPrefix(e.left())) {
                throw ConfigException.invalid(InitParams.MAPPINGS, e.text(), Messages.get("config.mapping.prefix"));
            }
            b.mapping(e.left(), path(InitParams.MAPPINGS, e.text(), e.right()));
        }
    }

    private static Path path(String param, String entryText, String root) {
        try {
            Path p = Path.of(root);
            if (!p.isAbsolute()) {
                throw ConfigException.invalid(param, entryText, Messages.get("config.root.relative"));
            }
            return p;
        } catch (InvalidPathException ex) {
            throw ConfigException.invalid(param, entryText, Messages.get("config.root.missing"));
        }
    }

    /** The {@code disposition} value's type. */
    public static Disposition disposition(String value) {
        return parse(InitParams.DISPOSITION, value, Disposition.values(), Disposition::token, "config.disposition");
    }

    /** The {@code symlinks} value's policy. */
    static SymlinkPolicy symlinks(String value) {
        return parse(InitParams.SYMLINKS, value, SymlinkPolicy.values(), SymlinkPolicy::paramValue,
                "config.symlinks");
    }

    /** The constant whose token is {@code value}, ignoring case and surrounding blanks. */
    private static <T> T parse(String param, String value, T[] constants, Function<T, String> token, String whyKey) {
        if (value != null) {
            String v = value.trim();
            for (T c : constants) {
                if (token.apply(c).equalsIgnoreCase(v)) {
                    return c;
                }
            }
        }
        throw ConfigException.invalid(param, value, Messages.get(whyKey));
    }

    private static long digits(String param, String value, String whyKey, Object... whyArgs) {
        if (!DIGITS.matcher(value).matches()) {
            throw ConfigException.invalid(param, value, Messages.get(whyKey, whyArgs));
        }
        return Long.parseLong(value);
    }

    private static boolean bool(String param, String value) {
        if (value.equalsIgnoreCase("true")) {
            return true;
        }
        if (value.equalsIgnoreCase("false")) {
            return false;
        }
        throw ConfigException.invalid(param, value, Messages.get("config.boolean"));
    }

    private static String orEmpty(Object value) {
        return value == null ? "" : value.toString();
    }
}
