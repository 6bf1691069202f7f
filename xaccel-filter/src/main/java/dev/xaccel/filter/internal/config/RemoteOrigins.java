package dev.xaccel.filter.internal.config;

import java.net.URI;
import java.net.URISyntaxException;
import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.Locale;
import java.util.Set;

import dev.xaccel.filter.ConfigException;
import dev.xaccel.filter.XAccelRemote;
import dev.xaccel.filter.internal.util.Messages;

/**
 * The {@code remoteOrigins} allow-list: the stores a declared {@link XAccelRemote} may point to, as normalized
 * origins {@code scheme://host[:port]} (scheme and host in lower case, the scheme's default port left out). Only
 * from configuration, never from a request. Empty (the default): every remote object is refused. Immutable.
 */
public final class RemoteOrigins {

    /** No origin: remote objects are refused. */
    public static final RemoteOrigins NONE = new RemoteOrigins(Set.of());

    private final Set<String> origins;

    private RemoteOrigins(Set<String> origins) {
        this.origins = origins;
    }

    /**
     * @param value origins separated by commas or whitespace, e.g.
     *              {@code https://bucket.s3.eu-west-1.amazonaws.com, http://127.0.0.1:9000}; blank = none
     * @throws ConfigException naming {@code param} and the first bad origin
     */
    public static RemoteOrigins parse(String param, String value) {
        Set<String> out = new LinkedHashSet<>();
        for (String word : (value == null ? "" : value.trim()).split("[,\\s]+")) {
            if (word.isEmpty()) {
                continue;
            }
            URI uri;
            try {
                uri = new URI(word);
            } catch (URISyntaxException e) {
                throw ConfigException.invalid(param, word, Messages.get("config.remoteOrigins"));
            }
            String path = uri.getRawPath();
            if (uri.isOpaque() || uri.getRawQuery() != null || uri.getRawFragment() != null
                    || uri.getRawUserInfo() != null || (path != null && !path.isEmpty() && !path.equals("/"))
                    || origin(uri) == null) {
                throw ConfigException.invalid(param, word, Messages.get("config.remoteOrigins"));
            }
            out.add(origin(uri));
        }
        return out.isEmpty() ? NONE : new RemoteOrigins(Collections.unmodifiableSet(out));
    }

    /**
     * {@code scheme://host[:port]} of an absolute http(s) URL with a host, normalized; {@code null} for any other.
     */
    public static String origin(URI url) {
        String scheme = url.getScheme() == null ? null : url.getScheme().toLowerCase(Locale.ROOT);
        int defaultPort = "http".equals(scheme) ? 80 : "https".equals(scheme) ? 443 : -1;
        if (defaultPort < 0 || url.getHost() == null) {
            return null;
        }
        int port = url.getPort();
        return scheme + "://" + url.getHost().toLowerCase(Locale.ROOT)
                + (port == -1 || port == defaultPort ? "" : ":" + port);
    }

    /** Whether the URL's origin is on the list. */
    public boolean allows(URI url) {
        String o = origin(url);
        return o != null && origins.contains(o);
    }

    public boolean isEmpty() {
        return origins.isEmpty();
    }

    /** The origins separated by {@code ", "}, or {@code none}. */
    @Override
    public String toString() {
        return origins.isEmpty() ? "none" : String.join(", ", origins);
    }
}
