package dev.xaccel.filter;

/**
 * The response header used to hand the file to the front-end server, with the one encoding of its value that the
 * front ends reading it decode to exactly the file the filter checked (measured, docs/front-ends.md). Always from
 * configuration, never from the request.
 */
public enum HeaderType {
    /**
     * nginx and Caddy: the internal URI prefix of the location followed by the relative path, every byte outside
     * {@code A-Za-z0-9-._~/} percent-encoded; both decode it exactly once. Carries every name.
     */
    X_ACCEL_REDIRECT("X-Accel-Redirect", false),
    /**
     * Apache httpd's mod_xsendfile and lighttpd's mod_proxy: the absolute real path as raw UTF-8 bytes (one header
     * character per byte). mod_xsendfile does not decode, lighttpd decodes {@code %XX} once, and Apache trims the
     * value: a name such a value cannot carry unchanged to both (a control character, a {@code %} followed by two
     * hex digits, a trailing space) is served directly by the filter instead.
     */
    X_SENDFILE("X-Sendfile", true),
    /**
     * lighttpd's own header.
     *
     * @deprecated lighttpd honours it only from mod_fastcgi, never through mod_proxy, where the client would get
     * 200 with an empty body; no servlet container speaks FastCGI. A filter configured with it fails to start
     * ({@code init()} throws, naming the init-param and {@code X-Sendfile}; the builder's {@code headerType} throws
     * an {@link IllegalArgumentException}): use {@link #X_SENDFILE}, which lighttpd's mod_proxy understands
     * ({@code "x-sendfile" => "enable"}).
     */
    @Deprecated(since = "0.1.0", forRemoval = true)
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
     * @return {@code true} for {@code X-Sendfile} (and the deprecated {@code X-LIGHTTPD-send-file})
     */
    public boolean usesAbsolutePath() {
        return absolutePath;
    }

    /**
     * Whether this is nginx's header, which Caddy reads too: only these servers understand (or drop) the
     * {@code X-Accel-*} extras.
     *
     * @return {@code true} for {@code X-Accel-Redirect}
     */
    public boolean isNginx() {
        return this == X_ACCEL_REDIRECT;
    }
}
