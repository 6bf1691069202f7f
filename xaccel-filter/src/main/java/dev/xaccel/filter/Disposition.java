package dev.xaccel.filter;

import java.util.Locale;

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

    /** Case-insensitive parse of the token; {@code null} for anything else. */
    static Disposition parseOrNull(String value) {
        if (value != null) {
            String v = value.trim().toLowerCase(Locale.ROOT);
            for (Disposition d : values()) {
                if (d.token.equals(v)) {
                    return d;
                }
            }
        }
        return null;
    }
}
