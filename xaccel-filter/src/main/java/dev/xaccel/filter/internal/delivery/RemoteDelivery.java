package dev.xaccel.filter.internal.delivery;

import java.io.IOException;
import java.net.URI;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.logging.Level;
import java.util.logging.Logger;

import jakarta.servlet.ServletContext;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import dev.xaccel.filter.InitParams;
import dev.xaccel.filter.XAccelRemote;
import dev.xaccel.filter.internal.config.RemoteOrigins;
import dev.xaccel.filter.internal.config.XAccelConfig;
import dev.xaccel.filter.internal.metrics.FilterStatistics;
import dev.xaccel.filter.internal.receipt.Receipts;
import dev.xaccel.filter.internal.util.Messages;
import dev.xaccel.filter.internal.util.ThrottledLog;
import dev.xaccel.filter.internal.util.Uris;

/**
 * Answers a request with a declared remote object: refused ({@code 500}, a throttled SEVERE line) unless its
 * origin is in {@code remoteOrigins}; otherwise the object's {@link Representation}, the {@link OffloadDecision},
 * then either the offload answer for nginx ({@link RemoteRedirect}, {@link OffloadResponder#respondRemote}) or the
 * bytes fetched by the filter itself ({@link RemoteFileSender}), the statistics and the delivery receipt (the
 * offload's identifier for nginx, or the receipt of what the filter sent), naming the object by
 * {@link #receiptName(URI)}. Thread-safe; one per filter instance.
 */
public final class RemoteDelivery {

    private static final Logger LOG = Logger.getLogger(RemoteDelivery.class.getName());

    private final XAccelConfig config;
    private final FilterStatistics stats;
    private final RemoteFileSender sender;
    private final ServletContext servletContext;
    private final OffloadDecision decision;
    private final Receipts receipts;
    private final ThrottledLog refusedLog = new ThrottledLog(LOG, Level.SEVERE);

    /**
     * @param sender         the direct path, {@code null} when no origin is allowed (then nothing is sent)
     * @param servletContext for {@code getMimeType}, may be {@code null}
     * @param receipts       the filter's receipts ({@link Receipts#OFF} for none)
     */
    public RemoteDelivery(XAccelConfig config, FilterStatistics stats, OffloadDecision decision,
            RemoteFileSender sender, ServletContext servletContext, Receipts receipts) {
        this.config = config;
        this.receipts = receipts;
        this.stats = stats;
        this.decision = decision;
        this.sender = sender;
        this.servletContext = servletContext;
    }

    /** The filter's one remote delivery: with a shared HTTP client only when some origin is allowed. */
    public static RemoteDelivery create(XAccelConfig config, FilterStatistics stats, OffloadDecision decision,
            int bufferSize, ServletContext servletContext, Receipts receipts) {
        RemoteFileSender sender = config.remoteOrigins().isEmpty() ? null : new RemoteFileSender(bufferSize);
        return new RemoteDelivery(config, stats, decision, sender, servletContext, receipts);
    }

    /** @param resetNeeded downstream wrote body bytes before the object was declared */
    public void deliver(HttpServletRequest req, HttpServletResponse resp, XAccelRemote remote, boolean resetNeeded)
            throws IOException {
        stats.begin();
        try {
            deliverCounted(req, resp, remote, resetNeeded, receipts.enabled() ? System.nanoTime() : 0);
        } finally {
            stats.end();
        }
    }

    private void deliverCounted(HttpServletRequest req, HttpServletResponse resp, XAccelRemote remote,
            boolean resetNeeded, long start) throws IOException {
        URI url = remote.url();
        if (sender == null || !config.remoteOrigins().allows(url)) {
            stats.rejected.increment();
            refusedLog.log(() -> Messages.get("remote.notAllowed", Uris.withoutQuery(url),
                    RemoteOrigins.origin(url), InitParams.REMOTE_ORIGINS, config.remoteOrigins()));
            resp.sendError(HttpServletResponse.SC_INTERNAL_SERVER_ERROR);
            return;
        }
        Representation representation = Representation.of(config, servletContext, name(url), remote);
        OffloadDecision.Route<RemoteRedirect> route = decision.decide(decision.asked(req),
                () -> decision.remoteTarget(url), Uris.withoutQuery(url));
        ResponseHeaders.remove(resp, OffloadResponseWrapper.FILE_MANAGED_HEADERS);
        if (route.offloaded()) {
            OffloadResponder.respondRemote(config, route.target().value(), representation, resp);
            if (receipts.issuing()) {
                resp.setHeader(Receipts.HEADER, receipts.issue(receiptName(url), tag(remote)));
            }
            stats.offloaded.increment();
            return;
        }
        if (resetNeeded) {
            ResponseHeaders.resetKeepingOuterHeaders(resp);
        }
        Sent sent;
        try {
            sent = sender.send(req, resp, url, representation);
        } catch (IOException e) {
            if (receipts.enabled()) {
                // the client went away, or the store's body broke off, after the answer was committed
                receipts.sent(receiptName(url), tag(remote), req.getHeader("Range"), start, resp.getStatus(), -1,
                        false);
            }
            throw e;
        }
        sent.countIn(stats);
        if (receipts.enabled() && sent.kind() == Sent.Kind.BODY) {
            // only an answer that went out, as for a file: not the 404 or 5xx of a store that failed
            receipts.sent(receiptName(url), tag(remote), req.getHeader("Range"), start, resp.getStatus(),
                    sent.bytes(), true);
        }
    }

    /**
     * The object as a receipt names it: the URL without its query, {@code scheme://host[:port]/raw/path} (for S3
     * the bucket and key as the application presigned them). The query is left out: a presigned URL's query is
     * its credential, and a receipt reaches listeners, meters' consumers and logs.
     */
    public static String receiptName(URI url) {
        return url.getScheme() + "://" + url.getRawAuthority() + (url.getRawPath() == null ? "" : url.getRawPath());
    }

    private static String tag(XAccelRemote remote) {
        return remote.tag().orElse(null);
    }

    /** The URL's last path segment, decoded: the object's own name (type by extension, attachment name). */
    public static String name(URI url) {
        String path = url.getRawPath() == null ? "" : url.getRawPath();
        String last = path.substring(path.lastIndexOf('/') + 1);
        if (last.isEmpty()) {
            return "download";
        }
        try {
            return URLDecoder.decode(last.replace("+", "%2B"), StandardCharsets.UTF_8);
        } catch (IllegalArgumentException e) {
            return last;
        }
    }
}
