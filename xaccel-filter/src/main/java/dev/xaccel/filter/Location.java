package dev.xaccel.filter;

import java.nio.file.Path;

/**
 * One {@code locations} entry: a real data root and the internal URI prefix the front-end server maps to it
 * ({@code location ^~ /_xaccel/media/ { internal; alias /srv/media/; }}). Immutable.
 */
final class Location {

    private final SafePathResolver resolver;
    private final String uriPrefix;

    Location(SafePathResolver resolver, String uriPrefix) {
        this.resolver = resolver;
        this.uriPrefix = uriPrefix;
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
        return root() + " => " + uriPrefix;
    }
}
