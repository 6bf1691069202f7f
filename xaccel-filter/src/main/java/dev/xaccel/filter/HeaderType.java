package dev.xaccel.filter;

/**
 * The response header used to hand the file to the front-end server. Always from configuration, never
 * from the request.
 */
public enum HeaderType {
    /** nginx: value is the internal URI prefix of the location followed by the percent-encoded relative path. */
    X_ACCEL_REDIRECT("X-Accel-Redirect", false),
    /** Apache mod_xsendfile / others: value is the absolute, percent-encoded filesystem path. */
    X_SENDFILE("X-Sendfile", true),
    /** lighttpd: value is the absolute, percent-encoded filesystem path. */
    X_LIGHTTPD_SEND_FILE("X-LIGHTTPD-send-file", true);

    private final String headerName;
    private final boolean absolutePath;

    HeaderType(String headerName, boolean absolutePath) {
        this.headerName = headerName;
        this.absolutePath = absolutePath;
    }

    /**
     * The HTTP header name.
     *
     * @return e.g. {@code X-Accel-Redirect}
     */
    public String headerName() {
        return headerName;
    }

    /**
     * Whether the header carries the absolute filesystem path instead of an internal URI.
     *
     * @return {@code true} for {@code X-Sendfile} and {@code X-LIGHTTPD-send-file}
     */
    public boolean usesAbsolutePath() {
        return absolutePath;
    }

    /** {@code true} for nginx, the only server that understands the {@code X-Accel-*} extras. */
    boolean isNginx() {
        return this == X_ACCEL_REDIRECT;
    }

    /** Case-insensitive lookup by header name; {@code null} when unknown. */
    static HeaderType fromHeaderName(String value) {
        if (value == null) {
            return null;
        }
        String v = value.trim();
        for (HeaderType t : values()) {
            if (t.headerName.equalsIgnoreCase(v)) {
                return t;
            }
        }
        return null;
    }
}
