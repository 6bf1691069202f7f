package dev.xaccel.filter;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.List;
import java.util.logging.Level;
import java.util.logging.Logger;

import jakarta.servlet.ServletRequest;
import jakarta.servlet.ServletRequestWrapper;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

/**
 * Serves a file directly with the semantics of nginx's static module: 200, 206 (single range or
 * {@code multipart/byteranges}), 416, HEAD, conditional requests evaluated in RFC 9110 §13.2.2 order
 * (If-Match, If-Unmodified-Since, If-None-Match, If-Modified-Since, If-Range), nginx-compatible strong ETag,
 * Last-Modified with second precision and {@code Accept-Ranges: bytes}.
 *
 * <p>The file is opened once, below its root without following a symbolic link ({@link ConfinedOpener}), and the
 * answer is computed from and copied out of that open file in {@code bufferSize} chunks: a link swapped into the
 * path after the filter's check cannot make it send a file from elsewhere.
 *
 * <p>Only when {@code sendfile} is enabled (init-param {@code sendfile=true}, for roots that no untrusted party can
 * write) is the body handed to Tomcat's zero-copy sendfile, which opens the file <em>again, by name</em>: when the
 * connector offers it ({@value #SENDFILE_SUPPORT} is {@code TRUE}), the request and response are Tomcat's own
 * unwrapped facades (compared by class name: no Tomcat dependency), and the body is the whole file or a single
 * range of at least {@link #SENDFILE_MIN_SIZE} bytes.
 *
 * <p>Thread-safe; one instance serves all requests.
 */
final class DirectFileSender {

    /** Returned by {@link #send} when the file vanished between the check and the open: 404 was sent. */
    static final long VANISHED = -1;
    /** Returned by {@link #send} when the file shrank before its first byte was sent: a bare 500 was sent. */
    static final long FAILED = -2;

    /** Request attribute set by Tomcat connectors that support sendfile. */
    static final String SENDFILE_SUPPORT = "org.apache.tomcat.sendfile.support";
    /** Request attribute: absolute file name (String). */
    static final String SENDFILE_FILENAME = "org.apache.tomcat.sendfile.filename";
    /** Request attribute: first byte (Long). */
    static final String SENDFILE_START = "org.apache.tomcat.sendfile.start";
    /** Request attribute: end offset, exclusive (Long). */
    static final String SENDFILE_END = "org.apache.tomcat.sendfile.end";
    /** Smaller bodies are copied: sendfile's setup cost is not worth it (Tomcat's DefaultServlet uses 48 KiB). */
    static final long SENDFILE_MIN_SIZE = 48 * 1024;

    static final String REQUEST_FACADE = "org.apache.catalina.connector.RequestFacade";
    static final String RESPONSE_FACADE = "org.apache.catalina.connector.ResponseFacade";

    private static final Logger LOG = Logger.getLogger(DirectFileSender.class.getName());
    private static final SecureRandom RANDOM = new SecureRandom();

    private final boolean useSendfile;
    private final int bufferSize;

    /**
     * @param useSendfile whether the container's zero-copy (which re-opens the file by name) may be used
     * @param bufferSize  copy buffer size in bytes, at least 1
     */
    DirectFileSender(boolean useSendfile, int bufferSize) {
        if (bufferSize < 1) {
            throw new IllegalArgumentException(Messages.get("sender.badBufferSize", bufferSize));
        }
        this.useSendfile = useSendfile;
        this.bufferSize = bufferSize;
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
    long send(HttpServletRequest req, HttpServletResponse resp, Resolution file, FileHeaders headers)
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
        } catch (FileShrank e) {
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
            return multipart(resp, open.channel(), ranges, size, headers.contentType(), head);
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
        if (sendfile(req, resp, file.file(), start, length)) {
            return length;
        }
        OutputStream out = resp.getOutputStream();
        copy(open.channel(), start, length, out);
        out.flush();
        return length;
    }

    private static void validators(HttpServletResponse resp, String etag, long lastModified, FileHeaders headers) {
        resp.setHeader("ETag", etag);
        resp.setDateHeader("Last-Modified", lastModified);
        if (headers.cacheControl() != null) {
            resp.setHeader("Cache-Control", headers.cacheControl());
        }
    }

    private long multipart(HttpServletResponse resp, FileChannel channel, List<ByteRange> ranges, long size,
            String type, boolean head) throws IOException {
        String boundary = boundary();
        List<byte[]> partHeaders = new ArrayList<>(ranges.size());
        long total = 0;
        for (ByteRange r : ranges) {
            String h = "\r\n--" + boundary + "\r\nContent-Type: " + type + "\r\nContent-Range: "
                    + r.contentRange(size) + "\r\n\r\n";
            byte[] bytes = h.getBytes(StandardCharsets.ISO_8859_1);
            partHeaders.add(bytes);
            total += bytes.length + r.length();
        }
        byte[] trailer = ("\r\n--" + boundary + "--\r\n").getBytes(StandardCharsets.ISO_8859_1);
        total += trailer.length;

        resp.setStatus(HttpServletResponse.SC_PARTIAL_CONTENT);
        resp.setContentType("multipart/byteranges; boundary=" + boundary);
        resp.setContentLengthLong(total);
        if (head) {
            return 0;
        }
        OutputStream out = resp.getOutputStream();
        for (int i = 0; i < ranges.size(); i++) {
            out.write(partHeaders.get(i));
            copy(channel, ranges.get(i).start(), ranges.get(i).length(), out);
        }
        out.write(trailer);
        out.flush();
        return total;
    }

    private boolean sendfile(HttpServletRequest req, HttpServletResponse resp, Path file, long start, long length) {
        if (!useSendfile || length < SENDFILE_MIN_SIZE || !RESPONSE_FACADE.equals(resp.getClass().getName())) {
            return false;
        }
        // Security and auth filters commonly wrap the request; the container reads the sendfile attributes from
        // its own request object, so they are set there (a wrapper might keep attributes to itself). A wrapped
        // response, on the other hand, may transform the body: then the bytes are copied through it.
        ServletRequest container = innermost(req);
        if (!REQUEST_FACADE.equals(container.getClass().getName())
                || !Boolean.TRUE.equals(container.getAttribute(SENDFILE_SUPPORT))) {
            return false;
        }
        container.setAttribute(SENDFILE_FILENAME, file.toAbsolutePath().toString());
        container.setAttribute(SENDFILE_START, Long.valueOf(start));
        container.setAttribute(SENDFILE_END, Long.valueOf(start + length));
        if (LOG.isLoggable(Level.FINE)) {
            LOG.fine("sendfile " + file + " [" + start + ", " + (start + length) + ")");
        }
        return true;
    }

    private static ServletRequest innermost(ServletRequest request) {
        ServletRequest r = request;
        while (r instanceof ServletRequestWrapper) {
            r = ((ServletRequestWrapper) r).getRequest();
        }
        return r;
    }

    private void copy(FileChannel channel, long start, long length, OutputStream out) throws IOException {
        ByteBuffer buffer = ByteBuffer.allocate((int) Math.min(bufferSize, Math.max(1, length)));
        long position = start;
        long remaining = length;
        while (remaining > 0) {
            buffer.clear();
            if (remaining < buffer.capacity()) {
                buffer.limit((int) remaining);
            }
            int n = channel.read(buffer, position);
            if (n < 0) {
                throw new FileShrank(position);
            }
            out.write(buffer.array(), 0, n);
            position += n;
            remaining -= n;
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

    /** The file ended before the length it had when it was opened. Carries no path: it may reach a log. */
    private static final class FileShrank extends IOException {
        private static final long serialVersionUID = 1L;
        final long position;

        FileShrank(long position) {
            super(Messages.get("sender.fileShrankCommitted"));
            this.position = position;
        }
    }

    private static String boundary() {
        byte[] bytes = new byte[12];
        RANDOM.nextBytes(bytes);
        StringBuilder sb = new StringBuilder("xaccel-");
        for (byte b : bytes) {
            sb.append(Character.forDigit((b >> 4) & 0xf, 16)).append(Character.forDigit(b & 0xf, 16));
        }
        return sb.toString();
    }
}
