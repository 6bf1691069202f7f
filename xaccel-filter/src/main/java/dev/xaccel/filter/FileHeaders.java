package dev.xaccel.filter;

import jakarta.servlet.http.HttpServletResponse;

/**
 * The headers the application's choices give a file, the same whether the front end or the filter sends it.
 *
 * @param contentType           the media type, never {@code null}
 * @param contentDisposition    the {@code Content-Disposition} value, or {@code null}
 * @param cacheControl          the {@code Cache-Control} value, or {@code null}
 * @param contentSecurityPolicy the {@code Content-Security-Policy} value, or {@code null}
 */
record FileHeaders(String contentType, String contentDisposition, String cacheControl,
        String contentSecurityPolicy) {

    /**
     * {@code X-Content-Type-Options: nosniff} (a browser must not guess another type than the one given) and the
     * policy. A policy an outer filter set stays: the file's is added beside it, and a browser enforces both.
     */
    void writeSecurityHeaders(HttpServletResponse resp) {
        resp.setHeader("X-Content-Type-Options", "nosniff");
        if (contentSecurityPolicy != null && !resp.getHeaders(CSP).contains(contentSecurityPolicy)) {
            resp.addHeader(CSP, contentSecurityPolicy);
        }
    }

    private static final String CSP = "Content-Security-Policy";
}
