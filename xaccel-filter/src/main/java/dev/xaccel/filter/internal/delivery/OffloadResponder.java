package dev.xaccel.filter.internal.delivery;

import java.nio.file.Path;
import java.util.logging.Level;
import java.util.logging.Logger;

import jakarta.servlet.http.HttpServletResponse;

import dev.xaccel.filter.FrontEnd;
import dev.xaccel.filter.internal.config.Location;
import dev.xaccel.filter.internal.config.XAccelConfig;
import dev.xaccel.filter.internal.http.Validators;
import dev.xaccel.filter.internal.util.Messages;

/**
 * The offload answer that hands the file to the front end: status 200, an empty body ({@code Content-Length: 0},
 * which keeps nginx's upstream connection reusable), the file's own headers ({@link Representation}), the offload
 * header(s) and nginx's {@code X-Accel-*} extras.
 */
public final class OffloadResponder {

    private static final Logger LOG = Logger.getLogger(OffloadResponder.class.getName());

    private OffloadResponder() {
    }

    /** Writes the offload answer; the response is not committed and holds no body. */
    public static void respond(XAccelConfig cfg, Location location, Path file, OffloadHeaders offload,
            Representation representation, HttpServletResponse resp) {
        // Apache, lighttpd and the shipped Caddyfile keep the validators and answer If-Range with them; nginx
        // drops them across the redirect and computes the same from the file (frontEnd=nginx: not written)
        begin(cfg, offload.redirect(), representation, offload.validators(), resp);
        if (cfg.headerType().isNginx()) {
            accelExpires(cfg, location, representation.extras(), resp, file);
            if (location.cacheable() && offload.rawPath() != null) {
                resp.setHeader(OffloadHeaders.RAW_PATH_HEADER, offload.rawPath());
            }
        } else {
            // Apache sends none of its own (nginx and Caddy do)
            resp.setHeader("Accept-Ranges", "bytes");
        }
        resp.setContentLength(0);
    }

    /**
     * Writes the offload answer for a remote object (nginx only). It carries {@code X-Accel-Expires: 0}: a
     * decision that names a presigned URL must never be cached (the URL expires within seconds).
     *
     * @param redirect the {@link RemoteRedirect} value
     */
    public static void respondRemote(XAccelConfig cfg, String redirect, Representation representation,
            HttpServletResponse resp) {
        begin(cfg, redirect, representation, null, resp);
        resp.setHeader("X-Accel-Expires", "0");
        resp.setContentLength(0);
    }

    /**
     * Status, the file's headers, the offload header and nginx's rate and charset extras. No
     * {@code X-Accel-Buffering}: nginx applies it to the answer it reads it from, and this answer's body is empty;
     * the location the redirect names buffers as its own {@code proxy_buffering} says (measured, docs/filter.md).
     */
    private static void begin(XAccelConfig cfg, String redirect, Representation representation,
            Validators validators, HttpServletResponse resp) {
        resp.resetBuffer();
        resp.setStatus(HttpServletResponse.SC_OK);
        representation.writeOffloaded(resp, validators, cfg.frontEnd() == FrontEnd.NGINX);
        resp.setHeader(cfg.headerType().headerName(), redirect);
        if (cfg.headerType().isNginx()) {
            AccelExtras extras = representation.extras();
            if (extras.limitRate() != null) {
                resp.setHeader("X-Accel-Limit-Rate", extras.limitRate().toString());
            }
            if (extras.charset() != null) {
                resp.setHeader("X-Accel-Charset", extras.charset());
            }
        }
    }

    /**
     * {@code X-Accel-Expires} of the declaration, else of the location, else the global {@code accelExpires}. A
     * cacheable value (not {@code 0}) also gets {@code Vary: <cacheVary>}, merged into one header line (nginx 1.22
     * reads only the first {@code Vary}); a response carrying {@code Set-Cookie} is never cacheable:
     * {@code X-Accel-Expires: 0}.
     */
    private static void accelExpires(XAccelConfig cfg, Location location, AccelExtras extras,
            HttpServletResponse resp, Path file) {
        String expires = extras.accelExpires() != null ? extras.accelExpires()
                : location.accelExpires() != null ? location.accelExpires() : cfg.accelExpires();
        if (expires == null) {
            return;
        }
        if (!expires.equals("0") && resp.containsHeader("Set-Cookie")) {
            if (LOG.isLoggable(Level.FINE)) {
                LOG.fine(Messages.get("filter.setCookieNotCached", file));
            }
            expires = "0";
        }
        resp.setHeader("X-Accel-Expires", expires);
        if (!expires.equals("0")) {
            String vary = resp.getHeader("Vary");
            resp.setHeader("Vary", vary == null || vary.isBlank() ? cfg.cacheVary() : vary + ", " + cfg.cacheVary());
        }
    }
}
