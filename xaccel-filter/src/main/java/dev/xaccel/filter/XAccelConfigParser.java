package dev.xaccel.filter;

import static dev.xaccel.filter.XAccelFilter.*;

import java.io.IOException;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

import javax.management.MalformedObjectNameException;
import javax.management.ObjectName;

/**
 * Validates raw configuration values once and builds the immutable {@link XAccelConfig}. Every problem is a
 * {@link ConfigException} naming the init-param and the offending value. Blank optional values count as not
 * set (so {@code ${env:RATE:-}} can switch a feature off).
 */
final class XAccelConfigParser {

    /** A {@code LEFT => RIGHT} entry of {@code locations} (root, prefix) or {@code mappings} (prefix, root). */
    record Entry(String left, String right) {
    }

    /** Shortest accepted {@code maxRedirectLength}: every offload header below it would be refused anyway. */
    static final int MIN_REDIRECT_LENGTH = 256;

    private static final Pattern URI_PREFIX = Pattern.compile("/(?:[A-Za-z0-9._~-]+/)+");
    private static final Pattern TOKEN = Pattern.compile("[!#$%&'*+.^_`|~0-9A-Za-z-]+");
    private static final Pattern MEDIA_TYPE = Pattern.compile(
            "[!#$%&'*+.^_`|~0-9A-Za-z-]+/[!#$%&'*+.^_`|~0-9A-Za-z-]+(?:[ \\t]*;[\\x20-\\x7e\\t]*)?");
    private static final Pattern EXPIRES = Pattern.compile("@?[0-9]{1,18}");
    private static final Pattern DIGITS = Pattern.compile("[0-9]{1,18}");

    private XAccelConfigParser() {
    }

    /**
     * Parses init-params: placeholders are expanded first, then {@code locations}/{@code mappings} are split into
     * entries and everything is validated.
     */
    static XAccelConfig fromInitParams(Map<String, String> raw, Placeholders placeholders) throws ConfigException {
        Map<String, String> params = new HashMap<>();
        for (Map.Entry<String, String> e : raw.entrySet()) {
            params.put(e.getKey(), placeholders.resolve(e.getKey(), e.getValue()));
        }
        List<Entry> locations = splitEntries(PARAM_LOCATIONS, params.get(PARAM_LOCATIONS), true);
        List<Entry> mappings = splitEntries(PARAM_MAPPINGS, params.get(PARAM_MAPPINGS), false);
        return parse(params, locations, mappings);
    }

    /**
     * Splits {@code A => B} entries separated by newlines or {@code ;}. For {@code locations} the last
     * {@code =>} separates (a URI prefix cannot contain {@code =}), for {@code mappings} the first.
     */
    static List<Entry> splitEntries(String param, String value, boolean lastArrow) throws ConfigException {
        List<Entry> out = new ArrayList<>();
        if (value == null) {
            return out;
        }
        for (String line : value.split("[;\\r\\n]+")) {
            String entry = line.trim();
            if (entry.isEmpty()) {
                continue;
            }
            int arrow = lastArrow ? entry.lastIndexOf("=>") : entry.indexOf("=>");
            if (arrow < 0) {
                throw ConfigException.invalid(param, entry, Messages.get("config.entry.syntax"));
            }
            String left = entry.substring(0, arrow).trim();
            String right = entry.substring(arrow + 2).trim();
            if (left.isEmpty() || right.isEmpty()) {
                throw ConfigException.invalid(param, entry, Messages.get("config.entry.syntax"));
            }
            out.add(new Entry(left, right));
        }
        return out;
    }

    /**
     * @param params    scalar init-params (already placeholder-expanded); {@code locations}/{@code mappings}
     *                  in it are ignored
     * @param locations (root, uriPrefix) entries
     * @param mappings  (urlPrefix, root) entries
     */
    static XAccelConfig parse(Map<String, String> params, List<Entry> locations, List<Entry> mappings)
            throws ConfigException {
        OffloadMode offload = DEFAULT_OFFLOAD;
        String v = value(params, PARAM_OFFLOAD);
        if (v != null) {
            offload = OffloadMode.parseOrNull(v);
            if (offload == null) {
                throw ConfigException.invalid(PARAM_OFFLOAD, v, Messages.get("config.offload"));
            }
        }
        boolean allowUnmapped = bool(params, PARAM_ALLOW_UNMAPPED, DEFAULT_ALLOW_UNMAPPED);
        boolean allowHidden = bool(params, PARAM_ALLOW_HIDDEN, DEFAULT_ALLOW_HIDDEN);
        boolean sendfile = bool(params, PARAM_SENDFILE, DEFAULT_SENDFILE);

        SymlinkPolicy symlinks;
        v = value(params, PARAM_SYMLINKS);
        try {
            symlinks = SymlinkPolicy.parse(v == null ? DEFAULT_SYMLINKS : v);
        } catch (IllegalArgumentException e) {
            throw ConfigException.invalid(PARAM_SYMLINKS, v, Messages.get("config.symlinks"));
        }

        String trustedText = params.containsKey(PARAM_TRUSTED_PROXIES) ? params.get(PARAM_TRUSTED_PROXIES)
                : DEFAULT_TRUSTED_PROXIES;
        TrustedProxies trusted = TrustedProxies.parse(PARAM_TRUSTED_PROXIES, trustedText);

        String marker = token(params, PARAM_MARKER_HEADER, DEFAULT_MARKER_HEADER);
        HeaderType headerType = HeaderType.X_ACCEL_REDIRECT;
        v = value(params, PARAM_HEADER_TYPE);
        if (v != null) {
            headerType = HeaderType.fromHeaderName(v);
            if (headerType == null) {
                throw ConfigException.invalid(PARAM_HEADER_TYPE, v, Messages.get("config.headerType"));
            }
        }

        Long limitRate = null;
        v = value(params, PARAM_LIMIT_RATE);
        if (v != null) {
            if (!DIGITS.matcher(v).matches()) {
                throw ConfigException.invalid(PARAM_LIMIT_RATE, v, Messages.get("config.limitRate"));
            }
            limitRate = Long.valueOf(v);
        }
        String charset = token(params, PARAM_CHARSET, null);
        String expires = value(params, PARAM_ACCEL_EXPIRES);
        if (expires != null && !EXPIRES.matcher(expires).matches()) {
            throw ConfigException.invalid(PARAM_ACCEL_EXPIRES, expires, Messages.get("config.accelExpires"));
        }
        String cacheControl = value(params, PARAM_CACHE_CONTROL);
        if (cacheControl != null && !isHeaderText(cacheControl)) {
            throw ConfigException.invalid(PARAM_CACHE_CONTROL, cacheControl, Messages.get("config.headerText"));
        }
        String disposition = DEFAULT_DISPOSITION;
        v = value(params, PARAM_DISPOSITION);
        if (v != null) {
            disposition = v.toLowerCase(Locale.ROOT);
            if (!disposition.equals("inline") && !disposition.equals("attachment")) {
                throw ConfigException.invalid(PARAM_DISPOSITION, v, Messages.get("config.disposition"));
            }
        }
        String defaultContentType = DEFAULT_DEFAULT_CONTENT_TYPE;
        v = value(params, PARAM_DEFAULT_CONTENT_TYPE);
        if (v != null) {
            if (!MEDIA_TYPE.matcher(v).matches()) {
                throw ConfigException.invalid(PARAM_DEFAULT_CONTENT_TYPE, v, Messages.get("config.mediaType"));
            }
            defaultContentType = v;
        }
        String jmxName = value(params, PARAM_JMX_NAME);
        if (jmxName != null) {
            if (jmxName.equalsIgnoreCase(JMX_NAME_NONE)) {
                jmxName = JMX_NAME_NONE;
            } else {
                try {
                    if (new ObjectName(jmxName).isPattern()) {
                        throw ConfigException.invalid(PARAM_JMX_NAME, jmxName, Messages.get("config.jmxName"));
                    }
                } catch (MalformedObjectNameException e) {
                    throw ConfigException.invalid(PARAM_JMX_NAME, jmxName, Messages.get("config.jmxName"));
                }
            }
        }

        String cacheVary = DEFAULT_CACHE_VARY;
        v = value(params, PARAM_CACHE_VARY);
        if (v != null) {
            cacheVary = tokenList(PARAM_CACHE_VARY, v);
        }
        SignedLinks signedLinks = signedLinks(params);
        String csp = DEFAULT_CONTENT_SECURITY_POLICY;
        v = value(params, PARAM_CONTENT_SECURITY_POLICY);
        if (v != null) {
            if (!isHeaderText(v)) {
                throw ConfigException.invalid(PARAM_CONTENT_SECURITY_POLICY, v, Messages.get("config.headerText"));
            }
            csp = v.equalsIgnoreCase(CONTENT_SECURITY_POLICY_NONE) ? null : v;
        }
        int maxRedirect = DEFAULT_MAX_REDIRECT_LENGTH;
        v = value(params, PARAM_MAX_REDIRECT_LENGTH);
        if (v != null) {
            if (!DIGITS.matcher(v).matches() || v.length() > 6 || Integer.parseInt(v) < MIN_REDIRECT_LENGTH) {
                throw ConfigException.invalid(PARAM_MAX_REDIRECT_LENGTH, v,
                        Messages.get("config.maxRedirectLength", MIN_REDIRECT_LENGTH));
            }
            maxRedirect = Integer.parseInt(v);
        }

        List<Location> locs = parseLocations(locations, allowHidden, symlinks);
        List<Mapping> maps = parseMappings(mappings, allowHidden, symlinks);
        if (offload != OffloadMode.NEVER && !allowUnmapped) {
            for (Mapping m : maps) {
                boolean covered = false;
                for (Location l : locs) {
                    if (m.root().startsWith(l.root())) {
                        covered = true;
                        break;
                    }
                }
                if (!covered) {
                    throw ConfigException.invalid(PARAM_MAPPINGS, m.toString(), Messages.get("config.mapping.unmapped"));
                }
            }
        }
        return new XAccelConfig(locs, maps, offload, trusted, marker, headerType, limitRate, charset, expires,
                cacheControl, disposition, allowUnmapped, allowHidden, symlinks, defaultContentType, sendfile,
                jmxName, cacheVary, signedLinks, csp, maxRedirect);
    }

    /** {@code Cookie, Authorization}: comma/whitespace separated header names, normalized to {@code A, B}. */
    private static String tokenList(String param, String v) throws ConfigException {
        StringBuilder sb = new StringBuilder();
        for (String t : v.split("[,\\s]+")) {
            if (t.isEmpty()) {
                continue;
            }
            if (!TOKEN.matcher(t).matches() || t.equals("*")) {
                throw ConfigException.invalid(param, v, Messages.get("config.cacheVary"));
            }
            if (sb.length() > 0) {
                sb.append(", ");
            }
            sb.append(t);
        }
        if (sb.length() == 0) {
            throw ConfigException.invalid(param, v, Messages.get("config.cacheVary"));
        }
        return sb.toString();
    }

    /** {@code null} unless {@code signedLinkSecret} is set; then prefix and TTL are validated too. */
    private static SignedLinks signedLinks(Map<String, String> params) throws ConfigException {
        String secret = value(params, PARAM_SIGNED_LINK_SECRET);
        String prefix = value(params, PARAM_SIGNED_LINK_PREFIX);
        String ttlText = value(params, PARAM_SIGNED_LINK_TTL);
        if (secret == null) {
            if (prefix != null || ttlText != null) {
                throw new ConfigException(PARAM_SIGNED_LINK_SECRET, Messages.get("config.signed.noSecret",
                        PARAM_SIGNED_LINK_SECRET, PARAM_SIGNED_LINK_PREFIX, PARAM_SIGNED_LINK_TTL));
            }
            return null;
        }
        String problem = SignedLinks.secretProblem(secret);
        if (problem != null) {
            // never echo the secret
            throw new ConfigException(PARAM_SIGNED_LINK_SECRET,
                    Messages.get("config.signed.secret", PARAM_SIGNED_LINK_SECRET, problem));
        }
        if (prefix == null) {
            throw new ConfigException(PARAM_SIGNED_LINK_PREFIX, Messages.get("config.signed.prefixRequired",
                    PARAM_SIGNED_LINK_PREFIX, PARAM_SIGNED_LINK_SECRET));
        }
        if (!URI_PREFIX.matcher(prefix).matches() || hasDotSegment(prefix)) {
            throw ConfigException.invalid(PARAM_SIGNED_LINK_PREFIX, prefix, Messages.get("config.location.prefix"));
        }
        long ttl = DEFAULT_SIGNED_LINK_TTL;
        if (ttlText != null) {
            if (!DIGITS.matcher(ttlText).matches() || Long.parseLong(ttlText) < 1) {
                throw ConfigException.invalid(PARAM_SIGNED_LINK_TTL, ttlText, Messages.get("config.signed.ttl"));
            }
            ttl = Long.parseLong(ttlText);
        }
        return SignedLinks.create(secret, prefix, java.time.Duration.ofSeconds(ttl));
    }

    /** {@code PREFIX [expires=SECONDS]}: the right side of a {@code locations} entry. */
    private static String[] prefixAndExpires(String entryText, String right) throws ConfigException {
        String[] words = right.trim().split("\\s+");
        String expires = null;
        for (int i = 1; i < words.length; i++) {
            String w = words[i];
            String key = Location.OPTION_EXPIRES + "=";
            if (!w.startsWith(key) || expires != null) {
                throw ConfigException.invalid(PARAM_LOCATIONS, entryText, Messages.get("config.location.option"));
            }
            expires = w.substring(key.length());
            if (!DIGITS.matcher(expires).matches()) {
                throw ConfigException.invalid(PARAM_LOCATIONS, entryText, Messages.get("config.location.expires"));
            }
            expires = Long.toString(Long.parseLong(expires));
        }
        return new String[] {words[0], expires};
    }

    private static List<Location> parseLocations(List<Entry> entries, boolean allowHidden, SymlinkPolicy symlinks)
            throws ConfigException {
        if (entries.isEmpty()) {
            throw new ConfigException(PARAM_LOCATIONS, Messages.get("config.locations.required", PARAM_LOCATIONS));
        }
        List<Location> out = new ArrayList<>();
        Set<String> prefixes = new HashSet<>();
        Set<Path> roots = new HashSet<>();
        for (Entry e : entries) {
            String entryText = e.left() + " => " + e.right();
            String[] pe = prefixAndExpires(entryText, e.right());
            String prefix = pe[0];
            if (!URI_PREFIX.matcher(prefix).matches() || hasDotSegment(prefix)) {
                throw ConfigException.invalid(PARAM_LOCATIONS, entryText, Messages.get("config.location.prefix"));
            }
            if (!prefixes.add(prefix)) {
                throw ConfigException.invalid(PARAM_LOCATIONS, entryText, Messages.get("config.duplicatePrefix"));
            }
            SafePathResolver resolver = resolver(PARAM_LOCATIONS, entryText, e.left(), allowHidden, symlinks);
            if (!roots.add(resolver.root())) {
                throw ConfigException.invalid(PARAM_LOCATIONS, entryText, Messages.get("config.duplicateRoot"));
            }
            out.add(new Location(resolver, prefix, pe[1]));
        }
        out.sort(Comparator.comparingInt((Location l) -> l.root().getNameCount()).reversed());
        return out;
    }

    private static List<Mapping> parseMappings(List<Entry> entries, boolean allowHidden, SymlinkPolicy symlinks)
            throws ConfigException {
        List<Mapping> out = new ArrayList<>();
        Set<String> prefixes = new HashSet<>();
        for (Entry e : entries) {
            String entryText = e.left() + " => " + e.right();
            String prefix = e.left();
            if (!isUrlPrefix(prefix)) {
                throw ConfigException.invalid(PARAM_MAPPINGS, entryText, Messages.get("config.mapping.prefix"));
            }
            if (!prefixes.add(prefix)) {
                throw ConfigException.invalid(PARAM_MAPPINGS, entryText, Messages.get("config.duplicatePrefix"));
            }
            out.add(new Mapping(prefix, resolver(PARAM_MAPPINGS, entryText, e.right(), allowHidden, symlinks)));
        }
        out.sort(Comparator.comparingInt((Mapping m) -> m.urlPrefix().length()).reversed());
        return out;
    }

    private static SafePathResolver resolver(String param, String entryText, String root, boolean allowHidden,
            SymlinkPolicy symlinks) throws ConfigException {
        Path p;
        try {
            p = Path.of(root);
        } catch (InvalidPathException ex) {
            throw ConfigException.invalid(param, entryText, Messages.get("config.root.missing"));
        }
        if (!p.isAbsolute()) {
            throw ConfigException.invalid(param, entryText, Messages.get("config.root.relative"));
        }
        try {
            return new SafePathResolver(p, allowHidden, symlinks);
        } catch (IOException | IllegalArgumentException ex) {
            throw ConfigException.invalid(param, entryText, Messages.get("config.root.missing"));
        }
    }

    /** Starts and ends with '/', no empty or dot segments, no characters a decoded servlet path cannot match. */
    static boolean isUrlPrefix(String p) {
        if (p.isEmpty() || p.charAt(0) != '/' || p.charAt(p.length() - 1) != '/') {
            return false;
        }
        if (p.equals("/")) {
            return true;
        }
        for (int i = 0; i < p.length(); i++) {
            char c = p.charAt(i);
            if (c < 0x20 || c == 0x7f || c == '\\' || c == ';' || c == '?' || c == '#') {
                return false;
            }
        }
        return !p.contains("//") && !hasDotSegment(p);
    }

    private static boolean hasDotSegment(String p) {
        for (String s : p.split("/")) {
            if (!s.isEmpty() && s.chars().allMatch(c -> c == '.')) {
                return true;
            }
        }
        return false;
    }

    private static boolean isHeaderText(String v) {
        for (int i = 0; i < v.length(); i++) {
            char c = v.charAt(i);
            if ((c < 0x20 && c != '\t') || c > 0x7e) {
                return false;
            }
        }
        return true;
    }

    private static String value(Map<String, String> params, String name) {
        String v = params.get(name);
        if (v == null) {
            return null;
        }
        v = v.trim();
        return v.isEmpty() ? null : v;
    }

    private static boolean bool(Map<String, String> params, String name, boolean def) throws ConfigException {
        String v = value(params, name);
        if (v == null) {
            return def;
        }
        if (v.equalsIgnoreCase("true")) {
            return true;
        }
        if (v.equalsIgnoreCase("false")) {
            return false;
        }
        throw ConfigException.invalid(name, v, Messages.get("config.boolean"));
    }

    private static String token(Map<String, String> params, String name, String def) throws ConfigException {
        String v = value(params, name);
        if (v == null) {
            return def;
        }
        if (!TOKEN.matcher(v).matches()) {
            throw ConfigException.invalid(name, v, Messages.get("config.token"));
        }
        return v;
    }
}
