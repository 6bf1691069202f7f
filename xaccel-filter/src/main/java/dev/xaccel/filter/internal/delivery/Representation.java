package dev.xaccel.filter.internal.delivery;

import java.util.Locale;

import jakarta.servlet.ServletContext;
import jakarta.servlet.http.HttpServletResponse;

import dev.xaccel.filter.Declaration;
import dev.xaccel.filter.Disposition;
import dev.xaccel.filter.internal.config.XAccelConfig;
import dev.xaccel.filter.internal.http.ContentDisposition;
import dev.xaccel.filter.internal.http.Validators;

/**
 * What an answer says about the file (or remote object) it carries, the same whether the front end or the filter
 * sends the bytes: type, disposition, cache policy and security headers; the validators come from the file when
 * it is read. This class is the only code that writes a file's headers: the offload answer
 * ({@link #writeOffloaded}), a body the filter sends ({@link #writeServed}) and an answer without one
 * ({@link #writeValidators}). Status, ranges and the offload header itself are the senders'.
 *
 * @param contentType           the media type, never {@code null}
 * @param contentDisposition    the {@code Content-Disposition} value, or {@code null}
 * @param cacheControl          the {@code Cache-Control} value, or {@code null}
 * @param contentSecurityPolicy the {@code Content-Security-Policy} value, or {@code null}
 * @param extras                nginx's per-response settings ({@code X-Accel-*}), never {@code null}
 */
public record Representation(String contentType, String contentDisposition, String cacheControl,
        String contentSecurityPolicy, AccelExtras extras) {

    /** Without per-response settings: the init-params' defaults. */
    public Representation(String contentType, String contentDisposition, String cacheControl,
            String contentSecurityPolicy) {
        this(contentType, contentDisposition, cacheControl, contentSecurityPolicy,
                new AccelExtras(null, null, null, null));
    }

    private static final String CSP = "Content-Security-Policy";

    /**
     * Content type (the application's, the context's by the name's extension, the default), disposition and the
     * fixed headers, the same for a local file and a remote object.
     *
     * @param context  for {@code getMimeType}, may be {@code null}
     * @param name     the file's own name: its type by extension, the name of an attachment without download name
     * @param declared the application's choices; {@code null} for none (mapped mode: the filter's defaults)
     */
    public static Representation of(XAccelConfig config, ServletContext context, String name,
            Declaration<?> declared) {
        String type = declared == null ? null : declared.contentType().orElse(null);
        if (type == null && context != null) {
            type = context.getMimeType(name);
        }
        if (type == null) {
            type = config.defaultContentType();
        }
        Disposition d = declared == null ? config.disposition() : declared.disposition().orElse(config.disposition());
        String disposition = null;
        if (declared != null && declared.downloadName().isPresent()) {
            disposition = ContentDisposition.format(d, declared.downloadName().get());
        } else if (d == Disposition.ATTACHMENT) {
            disposition = ContentDisposition.format(d, name);
        }
        return new Representation(type, disposition, config.cacheControl(), config.contentSecurityPolicy(),
                AccelExtras.of(config, declared));
    }

    /**
     * The offload answer's headers: the type, disposition, cache policy and security headers the front end passes
     * on, and the file's validators, which the front ends that keep them answer {@code If-Range} with.
     *
     * @param validators the file's, or {@code null} for a remote object (the store's are passed on)
     * @param toNginx    the front end is nginx ({@code frontEnd=nginx}): only the headers it copies across the
     *                   redirect (its upstream table's {@code redirect} flag: type, disposition, cache policy) are
     *                   written; it drops the validators and the security headers, computes the validators from the
     *                   file and the shipped internal locations add their own security headers
     */
    public void writeOffloaded(HttpServletResponse resp, Validators validators, boolean toNginx) {
        resp.setContentType(contentType);
        disposition(resp);
        cacheControl(resp);
        if (toNginx) {
            return;
        }
        security(resp);
        if (validators != null) {
            validators(resp, validators);
        }
    }

    /**
     * The headers of an answer without a body of the file (304; the store's 412 or 416): the validators and
     * the cache policy.
     *
     * @param validators the file's, or {@code null} when the sender passed on the store's own
     */
    public void writeValidators(HttpServletResponse resp, Validators validators) {
        if (validators != null) {
            validators(resp, validators);
        }
        cacheControl(resp);
    }

    /**
     * The headers of a body the filter sends: validators, cache policy, disposition, security headers, type
     * (with the {@link AccelExtras#charset()} when it names none), length, and a declared
     * {@code X-Accel-Buffering} for an nginx that proxies this answer.
     *
     * @param validators the file's, or {@code null} when the sender passed on the store's own
     * @param type       the body's type: this representation's, or a multipart type for several ranges
     * @param length     the body's length, or {@code -1} when unknown (then the container frames it)
     */
    public void writeServed(HttpServletResponse resp, Validators validators, String type, long length) {
        writeValidators(resp, validators);
        disposition(resp);
        security(resp);
        resp.setContentType(withCharset(type));
        if (extras.buffering() != null) {
            resp.setHeader("X-Accel-Buffering", extras.bufferingValue());
        }
        if (length >= 0) {
            resp.setContentLengthLong(length);
        }
    }

    /** A type without charset parameter (nor a multipart one) gets the answer's charset. */
    private String withCharset(String type) {
        if (extras.charset() == null || type.regionMatches(true, 0, "multipart/", 0, 10)
                || type.toLowerCase(Locale.ROOT).contains("charset=")) {
            return type;
        }
        return type + ";charset=" + extras.charset();
    }

    private static void validators(HttpServletResponse resp, Validators v) {
        resp.setHeader("ETag", v.etag());
        // formatted once per file identity (Validators.of), not by the container on every request
        resp.setHeader("Last-Modified", v.lastModifiedText());
    }

    private void disposition(HttpServletResponse resp) {
        if (contentDisposition != null) {
            resp.setHeader("Content-Disposition", contentDisposition);
        }
    }

    private void cacheControl(HttpServletResponse resp) {
        if (cacheControl != null) {
            resp.setHeader("Cache-Control", cacheControl);
        }
    }

    /**
     * {@code X-Content-Type-Options: nosniff} (a browser must not guess another type than the one given) and the
     * policy. A policy an outer filter set stays: the file's is added beside it, and a browser enforces both.
     */
    private void security(HttpServletResponse resp) {
        resp.setHeader("X-Content-Type-Options", "nosniff");
        if (contentSecurityPolicy != null
                && (!resp.containsHeader(CSP) || !resp.getHeaders(CSP).contains(contentSecurityPolicy))) {
            resp.addHeader(CSP, contentSecurityPolicy);
        }
    }
}
