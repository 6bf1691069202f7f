package dev.xaccel.filter.internal.body;

import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.util.logging.Level;
import java.util.logging.Logger;

import jakarta.servlet.DispatcherType;
import jakarta.servlet.ServletRequest;
import jakarta.servlet.ServletRequestWrapper;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import dev.xaccel.filter.internal.util.Messages;

/**
 * The hand-off of a body to Tomcat's zero-copy sendfile through its request attributes (compared by class name:
 * no Tomcat dependency). Tomcat opens the file <em>again, by name</em>, after the filter's check, so this is used
 * only when {@code sendfile=true} says nobody untrusted can write below the roots: the one {@link BodyWriter} that does
 * not send from the channel the filter opened.
 */
public final class TomcatSendfile implements BodyWriter {

    public static final String NAME = "tomcat-sendfile";

    /** Request attribute set by Tomcat connectors that support sendfile. */
    public static final String SUPPORT = "org.apache.tomcat.sendfile.support";
    /** Request attribute: absolute file name (String). */
    public static final String FILENAME = "org.apache.tomcat.sendfile.filename";
    /** Request attribute: first byte (Long). */
    public static final String START = "org.apache.tomcat.sendfile.start";
    /** Request attribute: end offset, exclusive (Long). */
    public static final String END = "org.apache.tomcat.sendfile.end";
    /** Smaller bodies are copied: sendfile's setup cost is not worth it (Tomcat's DefaultServlet uses 48 KiB). */
    public static final long MIN_SIZE = 48 * 1024;

    public static final String REQUEST_FACADE = "org.apache.catalina.connector.RequestFacade";
    public static final String RESPONSE_FACADE = "org.apache.catalina.connector.ResponseFacade";

    private static final Logger LOG = Logger.getLogger(TomcatSendfile.class.getName());

    private final ServletRequest container;
    private final Path file;

    private TomcatSendfile(ServletRequest container, Path file) {
        this.container = container;
        this.file = file;
    }

    /**
     * The hand-off of a body of {@code length} bytes when the connector offers sendfile, the request and response
     * are Tomcat's own ({@link #container}), the body is long enough and Tomcat will send it ({@link #reached}).
     *
     * @return the hand-off, or {@code null} when Tomcat would not send the body
     */
    public static BodyWriter of(HttpServletRequest req, HttpServletResponse resp, Path file, long length) {
        if (length < MIN_SIZE || !reached(req)) {
            return null;
        }
        ServletRequest container = container(req, resp);
        return container == null ? null : new TomcatSendfile(container, file);
    }

    /**
     * Whether Tomcat sends a sendfile body for this request: it does so only at the end of a request's synchronous
     * processing ({@code Http11Processor.service}), which neither an asynchronous request nor the pass of an
     * asynchronous dispatch (its end is {@code dispatchEndRequest}) reaches; they would get the headers and no body.
     */
    static boolean reached(HttpServletRequest req) {
        return !req.isAsyncStarted() && req.getDispatcherType() != DispatcherType.ASYNC;
    }

    /**
     * Tomcat's own request beneath {@code req} when the response is Tomcat's own too and the connector offers
     * sendfile; else {@code null}. The request may be wrapped: the attributes go to the container's object, which a
     * wrapper may not pass on; a wrapped response may transform the body, so it gets the bytes copied.
     */
    static ServletRequest container(HttpServletRequest req, HttpServletResponse resp) {
        if (!RESPONSE_FACADE.equals(resp.getClass().getName())) {
            return null;
        }
        ServletRequest container = innermost(req);
        if (!REQUEST_FACADE.equals(container.getClass().getName())
                || !Boolean.TRUE.equals(container.getAttribute(SUPPORT))) {
            return null;
        }
        return container;
    }

    @Override
    public String name() {
        return NAME;
    }

    /** Names the file and the range to Tomcat, which opens the file by name after the filter returns. */
    @Override
    public void send(FileChannel channel, long start, long length) {
        container.setAttribute(FILENAME, file.toAbsolutePath().toString());
        container.setAttribute(START, Long.valueOf(start));
        container.setAttribute(END, Long.valueOf(start + length));
        if (LOG.isLoggable(Level.FINE)) {
            LOG.fine(Messages.get("sender.sendfile", file, start, start + length));
        }
    }

    private static ServletRequest innermost(ServletRequest request) {
        ServletRequest r = request;
        while (r instanceof ServletRequestWrapper wrapper) {
            r = wrapper.getRequest();
        }
        return r;
    }
}
