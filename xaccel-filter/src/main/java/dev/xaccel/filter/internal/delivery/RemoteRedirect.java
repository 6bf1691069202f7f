package dev.xaccel.filter.internal.delivery;

import java.net.URI;
import java.util.Locale;

import dev.xaccel.filter.XAccelRemote;
import dev.xaccel.filter.internal.config.RemoteOrigins;
import dev.xaccel.filter.internal.util.PercentEncoding;

/**
 * The {@code X-Accel-Redirect} value that hands a remote object to nginx:
 * {@code /_xaccel/remote/<scheme>/<host[:port]><encoded path>[?<query>]}. nginx percent-decodes the value's path
 * exactly once (and splits the query off at the first raw {@code ?}); the shipped location
 * ({@code docs/nginx/xaccel-remote.conf.template}) captures scheme, host and path from that decoded URI and
 * proxies to {@code scheme://host<path>?<query>} with the path sent as captured. So the URL's raw path (already
 * percent-encoded, exactly the bytes the presigner signed) is percent-encoded once more (every byte outside
 * {@code A-Za-z0-9-._~/}: {@code %} becomes {@code %25}, {@code +} {@code %2B}, ...), and the raw query follows
 * unchanged: nginx rebuilds the presigned URL byte for byte. Measured against real nginx (RemoteEncodingIT).
 *
 * @param value the header value
 */
public record RemoteRedirect(String value) implements OffloadTarget {

    /** The internal prefix of the shipped nginx location. */
    public static final String PREFIX = "/_xaccel/remote/";

    /**
     * @param url a normalized {@link XAccelRemote#url()}
     * @return the redirect, or {@code null} when nginx cannot carry the URL unchanged: its path has a {@code ..}
     *         segment, which nginx refuses in an {@code X-Accel-Redirect} (such URLs are served directly)
     */
    public static RemoteRedirect of(URI url) {
        String path = url.getRawPath() == null || url.getRawPath().isEmpty() ? "/" : url.getRawPath();
        if (hasDotDotSegment(path)) {
            return null;
        }
        StringBuilder sb = new StringBuilder(PREFIX.length() + path.length() * 2 + 64)
                .append(PREFIX).append(url.getScheme().toLowerCase(Locale.ROOT)).append('/')
                .append(authority(url)).append(PercentEncoding.path(path));
        if (url.getRawQuery() != null) {
            sb.append('?').append(url.getRawQuery());
        }
        return new RemoteRedirect(sb.toString());
    }

    /** Bytes on the wire (the value is ASCII). */
    @Override
    public int length() {
        return value.length();
    }

    /** The host as nginx must send it in {@code Host} (the presigner signed it): lower case, default port left out. */
    private static String authority(URI url) {
        String origin = RemoteOrigins.origin(url);
        return origin.substring(origin.indexOf("://") + 3);
    }

    private static boolean hasDotDotSegment(String path) {
        for (String segment : path.split("/", -1)) {
            if (segment.equals("..")) {
                return true;
            }
        }
        return false;
    }
}
