package dev.xaccel.filter.internal.delivery;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.logging.Level;
import java.util.logging.Logger;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import dev.xaccel.filter.internal.body.BodyWriter;
import dev.xaccel.filter.internal.body.BodyWriterChoice;
import dev.xaccel.filter.internal.body.FileBody;
import dev.xaccel.filter.internal.body.TomcatSendfile;
import dev.xaccel.filter.internal.fs.ConfinedOpener;
import dev.xaccel.filter.internal.fs.OpenFile;
import dev.xaccel.filter.internal.fs.Opening;
import dev.xaccel.filter.internal.fs.Resolution;
import dev.xaccel.filter.internal.http.Answer;
import dev.xaccel.filter.internal.http.ByteRange;
import dev.xaccel.filter.internal.http.Validators;
import dev.xaccel.filter.internal.util.Messages;

/**
 * Serves a file directly with the semantics of nginx's static module: 200, 206 (single range or
 * {@code multipart/byteranges}), 416, HEAD, conditional requests evaluated in RFC 9110 §13.2.2 order
 * (If-Match, If-Unmodified-Since, If-None-Match, If-Modified-Since, If-Range), nginx-compatible strong ETag,
 * Last-Modified with second precision and {@code Accept-Ranges: bytes}.
 *
 * <p>The file is opened once, below its root without following a symbolic link ({@link ConfinedOpener}), and the
 * answer is computed from and sent out of that open file: a link swapped into the path after the filter's check
 * cannot make it send a file from elsewhere. A single range leaves through the {@link BodyWriter} that
 * {@link BodyWriterChoice} picks for the response: the container's own hand-off of that channel where it has one
 * (Undertow's {@code transferFrom}, Jetty's {@code write(ByteBuffer)} of a mapping, Tomcat's sendfile through the
 * xaccel connector, which then owns and closes the channel), else copied in
 * {@code bufferSize} chunks ({@link FileBody}); multipart bodies are copied.
 *
 * <p>Only when {@code sendfile} is enabled (init-param {@code sendfile=true}, for roots that no untrusted party can
 * write) may a single range be handed to Tomcat's zero-copy sendfile ({@link TomcatSendfile}), which opens the file
 * <em>again, by name</em>. The order of work follows Jetty's {@code ResourceService}: the representation's
 * validators, the preconditions and the ranges ({@link Answer}; a 304, 412 or 416 is {@link #sendWithoutFile},
 * shared with the offload path), the headers, the body ({@link FileBody}, {@link BodyWriter}).
 *
 * <p>Thread-safe; one instance serves all requests.
 */
public final class DirectFileSender {

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
     * @param file           the resolved file (its root and real relative path; no root: outside every location)
     * @param representation the headers the application's choices give the file
     * @return the body sent, or {@link Sent#NOT_FOUND} when the file could not be opened (404 sent), or
     *         {@link Sent#FAILED} when it turned out shorter than when it was opened before a byte was sent
     *         (bare 500 sent)
     * @throws IOException when the client went away, or reading failed after the response was committed (the
     *                     message never holds a path: the connection is closed early, the client sees a short body)
     */
    public Sent send(HttpServletRequest req, HttpServletResponse resp, Resolution file, Representation representation)
            throws IOException {
        Opening opening = ConfinedOpener.open(file);
        if (!opening.isOpen()) {
            return vanished(resp, file.file(), opening.resolution().reason());
        }
        return send(req, resp, opening.file(), file.file(), representation);
    }

    /**
     * Answers the request out of a file already opened below its root ({@link ConfinedOpener}); closes it, unless
     * its channel was handed to the xaccel Tomcat connector, which sends from it and closes it after the filter
     * has returned ({@link dev.xaccel.filter.internal.body.ConnectorSendfile}).
     *
     * @param name the file's path, for the FINE log only
     */
    public Sent send(HttpServletRequest req, HttpServletResponse resp, OpenFile open, Path name,
            Representation representation) throws IOException {
        try (open) {
            return answer(req, resp, open, name, representation);
        } catch (FileBody.Shrank e) {
            if (LOG.isLoggable(Level.FINE)) {
                LOG.fine(Messages.get("sender.fileShrank", name, e.position));
            }
            if (resp.isCommitted()) {
                throw new IOException(Messages.get("sender.fileShrankCommitted"));
            }
            ResponseHeaders.resetKeepingOuterHeaders(resp);
            resp.setStatus(HttpServletResponse.SC_INTERNAL_SERVER_ERROR);
            resp.setContentLength(0);
            return Sent.FAILED;
        }
    }

    /** As Jetty's {@code ResourceService}: validators, preconditions and ranges, headers, body. */
    private Sent answer(HttpServletRequest req, HttpServletResponse resp, OpenFile open, Path name,
            Representation representation) throws IOException {
        long size = open.size();
        Validators validators = Validators.of(size, open.lastModifiedMillis());
        Answer answer = Answer.of(req, validators, size);
        if (!answer.sendsFile()) {
            return sendWithoutFile(resp, answer, validators, size, representation);
        }
        resp.setHeader("Accept-Ranges", "bytes");
        boolean head = "HEAD".equals(req.getMethod());
        List<ByteRange> ranges = answer.ranges();
        if (ranges.size() > 1) {
            FileBody.Multipart multipart = body.multipart(ranges, size, representation.contentType());
            resp.setStatus(HttpServletResponse.SC_PARTIAL_CONTENT);
            representation.writeServed(resp, validators, multipart.contentType(), multipart.length());
            if (!head) {
                if (open.content() != null) {
                    multipart.write(open.content(), resp.getOutputStream());
                } else {
                    multipart.write(body, open.channel(), resp.getOutputStream());
                }
            }
            return Sent.body(head ? 0 : multipart.length());
        }
        long start = 0;
        long length = size;
        if (ranges.isEmpty()) {
            resp.setStatus(HttpServletResponse.SC_OK);
        } else {
            ByteRange r = ranges.get(0);
            start = r.start();
            length = r.length();
            resp.setStatus(HttpServletResponse.SC_PARTIAL_CONTENT);
            resp.setHeader("Content-Range", r.contentRange(size));
        }
        representation.writeServed(resp, validators, representation.contentType(), length);
        if (head) {
            return Sent.body(0);
        }
        if (open.content() != null) {
            // a small file kept in memory, validated against the file at its name just before
            BodyWriterChoice.loggedFromMemory(length, name);
            resp.getOutputStream().write(open.content(), (int) start, (int) length);
            return Sent.body(length);
        }
        BodyWriter writer = writers.choose(req, resp, open, name, length);
        writer.send(open.channel(), start, length);
        long sent = length;
        return writer.handedOff().map(c -> Sent.handedOff(sent, c)).orElseGet(() -> Sent.body(sent));
    }

    /**
     * The answers that carry no byte of the file, decided from its validators and size alone ({@link Answer}):
     * 304 with the validators, 412, 416 with {@code Content-Range: bytes *}{@code /size}. The filter's own answer
     * whoever would have sent the file: the direct path above, and the offload path before the hand-off
     * ({@link FileDelivery}), so that no front end is asked to open a file for them.
     *
     * @param answer a {@link Answer#sendsFile() bodiless} answer
     */
    public static Sent sendWithoutFile(HttpServletResponse resp, Answer answer, Validators validators, long size,
            Representation representation) {
        switch (answer.kind()) {
            case NOT_MODIFIED:
                resp.setStatus(HttpServletResponse.SC_NOT_MODIFIED);
                representation.writeValidators(resp, validators);
                return Sent.body(0);
            case PRECONDITION_FAILED:
                return empty(resp, HttpServletResponse.SC_PRECONDITION_FAILED);
            case RANGE_NOT_SATISFIABLE:
                resp.setHeader("Accept-Ranges", "bytes");
                resp.setHeader("Content-Range", "bytes */" + size);
                return empty(resp, HttpServletResponse.SC_REQUESTED_RANGE_NOT_SATISFIABLE);
            default:
                throw new IllegalArgumentException(answer.kind().name());
        }
    }

    private static Sent vanished(HttpServletResponse resp, Path file, String reason) throws IOException {
        if (LOG.isLoggable(Level.FINE)) {
            LOG.fine(Messages.get("sender.fileVanished", file, reason));
        }
        if (!resp.isCommitted()) {
            resp.sendError(HttpServletResponse.SC_NOT_FOUND);
        }
        return Sent.NOT_FOUND;
    }

    private static Sent empty(HttpServletResponse resp, int status) {
        resp.setStatus(status);
        resp.setContentLength(0);
        return Sent.body(0);
    }
}
