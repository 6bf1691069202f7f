package dev.xaccel.filter.internal.delivery;

import java.io.IOException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.logging.Level;
import java.util.logging.Logger;

import jakarta.servlet.ServletContext;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import dev.xaccel.filter.Disposition;
import dev.xaccel.filter.FrontEnd;
import dev.xaccel.filter.SymlinkPolicy;
import dev.xaccel.filter.XAccelFile;
import dev.xaccel.filter.internal.config.XAccelConfig;
import dev.xaccel.filter.internal.fs.ConfinedOpener;
import dev.xaccel.filter.internal.fs.Opening;
import dev.xaccel.filter.internal.fs.Resolution;
import dev.xaccel.filter.internal.http.Answer;
import dev.xaccel.filter.internal.metrics.FilterStatistics;
import dev.xaccel.filter.internal.receipt.Receipts;
import dev.xaccel.filter.internal.util.Messages;

/**
 * Answers a request with one checked file, the same way for mapped and declared mode: the file's
 * {@link Representation}, the {@link OffloadDecision}, then either the offload answer ({@link OffloadResponder})
 * or the bytes ({@link DirectFileSender}), and the statistics. Before a hand-off, what the request's
 * conditional and range headers decide from the file's validators alone ({@link Answer}: 304, 412, 416) is
 * answered here ({@link DirectFileSender#sendWithoutFile}), so every front end answers it alike and none opens
 * the file for it. Thread-safe; one per filter instance.
 */
public final class FileDelivery {

    private static final Logger LOG = Logger.getLogger(FileDelivery.class.getName());
    /** At most this many kept representations, whatever types a context reports. */
    private static final int MAX_TYPES = 256;

    private final XAccelConfig config;
    private final FilterStatistics stats;
    private final OffloadDecision decision;
    private final DirectFileSender sender;
    private final ServletContext servletContext;
    private final RootWatch roots;
    private final Receipts receipts;
    /** {@link #representation}'s, by media type ({@code ""}: the context knows none). */
    private final ConcurrentHashMap<String, Representation> byType = new ConcurrentHashMap<>();

    /**
     * @param servletContext for {@code getMimeType}, may be {@code null}
     * @param roots          the watch over the configuration's roots
     */
    public FileDelivery(XAccelConfig config, FilterStatistics stats, OffloadDecision decision,
            DirectFileSender sender, ServletContext servletContext, RootWatch roots) {
        this(config, stats, decision, sender, servletContext, roots, Receipts.OFF);
    }

    /** @param receipts the filter's receipts ({@link Receipts#OFF} for none) */
    public FileDelivery(XAccelConfig config, FilterStatistics stats, OffloadDecision decision,
            DirectFileSender sender, ServletContext servletContext, RootWatch roots, Receipts receipts) {
        this.receipts = receipts;
        this.config = config;
        this.stats = stats;
        this.decision = decision;
        this.sender = sender;
        this.servletContext = servletContext;
        this.roots = roots;
    }

    public XAccelConfig config() {
        return config;
    }

    public OffloadDecision decision() {
        return decision;
    }

    /**
     * How much of the file a request the front end asked for is checked on disk before it is handed off; the
     * filter's own answers always check and open in one pass ({@link FileLookup#open}).
     * <ul>
     * <li>{@link FileLookup.Check#FINAL_NAME} with {@code frontEndConfines}: the front end opens the file and
     * refuses links in its directories; should it still be served directly, {@link ConfinedOpener} refuses them
     * too.</li>
     * <li>{@link FileLookup.Check#NAMES} when, besides, nginx is the only front end ({@code frontEnd=nginx}: it
     * computes the validators itself), {@code symlinks=never} (nginx's {@code disable_symlinks on} refuses exactly
     * the links the filter would, also as the file's own name, where {@code within-root} needs the filter to
     * resolve them) and the request asks nothing of the file's validators or size ({@link Answer#needsFile}):
     * what the walk decides, nginx's open decides again without a race, so no file-system call is made.</li>
     * </ul>
     *
     * @param asked {@link OffloadDecision#asked} of the request
     */
    public FileLookup.Check check(HttpServletRequest req, boolean asked) {
        if (!asked || !config.frontEndConfines()) {
            return FileLookup.Check.WALK;
        }
        return config.frontEnd() == FrontEnd.NGINX && config.symlinks() == SymlinkPolicy.NEVER
                && !Answer.needsFile(req) ? FileLookup.Check.NAMES : FileLookup.Check.FINAL_NAME;
    }

    public FilterStatistics stats() {
        return stats;
    }

    public Receipts receipts() {
        return receipts;
    }

    /**
     * @param lookup      the request's file, not yet checked
     * @param declared    the application's choices (type, name, disposition); {@code null} for the defaults
     * @param resetNeeded downstream wrote body bytes before the file was declared
     * @param asked       {@link OffloadDecision#asked} of the request
     * @param what        the requested path or declared file, for log lines
     */
    public void deliver(HttpServletRequest req, HttpServletResponse resp, FileLookup lookup, XAccelFile declared,
            boolean resetNeeded, boolean asked, Object what) throws IOException {
        stats.begin();
        try {
            roots.beforeDelivery();
            deliverCounted(req, resp, lookup, declared, resetNeeded, asked, what,
                    receipts.enabled() ? System.nanoTime() : 0);
        } finally {
            stats.end();
        }
    }

    private void deliverCounted(HttpServletRequest req, HttpServletResponse resp, FileLookup lookup,
            XAccelFile declared, boolean resetNeeded, boolean asked, Object what, long start) throws IOException {
        // Only a file the front end may be given is checked without being opened; the filter's own answers check
        // and open in one pass (lookup.open()).
        FileLookup.Check check = check(req, asked);
        FileLookup.Found found = asked ? lookup.resolve(check) : null;
        if (found != null && !found.file().isOk()) {
            reject(resp, found.file(), what);
            return;
        }
        OffloadDecision.Route<OffloadHeaders> route = decision.decideFile(found, what);
        Opening opening = null;
        // a file checked by its names alone is only ever handed off: sent directly, it is checked and opened anew
        if (!route.offloaded() && (found == null || check == FileLookup.Check.NAMES)) {
            opening = lookup.open();
            if (!opening.isOpen()) {
                reject(resp, opening.resolution(), what);
                return;
            }
        }
        Resolution file = opening == null ? found.file() : opening.resolution();
        // The request's preconditions and an unsatisfiable range are decided from the validators alone: the
        // filter answers those itself (as Jetty's passConditionalHeaders) and hands off only a body of the file.
        // Checked by its names, the request has none of those headers: the whole file, without validators.
        Answer answer = !route.offloaded() ? null
                : check == FileLookup.Check.NAMES ? Answer.WHOLE_FILE
                : Answer.of(req, route.target().validators(), file.size());
        boolean handOff = answer != null && answer.sendsFile();
        Representation representation;
        try {
            representation = representation(fileName(file), declared);
            // possibly set by downstream code before the declaration (a compressing filter's Content-Encoding, ...)
            ResponseHeaders.remove(resp, OffloadResponseWrapper.FILE_MANAGED_HEADERS);
            if (resetNeeded && !handOff) {
                // downstream wrote body bytes (and may hold the writer) before declaring the file
                ResponseHeaders.resetKeepingOuterHeaders(resp);
            }
        } catch (RuntimeException e) {
            if (opening != null) {
                opening.file().close();
            }
            throw e;
        }
        if (handOff) {
            OffloadResponder.respond(config, found.location(), file.file(), route.target(), representation, resp);
            // an answer nginx may cache (X-Accel-Expires not 0) gets no identifier: every cache hit would replay it
            // (stale lines) and the cached path logs none (a false unreceipted); such deliveries are not receipted
            if (receipts.issuing() && !cacheable(resp)) {
                resp.setHeader(Receipts.HEADER, receipts.issue(receiptName(declared, what), tag(declared)));
            }
            stats.offloaded.increment();
            return;
        }
        if (answer != null) {
            Sent sent = DirectFileSender.sendWithoutFile(resp, answer, route.target().validators(), file.size(),
                    representation);
            sent.countIn(stats);
            receipt(req, resp, declared, what, start, sent);
            return;
        }
        Sent sent;
        try {
            sent = opening != null ? sender.send(req, resp, opening.file(), file.file(), representation)
                    : sender.send(req, resp, file, representation);
        } catch (IOException e) {
            if (receipts.enabled()) {
                // the client went away (or reading failed) after the answer was committed: how much of it the
                // client got is not known here
                receipts.sent(receiptName(declared, what), tag(declared), req.getHeader("Range"), start,
                        resp.getStatus(), -1, false);
            }
            throw e;
        }
        sent.countIn(stats);
        receipt(req, resp, declared, what, start, sent);
        if (sent.kind() == Sent.Kind.NOT_FOUND) {
            roots.notFound();
        }
    }

    /**
     * The file's representation. Without a declaration nor an attachment (mapped mode's usual case) it depends on
     * the type alone, so one per type is kept: the types are the container's mappings and the default, few.
     */
    private Representation representation(String name, XAccelFile declared) {
        if (declared != null || config.disposition() == Disposition.ATTACHMENT) {
            return Representation.of(config, servletContext, name, declared);
        }
        String type = servletContext == null ? null : servletContext.getMimeType(name);
        Representation kept = byType.get(type == null ? "" : type);
        if (kept != null) {
            return kept;
        }
        Representation made = Representation.of(config, servletContext, name, null);
        if (byType.size() < MAX_TYPES) {
            byType.putIfAbsent(type == null ? "" : type, made);
        }
        return made;
    }

    /** Whether nginx may cache this offload answer ({@code X-Accel-Expires} set and not {@code 0}). */
    private static boolean cacheable(HttpServletResponse resp) {
        String expires = resp.getHeader("X-Accel-Expires");
        return expires != null && !expires.equals("0");
    }

    /**
     * The receipt of an answer the filter sent itself: only one that went out (not a 404 or a failure). A body the
     * container sends after the filter returned is receipted when the container closes its channel, with the bytes
     * that left by then: complete only when all did.
     */
    private void receipt(HttpServletRequest req, HttpServletResponse resp, XAccelFile declared, Object what,
            long start, Sent sent) {
        if (!receipts.enabled()) {
            return;
        }
        String name = receiptName(declared, what);
        String tag = tag(declared);
        String range = req.getHeader("Range");
        int status = resp.getStatus();
        if (sent.kind() == Sent.Kind.BODY) {
            receipts.sent(name, tag, range, start, status, sent.bytes(), true);
        } else if (sent.kind() == Sent.Kind.HANDED_OFF) {
            sent.handOff().orElseThrow().whenClosed(bytes -> receipts.sent(name, tag, range, start, status, bytes,
                    bytes == sent.bytes()));
        }
    }

    /** The file as the application named it: the declared path, else the request's path in the application. */
    private static String receiptName(XAccelFile declared, Object what) {
        return declared != null ? declared.path().toString() : String.valueOf(what);
    }

    private static String tag(XAccelFile declared) {
        return declared == null ? null : declared.tag().orElse(null);
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
