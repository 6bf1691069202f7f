package dev.xaccel.filter;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Objects;

import jakarta.servlet.ServletContext;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import dev.xaccel.filter.internal.delivery.DeclaredState;
import dev.xaccel.filter.internal.util.Messages;

/**
 * Declared mode: application code (servlet, controller) decides which file answers the request and hands it
 * to the {@link XAccelFilter} in front of it.
 *
 * <pre>{@code
 * if (!user.mayRead(track)) { resp.sendError(403); return; }
 * XAccel.sendFile(req, resp, XAccelFile.of(track.path()).downloadName(track.title() + ".mp3"));
 * return; // write nothing else
 * }</pre>
 *
 * The filter delivers the file after the servlet returns, and only if the final status is 2xx and the
 * response was not committed: either with an offload header for the front-end server, or by sending the
 * bytes itself. Anything written to the body after the declaration is discarded.
 * <p>
 * Async requests: a file declared before the servlet returns is delivered when the filter regains control,
 * even if async processing started. A file declared from an async thread (after the servlet returned) is
 * delivered immediately on the calling thread, so call {@code sendFile} before {@code AsyncContext.complete()}.
 */
public final class XAccel {

    private XAccel() {
    }

    /**
     * Same as {@code sendFile(req, resp, XAccelFile.of(file))}.
     *
     * @param req  the request the filter handles
     * @param resp the response (the one passed to the servlet)
     * @param file an absolute path inside a configured location
     * @throws IOException when delivered immediately (async) and sending fails
     */
    public static void sendFile(HttpServletRequest req, HttpServletResponse resp, Path file) throws IOException {
        sendFile(req, resp, XAccelFile.of(file));
    }

    /**
     * Declares {@code file} as the response to {@code req}.
     *
     * @param req  the request the filter handles
     * @param resp the response (the one passed to the servlet), may be {@code null}
     * @param file the file and its download name, type and disposition
     * @throws IllegalStateException if no {@link XAccelFilter} handles this request, the response is already
     *                               committed, or a file was already sent for this request
     * @throws IOException           when delivered immediately (async) and sending fails
     */
    public static void sendFile(HttpServletRequest req, HttpServletResponse resp, XAccelFile file)
            throws IOException {
        declare(req, resp, Objects.requireNonNull(file, "file"));
    }

    /**
     * Declares a remote object (a presigned URL of an S3-compatible store) as the response to {@code req}, after
     * the application authorized it. Its origin must be in the filter's {@code remoteOrigins}. Behind nginx the
     * filter answers with {@code X-Accel-Redirect} to the shipped {@code /_xaccel/remote/} location, which fetches
     * the object from the store; otherwise the filter streams it itself. Presign for seconds: nginx uses the URL at
     * once.
     *
     * <pre>{@code
     * if (!user.mayRead(track)) { resp.sendError(403); return; }
     * XAccel.sendRemote(req, resp, XAccelRemote.of(presignedUrl).downloadName(track.title() + ".mp3"));
     * }</pre>
     *
     * @param req    the request the filter handles
     * @param resp   the response (the one passed to the servlet), may be {@code null}
     * @param remote the object's URL and its download name, type and disposition
     * @throws IllegalStateException if no {@link XAccelFilter} handles this request, the response is already
     *                               committed, or a file was already sent for this request
     * @throws IOException           when delivered immediately (async) and sending fails
     */
    public static void sendRemote(HttpServletRequest req, HttpServletResponse resp, XAccelRemote remote)
            throws IOException {
        declare(req, resp, Objects.requireNonNull(remote, "remote"));
    }

    private static void declare(HttpServletRequest req, HttpServletResponse resp, Declaration<?> file)
            throws IOException {
        Objects.requireNonNull(req, "req");
        Object state = req.getAttribute(DeclaredState.ATTRIBUTE);
        if (!(state instanceof DeclaredState declared)) {
            throw new IllegalStateException(Messages.get("api.noFilter", req.getRequestURI()));
        }
        if (resp != null && resp.isCommitted()) {
            throw new IllegalStateException(Messages.get("api.committed"));
        }
        declared.declare(file, req);
    }

    /**
     * The {@link SignedLinks} configured by the application's {@link XAccelFilter} ({@code signedLinkSecret},
     * {@code signedLinkPrefix}, {@code signedLinkTtl}), published as context attribute
     * {@link SignedLinks#CONTEXT_ATTRIBUTE} when the filter starts.
     *
     * <pre>{@code
     * String src = XAccel.signedLinks(req.getServletContext()).sign("covers/" + book.id() + ".jpg");
     * }</pre>
     *
     * @param context the application's servlet context
     * @return the signer of the filter configured with {@code signedLinkSecret}
     * @throws IllegalStateException if no filter configures signed links (or none has started yet)
     */
    public static SignedLinks signedLinks(ServletContext context) {
        Object links = Objects.requireNonNull(context, "context").getAttribute(SignedLinks.CONTEXT_ATTRIBUTE);
        if (!(links instanceof SignedLinks signed)) {
            throw new IllegalStateException(Messages.get("api.noSignedLinks"));
        }
        return signed;
    }

    /**
     * Whether an {@link XAccelFilter} handles this request in declared mode (so {@code sendFile} works).
     *
     * @param req the request
     * @return {@code true} when {@code sendFile} can be called for it
     */
    public static boolean isAvailable(HttpServletRequest req) {
        return req.getAttribute(DeclaredState.ATTRIBUTE) instanceof DeclaredState;
    }
}
