package dev.xaccel.filter.internal.delivery;

import jakarta.servlet.http.HttpServletRequest;
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
        this.response = response;
    }

    public void setWrapper(OffloadResponseWrapper wrapper) {
        this.wrapper = wrapper;
    }

    public HttpServletRequest request() {
        return request;
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
                    && caller.getDispatcherType() != jakarta.servlet.DispatcherType.ASYNC) {
                throw new IllegalStateException(Messages.get("api.tooLate"));
            }
            file = f;
            deliverNow = chainReturned;
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
}
