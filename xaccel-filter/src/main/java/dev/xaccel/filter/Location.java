package dev.xaccel.filter;

import java.nio.file.Path;

/**
 * One {@code locations} entry: a real data root and the internal URI prefix the front-end server maps to it
 * ({@code location ^~ /_xaccel/media/ { internal; alias /srv/media/; }}). Immutable.
 */
final class Location {

    /** The per-entry option of {@code locations}: {@code ROOT => PREFIX expires=SECONDS}. */
    static final String OPTION_EXPIRES = "expires";

    private final SafePathResolver resolver;
    private final String uriPrefix;
    private final String accelExpires;

    Location(SafePathResolver resolver, String uriPrefix) {
        this(resolver, uriPrefix, null);
    }

    /** @param accelExpires the entry's {@code expires=} option, or {@code null} */
    Location(SafePathResolver resolver, String uriPrefix, String accelExpires) {
        this.resolver = resolver;
        this.uriPrefix = uriPrefix;
        this.accelExpires = accelExpires;
    }

    /** The {@code X-Accel-Expires} value of this location ({@code expires=} option), or {@code null}. */
    String accelExpires() {
        return accelExpires;
    }

    /** The real root directory. */
    Path root() {
        return resolver.root();
    }

    /** Internal URI prefix, starts and ends with {@code /}. */
    String uriPrefix() {
        return uriPrefix;
    }

    SafePathResolver resolver() {
        return resolver;
    }

    @Override
    public String toString() {
        return root() + " => " + uriPrefix + (accelExpires == null ? "" : " " + OPTION_EXPIRES + "=" + accelExpires);
    }
}
