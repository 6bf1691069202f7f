package dev.xaccel.filter.internal.delivery;

import java.util.Optional;

import jakarta.servlet.ServletContext;
import jakarta.servlet.http.HttpServletResponse;

import dev.xaccel.filter.Disposition;
import dev.xaccel.filter.internal.config.XAccelConfig;
import dev.xaccel.filter.internal.http.ContentDisposition;

/**
 * The headers the application's choices give a file, the same whether the front end or the filter sends it.
 *
 * @param contentType           the media type, never {@code null}
 * @param contentDisposition    the {@code Content-Disposition} value, or {@code null}
 * @param cacheControl          the {@code Cache-Control} value, or {@code null}
 * @param contentSecurityPolicy the {@code Content-Security-Policy} value, or {@code null}
 */
public record FileHeaders(String contentType, String contentDisposition, String cacheControl,
        String contentSecurityPolicy) {

    /**
     * Content type (the application's, the context's by the name's extension, the default), disposition and the
     * fixed headers, the same for a local file and a remote object.
     *
     * @param context  for {@code getMimeType}, may be {@code null}
     * @param fileName the file's own name: its type by extension, the name of an attachment without download name
     */
    public static FileHeaders of(XAccelConfig config, ServletContext context, String fileName, Optional<String> type,
            Optional<Disposition> disposition, Optional<String> downloadName) {
        String contentType = type.orElse(null);
        if (contentType == null && context != null) {
            contentType = context.getMimeType(fileName);
        }
        if (contentType == null) {
            contentType = config.defaultContentType();
        }
        Disposition d = disposition.orElse(config.disposition());
        String contentDisposition = null;
        if (downloadName.isPresent()) {
            contentDisposition = ContentDisposition.format(d, downloadName.get());
        } else if (d == Disposition.ATTACHMENT) {
            contentDisposition = ContentDisposition.format(d, fileName);
        }
        return new FileHeaders(contentType, contentDisposition, config.cacheControl(), config.contentSecurityPolicy());
    }

    /**
     * {@code X-Content-Type-Options: nosniff} (a browser must not guess another type than the one given) and the
     * policy. A policy an outer filter set stays: the file's is added beside it, and a browser enforces both.
     */
    public void writeSecurityHeaders(HttpServletResponse resp) {
        resp.setHeader("X-Content-Type-Options", "nosniff");
        if (contentSecurityPolicy != null && !resp.getHeaders(CSP).contains(contentSecurityPolicy)) {
            resp.addHeader(CSP, contentSecurityPolicy);
        }
    }

    private static final String CSP = "Content-Security-Policy";
}
