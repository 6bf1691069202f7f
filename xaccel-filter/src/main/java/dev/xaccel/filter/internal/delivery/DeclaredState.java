package dev.xaccel.filter.internal.delivery;

import jakarta.servlet.DispatcherType;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletRequestWrapper;
import jakarta.servlet.http.HttpServletResponse;

import dev.xaccel.filter.Declaration;
import dev.xaccel.filter.XAccel;
import dev.xaccel.filter.internal.util.Messages;

/**
 * Per-request state of declared mode, stored as request attribute {@link #ATTRIBUTE} by the filter and found
 * there by {@link XAccel#sendFile}. All access is synchronized: with async processing the declaration may come
 * from another thread than the one that ran the filter.
 */
public final class DeclaredState {

    /** Delivers a declared file (implemented by {@link DeclaredFiles}). */
    public interface Delivery {
        public void deliver(DeclaredState state, Declaration<?> declared) throws java.io.IOException;
    }

    /** Request attribute under which the filter publishes this state. */
    public static final String ATTRIBUTE = DeclaredState.class.getName();

    private final Delivery delivery;
    private final HttpServletRequest request;
    /** What {@link #request()} gives: {@link #request}, or a view of it as the pass of an async dispatch sees it. */
    private volatile HttpServletRequest delivering;
    private final HttpServletResponse response;
    private OffloadResponseWrapper wrapper;
    private Declaration<?> file;
    /** The filter chain has returned (request is async, or finished). */
    private boolean chainReturned;
    /** The declared file has been delivered (or answered with an error). */
    private boolean done;

    public DeclaredState(Delivery delivery, HttpServletRequest request, HttpServletResponse response) {
        this.delivery = delivery;
        this.request = request;
        this.delivering = request;
        this.response = response;
    }

    public void setWrapper(OffloadResponseWrapper wrapper) {
        this.wrapper = wrapper;
    }

    /**
     * The request to deliver with: the one the filter saw, reporting {@link DispatcherType#ASYNC} when the file was
     * declared in the pass of an async dispatch the filter is not mapped for (Tomcat marks only its own wrapper of
     * that pass, and such a pass ends without sending a sendfile body).
     */
    public HttpServletRequest request() {
        return delivering;
    }

    /** The unwrapped response (the offload headers must bypass the wrapper's header filter). */
    public HttpServletResponse response() {
        return response;
    }

    public OffloadResponseWrapper wrapper() {
        return wrapper;
    }

    public synchronized boolean isDeclared() {
        return file != null;
    }

    public synchronized Declaration<?> file() {
        return file;
    }

    /**
     * Declares the file (or remote object). Before the chain returned it is remembered and delivered by the filter
     * afterwards; in an async request after the chain returned (from an async thread, or from the target of
     * {@code AsyncContext.dispatch()} when the filter is not mapped for ASYNC dispatches) it is delivered right
     * away on the calling thread.
     *
     * @param caller the request as the caller sees it (its dispatcher type tells an async dispatch)
     */
    public void declare(Declaration<?> f, HttpServletRequest caller) throws java.io.IOException {
        boolean deliverNow;
        synchronized (this) {
            if (done) {
                throw new IllegalStateException(Messages.get("api.alreadySent"));
            }
            if (chainReturned && !request.isAsyncStarted()
                    && caller.getDispatcherType() != DispatcherType.ASYNC) {
                throw new IllegalStateException(Messages.get("api.tooLate"));
            }
            file = f;
            deliverNow = chainReturned;
            if (deliverNow && caller.getDispatcherType() == DispatcherType.ASYNC
                    && request.getDispatcherType() != DispatcherType.ASYNC) {
                delivering = new AsyncDispatchPass(request);
            }
            if (deliverNow) {
                done = true;
            }
        }
        if (deliverNow) {
            delivery.deliver(this, f);
        }
    }

    /**
     * Called by the filter once the chain has returned.
     *
     * @return the file to deliver now, or {@code null} (nothing declared, or async: a later declaration is
     *         delivered by {@link #declare})
     */
    public synchronized Declaration<?> chainReturned(boolean async) {
        chainReturned = true;
        if (file != null && !done) {
            done = true;
            return file;
        }
        return null;
    }

    /** The request the filter saw, as the pass of an async dispatch: everything else is the request's own. */
    private static final class AsyncDispatchPass extends HttpServletRequestWrapper {
        AsyncDispatchPass(HttpServletRequest request) {
            super(request);
        }

        @Override
        public DispatcherType getDispatcherType() {
            return DispatcherType.ASYNC;
        }
    }
}
