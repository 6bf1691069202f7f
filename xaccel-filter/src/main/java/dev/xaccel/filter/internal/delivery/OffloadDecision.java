package dev.xaccel.filter.internal.delivery;

import java.net.URI;
import java.util.function.Supplier;
import java.util.logging.Level;
import java.util.logging.Logger;

import jakarta.servlet.http.HttpServletRequest;

import dev.xaccel.filter.InitParams;
import dev.xaccel.filter.internal.config.Location;
import dev.xaccel.filter.internal.config.XAccelConfig;
import dev.xaccel.filter.internal.fs.Resolution;
import dev.xaccel.filter.internal.http.FrontEndTrust;
import dev.xaccel.filter.internal.util.Messages;
import dev.xaccel.filter.internal.util.ThrottledLog;
import dev.xaccel.filter.internal.util.Uris;

/**
 * The one place that decides whether an answer is handed to the front end or sent by the filter, and why
 * ({@link #decide}). The request's side ({@link #asked}) is taken once per request, before the path is resolved,
 * because it also tells the resolver how much it may leave to the front end ({@code frontEndConfines}); the
 * target's side ({@link #fileTarget}, {@link #remoteTarget}) says whether the front end can be given this file or
 * object at all. Thread-safe; one per filter instance.
 */
public final class OffloadDecision {

    private static final Logger LOG = Logger.getLogger(OffloadDecision.class.getName());

    /** Why an answer goes where it goes. */
    public enum Why {
        /** The front end asked for it and can be given the target. */
        OFFLOADED,
        /** {@code offload=never}, or no trusted front end sent the marker. */
        NOT_ASKED,
        /** A file outside every location ({@code allowUnmapped}): no internal URI names it. */
        OUTSIDE_LOCATIONS,
        /** The header type's encoding cannot carry the file's name unchanged (logged, throttled). */
        NAME_NOT_CARRIED,
        /** Only nginx fetches remote objects. */
        NOT_NGINX,
        /** A remote URL nginx would refuse ({@code ..} segment; logged, throttled). */
        DOT_SEGMENT,
        /** Longer than {@code maxRedirectLength} (logged, throttled). */
        TOO_LONG
    }

    /**
     * Where an answer goes.
     *
     * @param target what the front end is given, {@code null} when the filter sends the answer itself
     * @param why    the reason, {@link Why#OFFLOADED} exactly when there is a target
     * @param <T>    the kind of target
     */
    public record Route<T extends OffloadTarget>(T target, Why why) {

        static <T extends OffloadTarget> Route<T> offload(T target) {
            return new Route<>(target, Why.OFFLOADED);
        }

        /** One per reason: a route without target holds nothing of the request. */
        private static final Route<?>[] DIRECT = new Route<?>[Why.values().length];

        static {
            for (Why why : Why.values()) {
                DIRECT[why.ordinal()] = new Route<>(null, why);
            }
        }

        @SuppressWarnings("unchecked")
        static <T extends OffloadTarget> Route<T> direct(Why why) {
            return (Route<T>) DIRECT[why.ordinal()];
        }

        /** Whether the front end sends the answer. */
        public boolean offloaded() {
            return target != null;
        }
    }

    private final XAccelConfig config;
    private final ThrottledLog notCarriedLog = new ThrottledLog(LOG, Level.WARNING);
    private final ThrottledLog tooLongLog = new ThrottledLog(LOG, Level.WARNING);

    public OffloadDecision(XAccelConfig config) {
        this.config = config;
    }

    /**
     * The request's side: {@code offload=always}, or {@code auto} with the marker naming this header type on a
     * connection from a trusted front end. The marker is compared, never taken from the request.
     */
    public boolean asked(HttpServletRequest req) {
        switch (config.offload()) {
            case NEVER:
                return false;
            case ALWAYS:
                return true;
            default:
                String marker = req.getHeader(config.markerHeader());
                return marker != null && config.headerType().headerName().equalsIgnoreCase(marker.trim())
                        && FrontEndTrust.trusted(config.trustedProxies(), req);
        }
    }

    /**
     * The decision: not asked, the target's own refusal, or a target longer than {@code maxRedirectLength} make
     * the filter send the answer; otherwise the front end is given the target.
     *
     * @param asked  {@link #asked} of the request
     * @param target {@link #fileTarget} or {@link #remoteTarget}, built only when asked
     * @param what   the file or object, for the log line (never a URL's query)
     */
    public <T extends OffloadTarget> Route<T> decide(boolean asked, Supplier<Route<T>> target, Object what) {
        if (!asked) {
            return Route.direct(Why.NOT_ASKED);
        }
        return judged(target.get(), what);
    }

    /**
     * {@link #decide} for a local file, without a supplier to allocate on every request.
     *
     * @param found the file's check when asked, {@code null} when not asked
     */
    public Route<OffloadHeaders> decideFile(FileLookup.Found found, Object what) {
        if (found == null) {
            return Route.direct(Why.NOT_ASKED);
        }
        return judged(fileTarget(found.location(), found.file()), what);
    }

    private <T extends OffloadTarget> Route<T> judged(Route<T> route, Object what) {
        if (route.offloaded() && route.target().length() > config.maxRedirectLength()) {
            int length = route.target().length();
            tooLongLog.log(() -> Messages.get("filter.redirectTooLong", what, length,
                    InitParams.MAX_REDIRECT_LENGTH, config.maxRedirectLength()));
            return Route.direct(Why.TOO_LONG);
        }
        if (LOG.isLoggable(Level.FINE)) {
            LOG.fine(Messages.get("filter.deliver", what, route.why()));
        }
        return route;
    }

    /** A local file's target: its offload headers, unless it lies outside every location or its name cannot go. */
    public Route<OffloadHeaders> fileTarget(Location location, Resolution file) {
        if (location == null) {
            return Route.direct(Why.OUTSIDE_LOCATIONS);
        }
        String notCarried = OffloadHeaders.refusal(config.headerType(), file);
        if (notCarried != null) {
            notCarriedLog.log(() -> Messages.get("filter.nameNotCarried", file.file(),
                    config.headerType().headerName(), notCarried));
            return Route.direct(Why.NAME_NOT_CARRIED);
        }
        return Route.offload(OffloadHeaders.of(config.headerType(), location, file));
    }

    /** A remote object's target: the redirect to nginx's remote location, where nginx can carry the URL. */
    public Route<RemoteRedirect> remoteTarget(URI url) {
        if (!config.headerType().isNginx()) {
            return Route.direct(Why.NOT_NGINX);
        }
        RemoteRedirect redirect = RemoteRedirect.of(url);
        if (redirect == null) {
            notCarriedLog.log(() -> Messages.get("remote.dotSegment", Uris.withoutQuery(url)));
            return Route.direct(Why.DOT_SEGMENT);
        }
        return Route.offload(redirect);
    }
}
