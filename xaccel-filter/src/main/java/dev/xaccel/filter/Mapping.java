package dev.xaccel.filter;

import java.nio.file.Path;

/**
 * One {@code mappings} entry: requests whose path within the application starts with {@link #urlPrefix()} are
 * answered by the filter from {@link #root()}. Immutable.
 */
final class Mapping {

    private final String urlPrefix;
    private final SafePathResolver resolver;

    Mapping(String urlPrefix, SafePathResolver resolver) {
        this.urlPrefix = urlPrefix;
        this.resolver = resolver;
    }

    /** Starts and ends with {@code /}. */
    String urlPrefix() {
        return urlPrefix;
    }

    /** The real root directory. */
    Path root() {
        return resolver.root();
    }

    SafePathResolver resolver() {
        return resolver;
    }

    /** The part of {@code pathInApp} after the prefix, or {@code null} when the prefix does not match. */
    String remainder(String pathInApp) {
        return pathInApp.startsWith(urlPrefix) ? pathInApp.substring(urlPrefix.length()) : null;
    }

    @Override
    public String toString() {
        return urlPrefix + " => " + root();
    }
}
