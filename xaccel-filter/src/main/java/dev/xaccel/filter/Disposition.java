package dev.xaccel.filter;

/** The {@code Content-Disposition} type of a file (init-param {@value InitParams#DISPOSITION}, or per file). */
public enum Disposition {
    /** Display the file in the browser. */
    INLINE("inline"),
    /** Download it. */
    ATTACHMENT("attachment");

    private final String token;

    Disposition(String token) {
        this.token = token;
    }

    /**
     * The header token, also the init-param spelling.
     *
     * @return {@code inline} or {@code attachment}
     */
    public String token() {
        return token;
    }
}
