package dev.xaccel.filter.internal.config;

import java.nio.file.Path;

import dev.xaccel.filter.internal.fs.SafePathResolver;

/**
 * One {@code locations} entry: a real data root and the internal URI prefix the front-end server maps to it
 * ({@code location ^~ /_xaccel/media/ { internal; alias /srv/media/; }}).
 *
 * @param resolver     checks paths below the real root
 * @param uriPrefix    the internal URI prefix, starts and ends with {@code /}
 * @param accelExpires the {@code X-Accel-Expires} value of the entry's {@code expires=} option, or {@code null}
 */
public record Location(SafePathResolver resolver, String uriPrefix, String accelExpires) {

    /** The per-entry option of {@code locations}: {@code ROOT => PREFIX expires=SECONDS}. */
    public static final String OPTION_EXPIRES = "expires";

    /** The real root directory. */
    public Path root() {
        return resolver.root();
    }

    /** Whether nginx may cache the decisions for this location (the cached-decision pattern). */
    public boolean cacheable() {
        return accelExpires != null;
    }

    @Override
    public String toString() {
        return root() + " => " + uriPrefix + (accelExpires == null ? "" : " " + OPTION_EXPIRES + "=" + accelExpires);
    }
}
