package dev.xaccel.filter.internal.delivery;

import java.nio.charset.StandardCharsets;

import dev.xaccel.filter.HeaderType;
import dev.xaccel.filter.internal.config.Location;
import dev.xaccel.filter.internal.fs.Resolution;
import dev.xaccel.filter.internal.http.Validators;
import dev.xaccel.filter.internal.util.Messages;
import dev.xaccel.filter.internal.util.PercentEncoding;

/**
 * The header value(s) that hand one checked file to the front end, built from the same real path the filter
 * resolved, so that what the front end opens is provably the file the application authorized. Each
 * {@link HeaderType} has the one encoding its front ends decode to exactly that path (measured for nginx, Apache
 * httpd + mod_xsendfile, lighttpd and Caddy, docs/front-ends.md); a name the encoding cannot carry is never
 * offloaded ({@link #refusal}).
 *
 * @param redirect     the offload header's value: for {@code X-Accel-Redirect} the location's internal prefix plus
 *                     the percent-encoded relative path (nginx and Caddy decode it exactly once); for
 *                     {@code X-Sendfile} the absolute real path as raw UTF-8 bytes, one char per byte (the container
 *                     writes header chars 0-255 as single bytes; neither Apache's mod_xsendfile nor lighttpd needs
 *                     encoding, and mod_xsendfile would not decode it)
 * @param rawPath      for nginx, the same internal URI unencoded, as raw bytes, for the cached-decision pattern's
 *                     {@code try_files} jump, which does not decode; only for a cacheable location
 *                     ({@code expires=}), where it is sent; {@code null} for names that jump cannot carry unchanged
 *                     (control characters, {@code ?}), for locations that are not cacheable and for the other
 *                     header types
 * @param validators   the file's, from the size and time its check read ({@link Resolution#size},
 *                     {@link Resolution#lastModified}): the filter decides the request's preconditions and an
 *                     unsatisfiable range with them before the hand-off, and sends them with the offload header.
 *                     They are nginx's own; Apache and lighttpd keep them and evaluate {@code If-None-Match} and
 *                     {@code If-Range} against them; the shipped Caddyfile makes Caddy send and compare them;
 *                     {@code null} for a file checked by its names alone (nginx only, no conditional or range)
 */
public record OffloadHeaders(String redirect, String rawPath, Validators validators) implements OffloadTarget {

    /**
     * Sent with cacheable nginx offloads ({@code locations} entries with {@code expires=}): the value of
     * {@code X-Accel-Redirect} before percent-encoding, as raw bytes.
     */
    public static final String RAW_PATH_HEADER = "X-Accel-Raw-Path";

    /**
     * The headers for {@code file}. Call only for a file {@link #refusal} accepts.
     *
     * @param file a resolution below {@code location}'s root; without {@link Resolution#hasAttributes} (checked by
     *             its names alone, {@code FileLookup.Check.NAMES}) the headers have no validators
     */
    public static OffloadHeaders of(HeaderType type, Location location, Resolution file) {
        Validators validators = file.hasAttributes() ? Validators.of(file.size(), file.lastModified()) : null;
        if (!type.usesAbsolutePath()) {
            String raw = location.cacheable() ? rawBytes(location.uriPrefix() + file.relativePath()) : null;
            return new OffloadHeaders(PercentEncoding.path(location.uriPrefix(), file.relativePath()), raw,
                    validators);
        }
        String redirect = new String(file.file().toString().getBytes(StandardCharsets.UTF_8),
                StandardCharsets.ISO_8859_1);
        return new OffloadHeaders(redirect, null, validators);
    }

    /**
     * Why {@code type}'s value cannot carry {@code file}'s name unchanged to every front end that reads it, or
     * {@code null} when it can. {@code X-Accel-Redirect} carries every name. A raw {@code X-Sendfile} value cannot
     * carry (measured with Apache 2.4 + mod_xsendfile 0.12 and lighttpd 1.4):
     * <ul>
     * <li>a control character (U+0000-U+001F, U+007F): CR, LF and NUL cannot be in a header at all, and containers
     * turn the others into spaces (Tomcat) or strip them;</li>
     * <li>a {@code %} followed by two hex digits: lighttpd percent-decodes the value once ({@code a%20b.bin} would
     * open {@code a b.bin});</li>
     * <li>a space at the end: Apache trims the header value (leading and inner spaces are safe behind the root).</li>
     * </ul>
     */
    public static String refusal(HeaderType type, Resolution file) {
        if (!type.usesAbsolutePath()) {
            return null;
        }
        String path = file.file().toString();
        for (int i = 0; i < path.length(); i++) {
            char c = path.charAt(i);
            if (c < 0x20 || c == 0x7f) {
                return Messages.get("offload.sendfile.control");
            }
            if (c == '%' && i + 2 < path.length() && isHex(path.charAt(i + 1)) && isHex(path.charAt(i + 2))) {
                return Messages.get("offload.sendfile.percent");
            }
        }
        if (path.endsWith(" ")) {
            return Messages.get("offload.sendfile.trailingSpace");
        }
        return null;
    }

    /** Characters of all values together, which is the number of bytes on the wire. */
    public int length() {
        return redirect.length() + (rawPath == null ? 0 : rawPath.length());
    }

    /** The UTF-8 bytes of {@code uri} as ISO-8859-1 characters, or {@code null} when a jump could alter it. */
    public static String rawBytes(String uri) {
        boolean ascii = true;
        for (int i = 0; i < uri.length(); i++) {
            char c = uri.charAt(i);
            if (c < 0x20 || c == 0x7f || c == '?') {
                return null;
            }
            ascii &= c < 0x80;
        }
        return ascii ? uri : new String(uri.getBytes(StandardCharsets.UTF_8), StandardCharsets.ISO_8859_1);
    }

    private static boolean isHex(char c) {
        return (c >= '0' && c <= '9') || (c >= 'A' && c <= 'F') || (c >= 'a' && c <= 'f');
    }
}
