package dev.xaccel.filter.internal.config;

import java.nio.file.Path;

import dev.xaccel.filter.internal.fs.SafePathResolver;

/**
 * One {@code mappings} entry: requests whose path within the application starts with {@link #urlPrefix()} are
 * answered by the filter from the resolver's root.
 *
 * @param urlPrefix starts and ends with {@code /}
 * @param resolver  checks request paths below the real root
 */
public record Mapping(String urlPrefix, SafePathResolver resolver) {

    /** The real root directory. */
    public Path root() {
        return resolver.root();
    }

    /** The part of {@code pathInApp} after the prefix, or {@code null} when the prefix does not match. */
    public String remainder(String pathInApp) {
        return pathInApp.startsWith(urlPrefix) ? pathInApp.substring(urlPrefix.length()) : null;
    }

    @Override
    public String toString() {
        return urlPrefix + " => " + root();
    }
}
