package dev.xaccel.filter;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.Enumeration;
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
 * <p>The body goes through Tomcat's zero-copy sendfile when enabled, offered by the connector
 * ({@value #SENDFILE_SUPPORT} is {@code TRUE}), the request and response are Tomcat's own unwrapped facades
 * (compared by class name: no Tomcat dependency), the body is the whole file or a single range and at least
 * {@link #SENDFILE_MIN_SIZE} bytes long. Otherwise it is copied in {@code bufferSize} chunks.
 *
 * <p>Thread-safe; one instance serves all requests.
 */
final class DirectFileSender {

    /** Returned by {@link #send} when the file vanished between the check and the open: 404 was sent. */
    static final long VANISHED = -1;

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
    private static final String DEFAULT_CONTENT_TYPE = "application/octet-stream";

    private final boolean useSendfile;
    private final int bufferSize;

    /**
     * @param useSendfile whether the container's zero-copy may be used
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
     * Answers the request with the file.
     *
     * @param contentType        explicit type ({@code application/octet-stream} when {@code null})
     * @param contentDisposition header value or {@code null}
     * @param cacheControl       header value or {@code null}
     * @return the number of body bytes written or handed to sendfile (0 for HEAD, 304, 412, 416), or {@link #VANISHED} when
     *         the file disappeared before it could be opened (404 sent)
     * @throws IOException when the client went away (or reading failed) during the body
     */
    long send(HttpServletRequest req, HttpServletResponse resp, Path file, String contentType,
            String contentDisposition, String cacheControl) throws IOException {
        FileChannel channel;
        try {
            channel = FileChannel.open(file, StandardOpenOption.READ);
        } catch (NoSuchFileException | AccessDeniedException e) {
            return vanished(resp, file);
        }
        try (channel) {
            long size = channel.size();
            long lastModified;
            try {
                lastModified = Files.getLastModifiedTime(file).toMillis();
            } catch (NoSuchFileException e) {
                return vanished(resp, file);
            }
            long lastModifiedSec = Math.floorDiv(lastModified, 1000L);
            String etag = ETags.strong(size, lastModified);
            String type = contentType == null ? DEFAULT_CONTENT_TYPE : contentType;
            String method = req.getMethod();
            boolean head = "HEAD".equals(method);
            boolean getOrHead = head || "GET".equals(method);

            // RFC 9110 §13.2.2
            String ifMatch = joinedHeader(req, "If-Match");
            if (ifMatch != null) {
                if (!ETags.matchesStrong(ifMatch, etag)) {
                    return empty(resp, HttpServletResponse.SC_PRECONDITION_FAILED);
                }
            } else {
                long ius = dateHeader(req, "If-Unmodified-Since");
                if (ius >= 0 && lastModifiedSec * 1000L > ius) {
                    return empty(resp, HttpServletResponse.SC_PRECONDITION_FAILED);
                }
            }
            String ifNoneMatch = joinedHeader(req, "If-None-Match");
            if (ifNoneMatch != null) {
                if (ETags.matchesWeak(ifNoneMatch, etag)) {
                    if (getOrHead) {
                        return notModified(resp, etag, lastModifiedSec, cacheControl);
                    }
                    return empty(resp, HttpServletResponse.SC_PRECONDITION_FAILED);
                }
            } else if (getOrHead) {
                long ims = dateHeader(req, "If-Modified-Since");
                if (ims >= 0 && lastModifiedSec * 1000L <= ims) {
                    return notModified(resp, etag, lastModifiedSec, cacheControl);
                }
            }

            List<ByteRange> ranges = null;
            if (getOrHead) {
                String range = req.getHeader("Range");
                if (range != null && ifRangeHolds(req, etag, lastModifiedSec)) {
                    ranges = ByteRange.parse(range, size);
                }
            }

            resp.setHeader("Accept-Ranges", "bytes");
            if (ranges != null && ranges.isEmpty()) {
                resp.setHeader("Content-Range", "bytes */" + size);
                return empty(resp, HttpServletResponse.SC_REQUESTED_RANGE_NOT_SATISFIABLE);
            }
            resp.setHeader("ETag", etag);
            resp.setDateHeader("Last-Modified", lastModifiedSec * 1000L);
            if (cacheControl != null) {
                resp.setHeader("Cache-Control", cacheControl);
            }
            if (contentDisposition != null) {
                resp.setHeader("Content-Disposition", contentDisposition);
            }

            if (ranges == null || ranges.size() == 1) {
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
                resp.setContentType(type);
                resp.setContentLengthLong(length);
                if (head) {
                    return 0;
                }
                if (sendfile(req, resp, file, start, length)) {
                    return length;
                }
                OutputStream out = resp.getOutputStream();
                copy(channel, start, length, out, file);
                out.flush();
                return length;
            }
            return multipart(resp, channel, file, ranges, size, type, head);
        }
    }

    private long multipart(HttpServletResponse resp, FileChannel channel, Path file, List<ByteRange> ranges,
            long size, String type, boolean head) throws IOException {
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
            copy(channel, ranges.get(i).start(), ranges.get(i).length(), out, file);
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

    private void copy(FileChannel channel, long start, long length, OutputStream out, Path file)
            throws IOException {
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
                throw new IOException(Messages.get("sender.fileShrank", file, position));
            }
            out.write(buffer.array(), 0, n);
            position += n;
            remaining -= n;
        }
    }

    private boolean ifRangeHolds(HttpServletRequest req, String etag, long lastModifiedSec) {
        String ifRange = req.getHeader("If-Range");
        if (ifRange == null) {
            return true;
        }
        String v = ifRange.trim();
        if (v.startsWith("\"") || v.startsWith("W/")) {
            return ETags.ifRangeMatches(v, etag);
        }
        long date = dateHeader(req, "If-Range");
        return date >= 0 && date == lastModifiedSec * 1000L;
    }

    private static long vanished(HttpServletResponse resp, Path file) throws IOException {
        if (LOG.isLoggable(Level.FINE)) {
            LOG.fine(Messages.get("sender.fileVanished", file));
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

    private static long notModified(HttpServletResponse resp, String etag, long lastModifiedSec,
            String cacheControl) {
        resp.setStatus(HttpServletResponse.SC_NOT_MODIFIED);
        resp.setHeader("ETag", etag);
        resp.setDateHeader("Last-Modified", lastModifiedSec * 1000L);
        if (cacheControl != null) {
            resp.setHeader("Cache-Control", cacheControl);
        }
        return 0;
    }

    /** All values of a list header joined with commas, or {@code null} when absent. */
    private static String joinedHeader(HttpServletRequest req, String name) {
        Enumeration<String> values = req.getHeaders(name);
        if (values == null || !values.hasMoreElements()) {
            return null;
        }
        String first = values.nextElement();
        if (!values.hasMoreElements()) {
            return first;
        }
        StringBuilder sb = new StringBuilder(first);
        while (values.hasMoreElements()) {
            sb.append(',').append(values.nextElement());
        }
        return sb.toString();
    }

    /** The date in millis, or -1 when absent or not a valid HTTP-date (then it is ignored, RFC 9110). */
    private static long dateHeader(HttpServletRequest req, String name) {
        try {
            return req.getDateHeader(name);
        } catch (IllegalArgumentException e) {
            return -1;
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
