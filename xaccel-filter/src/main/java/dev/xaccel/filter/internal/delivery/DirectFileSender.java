package dev.xaccel.filter.internal.delivery;

import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.util.List;
import java.util.logging.Level;
import java.util.logging.Logger;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import dev.xaccel.filter.internal.body.BodyWriterChoice;
import dev.xaccel.filter.internal.body.FileBody;
import dev.xaccel.filter.internal.body.TomcatSendfile;
import dev.xaccel.filter.internal.body.ZeroCopy;
import dev.xaccel.filter.internal.fs.ConfinedOpener;
import dev.xaccel.filter.internal.fs.Resolution;
import dev.xaccel.filter.internal.http.ByteRange;
import dev.xaccel.filter.internal.http.ETags;
import dev.xaccel.filter.internal.http.Preconditions;
import dev.xaccel.filter.internal.util.Messages;

/**
 * Serves a file directly with the semantics of nginx's static module: 200, 206 (single range or
 * {@code multipart/byteranges}), 416, HEAD, conditional requests evaluated in RFC 9110 §13.2.2 order
 * (If-Match, If-Unmodified-Since, If-None-Match, If-Modified-Since, If-Range), nginx-compatible strong ETag,
 * Last-Modified with second precision and {@code Accept-Ranges: bytes}.
 *
 * <p>The file is opened once, below its root without following a symbolic link ({@link ConfinedOpener}), and the
 * answer is computed from and sent out of that open file: a link swapped into the path after the filter's check
 * cannot make it send a file from elsewhere. A single range leaves through the {@link ZeroCopy} that
 * {@link BodyWriterChoice} picks for the response: the container's own hand-off of that channel where it has one
 * (Undertow's {@code transferFrom}, Jetty's {@code write(ByteBuffer)} of a mapping), else copied in
 * {@code bufferSize} chunks ({@link FileBody}); multipart bodies are copied.
 *
 * <p>Only when {@code sendfile} is enabled (init-param {@code sendfile=true}, for roots that no untrusted party can
 * write) may a single range be handed to Tomcat's zero-copy sendfile ({@link TomcatSendfile}), which opens the file
 * <em>again, by name</em>. The order of work follows Jetty's {@code ResourceService}: the representation's
 * validators, the preconditions ({@link Preconditions}), the ranges ({@link ByteRange}), the headers, the body
 * ({@link FileBody}, {@link ZeroCopy}).
 *
 * <p>Thread-safe; one instance serves all requests.
 */
public final class DirectFileSender {

    /** Returned by {@link #send} when the file vanished between the check and the open: 404 was sent. */
    public static final long VANISHED = -1;
    /** Returned by {@link #send} when the file shrank before its first byte was sent: a bare 500 was sent. */
    public static final long FAILED = -2;

    private static final Logger LOG = Logger.getLogger(DirectFileSender.class.getName());
    private final FileBody body;
    private final BodyWriterChoice writers;

    /**
     * @param useSendfile whether the container's zero-copy (which re-opens the file by name) may be used
     * @param bufferSize  copy buffer size in bytes, at least 1
     */
    public DirectFileSender(boolean useSendfile, int bufferSize) {
        this.body = new FileBody(bufferSize);
        this.writers = new BodyWriterChoice(useSendfile, body);
    }

    /**
     * Answers the request with the file. The file is opened once, below its root without following a link
     * ({@link ConfinedOpener}), and what is sent is read from that open file; only the opt-in {@code sendfile}
     * hand-off lets Tomcat open it again by name.
     *
     * @param file    the resolved file (its root and real relative path; no root: outside every location)
     * @param headers the headers the application's choices give the file
     * @return the number of body bytes written or handed to sendfile (0 for HEAD, 304, 412, 416), or
     *         {@link #VANISHED} when the file could not be opened (404 sent), or {@link #FAILED} when it turned
     *         out shorter than when it was opened before a byte was sent (bare 500 sent)
     * @throws IOException when the client went away, or reading failed after the response was committed (the
     *                     message never holds a path: the connection is closed early, the client sees a short body)
     */
    public long send(HttpServletRequest req, HttpServletResponse resp, Resolution file, FileHeaders headers)
            throws IOException {
        ConfinedOpener.OpenFile open;
        try {
            open = file.root() == null ? ConfinedOpener.openUnconfined(file.file())
                    : ConfinedOpener.open(file.root(), file.relativePath());
        } catch (ConfinedOpener.Refused | AccessDeniedException e) {
            return vanished(resp, file, e.getMessage());
        }
        try (open) {
            return send(req, resp, file, headers, open);
        } catch (FileBody.Shrank e) {
            if (LOG.isLoggable(Level.FINE)) {
                LOG.fine(Messages.get("sender.fileShrank", file.file(), e.position));
            }
            if (resp.isCommitted()) {
                throw new IOException(Messages.get("sender.fileShrankCommitted"));
            }
            ResponseHeaders.resetKeepingOuterHeaders(resp);
            resp.setStatus(HttpServletResponse.SC_INTERNAL_SERVER_ERROR);
            resp.setContentLength(0);
            return FAILED;
        }
    }

    private long send(HttpServletRequest req, HttpServletResponse resp, Resolution file, FileHeaders headers,
            ConfinedOpener.OpenFile open) throws IOException {
        long size = open.size();
        long lastModified = Math.floorDiv(open.lastModifiedMillis(), 1000L) * 1000L;
        String etag = ETags.strong(size, open.lastModifiedMillis());
        boolean head = "HEAD".equals(req.getMethod());

        switch (Preconditions.evaluate(req, etag, lastModified)) {
            case PRECONDITION_FAILED:
                return empty(resp, HttpServletResponse.SC_PRECONDITION_FAILED);
            case NOT_MODIFIED:
                resp.setStatus(HttpServletResponse.SC_NOT_MODIFIED);
                validators(resp, etag, lastModified, headers);
                return 0;
            default:
                break;
        }
        List<ByteRange> ranges = null;
        String range = req.getHeader("Range");
        if (range != null && Preconditions.isGetOrHead(req) && Preconditions.checkIfRange(req, etag, lastModified)) {
            ranges = ByteRange.parse(range, size);
        }
        resp.setHeader("Accept-Ranges", "bytes");
        if (ranges != null && ranges.isEmpty()) {
            resp.setHeader("Content-Range", "bytes */" + size);
            return empty(resp, HttpServletResponse.SC_REQUESTED_RANGE_NOT_SATISFIABLE);
        }
        validators(resp, etag, lastModified, headers);
        if (headers.contentDisposition() != null) {
            resp.setHeader("Content-Disposition", headers.contentDisposition());
        }
        headers.writeSecurityHeaders(resp);
        if (ranges != null && ranges.size() > 1) {
            return body.multipart(resp, open.channel(), ranges, size, headers.contentType(), head);
        }
        long start = 0;
        long length = size;
        if (ranges == null) {
            resp.setStatus(HttpServletResponse.SC_OK);
        } else {
            ByteRange r = ranges.get(0);
            start = r.start();
            length = r.length();
            resp.setStatus(HttpServletResponse.SC_PARTIAL_CONTENT);
            resp.setHeader("Content-Range", r.contentRange(size));
        }
        resp.setContentType(headers.contentType());
        resp.setContentLengthLong(length);
        if (head) {
            return 0;
        }
        writers.choose(req, resp, file.file(), length).send(open.channel(), start, length);
        return length;
    }

    private static void validators(HttpServletResponse resp, String etag, long lastModified, FileHeaders headers) {
        resp.setHeader("ETag", etag);
        resp.setDateHeader("Last-Modified", lastModified);
        if (headers.cacheControl() != null) {
            resp.setHeader("Cache-Control", headers.cacheControl());
        }
    }

    private static long vanished(HttpServletResponse resp, Resolution file, String reason) throws IOException {
        if (LOG.isLoggable(Level.FINE)) {
            LOG.fine(Messages.get("sender.fileVanished", file.file(), reason));
        }
        if (!resp.isCommitted()) {
            resp.sendError(HttpServletResponse.SC_NOT_FOUND);
        }
        return VANISHED;
    }

    private static long empty(HttpServletResponse resp, int status) {
        resp.setStatus(status);
        resp.setContentLength(0);
        return 0;
    }
}
