package dev.xaccel.filter;

import java.util.Locale;

/** How symbolic links below a root are treated (init-param {@code symlinks}). */
enum SymlinkPolicy {
    /** Follow symbolic links as long as the real target stays inside the real root (default). */
    WITHIN_ROOT,
    /** Reject any path that has a symbolic link as one of its components below the root. */
    NEVER;

    /**
     * Parses {@code within-root} or {@code never} (case-insensitive, surrounding blanks ignored).
     *
     * @throws IllegalArgumentException for any other value, including {@code null}
     */
    static SymlinkPolicy parse(String value) {
        if (value != null) {
            String v = value.trim().toLowerCase(Locale.ROOT);
            if (v.equals("within-root")) {
                return WITHIN_ROOT;
            }
            if (v.equals("never")) {
                return NEVER;
            }
        }
        throw new IllegalArgumentException(Messages.get("symlinkPolicy.invalid", value));
    }
}
