package dev.xaccel.filter;

import java.util.Locale;

/** When the filter hands a file to the front-end server instead of sending the bytes itself. */
public enum OffloadMode {
    /**
     * Offload only when the remote address is a trusted proxy AND the request carries the marker header whose
     * value equals the configured header type (case-insensitive). Otherwise serve directly.
     */
    AUTO,
    /** Always answer with the offload header (the front-end server must be there). */
    ALWAYS,
    /** Never offload: the filter always sends the file itself. */
    NEVER;

    /**
     * The init-param spelling.
     *
     * @return {@code auto}, {@code always} or {@code never}
     */
    public String paramValue() {
        return name().toLowerCase(Locale.ROOT);
    }
}
