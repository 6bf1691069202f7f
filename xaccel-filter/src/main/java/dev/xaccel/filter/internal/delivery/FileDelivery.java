package dev.xaccel.filter.internal.delivery;

import java.io.IOException;
import java.nio.file.Path;
import java.util.logging.Level;
import java.util.logging.Logger;

import jakarta.servlet.ServletContext;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import dev.xaccel.filter.InitParams;
import dev.xaccel.filter.XAccelFile;
import dev.xaccel.filter.internal.config.Location;
import dev.xaccel.filter.internal.config.XAccelConfig;
import dev.xaccel.filter.internal.fs.ConfinedOpener;
import dev.xaccel.filter.internal.fs.Resolution;
import dev.xaccel.filter.internal.metrics.FilterStatistics;
import dev.xaccel.filter.internal.util.Messages;
import dev.xaccel.filter.internal.util.ThrottledLog;

/**
 * Answers a request with one checked file, the same way for mapped and declared mode: the file's headers (type,
 * disposition, cache and security headers), then either the offload answer ({@link OffloadResponder}) or the bytes
 * ({@link DirectFileSender}), and the statistics. Thread-safe; one per filter instance.
 */
public final class FileDelivery {

    private static final Logger LOG = Logger.getLogger(FileDelivery.class.getName());

    private final XAccelConfig config;
    private final FilterStatistics stats;
    private final DirectFileSender sender;
    private final ServletContext servletContext;
    private final ThrottledLog tooLongLog = new ThrottledLog(LOG, Level.WARNING);
    private final ThrottledLog notCarriedLog = new ThrottledLog(LOG, Level.WARNING);
    private final RootWatch roots;

    /** @param servletContext for {@code getMimeType}, may be {@code null} */
    public FileDelivery(XAccelConfig config, FilterStatistics stats, DirectFileSender sender, ServletContext servletContext) {
        this.config = config;
        this.stats = stats;
        this.sender = sender;
        this.servletContext = servletContext;
        this.roots = new RootWatch(config);
    }

    public XAccelConfig config() {
        return config;
    }

    /**
     * Whether a resolution for this request may check only the file's own name for a link
     * ({@code frontEndConfines}): the request is offloadable, so the front end opens the file and refuses links;
     * should it still be served directly, {@link ConfinedOpener} refuses them too.
     */
    public boolean finalNameOnly(boolean offloadable) {
        return offloadable && config.frontEndConfines();
    }

    public FilterStatistics stats() {
        return stats;
    }

    /**
     * @param file        the checked file: below the real root of {@code location}, or outside every root
     * @param location    the location containing the file, or {@code null} (then always direct)
     * @param declared    the application's choices (type, name, disposition)
     * @param resetNeeded downstream wrote body bytes before the file was declared
     * @param offloadable {@link OffloadResponder#shouldOffload} of the request, taken before the file was resolved
     */
    public void deliver(HttpServletRequest req, HttpServletResponse resp, Resolution file, Location location,
            XAccelFile declared, boolean resetNeeded, boolean offloadable) throws IOException {
        stats.begin();
        try {
            roots.beforeDelivery();
            deliverCounted(req, resp, file, location, declared, resetNeeded, offloadable);
        } finally {
            stats.end();
        }
    }

    private void deliverCounted(HttpServletRequest req, HttpServletResponse resp, Resolution file, Location location,
            XAccelFile declared, boolean resetNeeded, boolean offloadable) throws IOException {
        FileHeaders headers = fileHeaders(file, declared);
        boolean toFrontEnd = location != null && offloadable;
        String notCarried = toFrontEnd ? OffloadHeaders.refusal(config.headerType(), file) : null;
        if (notCarried != null) {
            Path refused = file.file();
            notCarriedLog.log(() -> Messages.get("filter.nameNotCarried", refused, config.headerType().headerName(),
                    notCarried));
        }
        OffloadHeaders offload = toFrontEnd && notCarried == null
                ? OffloadHeaders.of(config.headerType(), location, file) : null;
        if (offload != null && offload.length() > config.maxRedirectLength()) {
            Path tooLong = file.file();
            int length = offload.length();
            tooLongLog.log(() -> Messages.get("filter.redirectTooLong", tooLong, length,
                    InitParams.MAX_REDIRECT_LENGTH, config.maxRedirectLength()));
            offload = null;
        }
        if (LOG.isLoggable(Level.FINE)) {
            LOG.fine(Messages.get("filter.deliver", file.file(), offload != null ? "offload" : "direct"));
        }
        // possibly set by downstream code before the declaration (a compressing filter's Content-Encoding, ...)
        ResponseHeaders.remove(resp, OffloadResponseWrapper.FILE_MANAGED_HEADERS);
        if (offload != null) {
            OffloadResponder.respond(config, location, file.file(), offload, headers, resp);
            stats.offloaded.increment();
            return;
        }
        if (resetNeeded) {
            // downstream wrote body bytes (and may hold the writer) before declaring the file
            ResponseHeaders.resetKeepingOuterHeaders(resp);
        }
        long bytes = sender.send(req, resp, file, headers);
        if (bytes == DirectFileSender.VANISHED) {
            stats.notFound.increment();
            roots.notFound();
        } else if (bytes == DirectFileSender.FAILED) {
            stats.rejected.increment();
        } else {
            stats.servedDirectly.increment();
            stats.bytesServedDirectly.add(bytes);
        }
    }

    /** Answers a rejection with its status (when not committed) and counts it; the reason goes to FINE only. */
    public void reject(HttpServletResponse resp, Resolution r, Object what) throws IOException {
        stats.countRejection(r.status());
        if (r.status() == HttpServletResponse.SC_NOT_FOUND) {
            roots.notFound();
        }
        if (LOG.isLoggable(Level.FINE)) {
            LOG.fine(Messages.get("filter.rejected", what, r.status(), r.reason()));
        }
        if (!resp.isCommitted()) {
            resp.sendError(r.status());
        }
    }

    /** The headers the application's choices give the file (by its real name). */
    private FileHeaders fileHeaders(Resolution real, XAccelFile file) {
        return FileHeaders.of(config, servletContext, fileName(real), file.contentType(), file.disposition(),
                file.downloadName());
    }

    /** The real file's name: the last segment of its path below the root (no new string for a file at the top). */
    public static String fileName(Resolution real) {
        String relative = real.relativePath();
        if (relative == null) {
            return real.file().getFileName().toString();
        }
        int slash = relative.lastIndexOf('/');
        return slash < 0 ? relative : relative.substring(slash + 1);
    }
}
