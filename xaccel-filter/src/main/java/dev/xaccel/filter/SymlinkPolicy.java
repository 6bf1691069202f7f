package dev.xaccel.filter;

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
}
