package dev.xaccel.filter;

import java.util.Locale;

/** How symbolic links below a root are treated (init-param {@value InitParams#SYMLINKS}). */
public enum SymlinkPolicy {
    /** Follow symbolic links as long as the real target stays inside the real root (default). */
    WITHIN_ROOT("within-root"),
    /** Reject any path that has a symbolic link as one of its components below the root. */
    NEVER("never");

    private final String paramValue;

    SymlinkPolicy(String paramValue) {
        this.paramValue = paramValue;
    }

    /**
     * The init-param spelling.
     *
     * @return {@code within-root} or {@code never}
     */
    public String paramValue() {
        return paramValue;
    }

    /**
     * Parses {@code within-root} or {@code never} (case-insensitive, surrounding blanks ignored).
     *
     * @throws IllegalArgumentException (a {@code ConfigException} naming the init-param and the value) for any
     *                                  other value, including {@code null}
     */
    static SymlinkPolicy parse(String value) {
        if (value != null) {
            String v = value.trim().toLowerCase(Locale.ROOT);
            for (SymlinkPolicy p : values()) {
                if (p.paramValue.equals(v)) {
                    return p;
                }
            }
        }
        throw ConfigException.invalid(InitParams.SYMLINKS, value, Messages.get("config.symlinks"));
    }
}
