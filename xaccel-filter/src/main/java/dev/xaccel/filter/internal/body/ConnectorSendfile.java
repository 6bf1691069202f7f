package dev.xaccel.filter.internal.body;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.util.Optional;
import java.util.function.Predicate;
import java.util.logging.Level;
import java.util.logging.Logger;

import jakarta.servlet.ServletRequest;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import dev.xaccel.filter.internal.fs.OpenFile;
import dev.xaccel.filter.internal.util.Messages;

/**
 * Tomcat's zero-copy sendfile from the channel the filter opened, through the xaccel Tomcat connector
 * ({@code dev.xaccel.tomcat.AcceptFilterHttp11NioProtocol}): the connector offers each HTTP/1.x request a slot (the
 * request attribute {@value #SLOT}, a {@code Predicate<FileChannel>}: JDK types only, as the connector and the
 * application have different class loaders); the filter puts its open channel in it and names the range in Tomcat's
 * sendfile attributes, and the connector sends from that channel after the filter has returned, and closes it. The
 * file is never opened again by name (the file name attribute only reaches Tomcat's trace log). The channel goes
 * in {@link CountedChannel counted}, so that how far the body got is known when the connector closes it. When the
 * connector refuses the channel (the slot's request has ended), the body goes through {@code otherwise}.
 */
public final class ConnectorSendfile implements BodyWriter {

    public static final String NAME = "connector-sendfile";
    /** Request attribute the connector sets on each HTTP/1.x request: a {@code Predicate<FileChannel>}. */
    public static final String SLOT = "dev.xaccel.tomcat.checkedFileChannel";

    private static final Logger LOG = Logger.getLogger(ConnectorSendfile.class.getName());

    private final ServletRequest container;
    private final Predicate<FileChannel> slot;
    private final OpenFile open;
    private final Path file;
    private final Otherwise otherwise;
    private CountedChannel handedOff;

    /** The writer for a channel the connector refused, made only then. */
    @FunctionalInterface
    public interface Otherwise {
        BodyWriter writer() throws IOException;
    }

    private ConnectorSendfile(ServletRequest container, Predicate<FileChannel> slot, OpenFile open, Path file,
            Otherwise otherwise) {
        this.container = container;
        this.slot = slot;
        this.open = open;
        this.file = file;
        this.otherwise = otherwise;
    }

    /**
     * The hand-off when the request and the response are Tomcat's own (as for {@link TomcatSendfile}), the connector
     * offers sendfile and a slot, Tomcat will send the body ({@link TomcatSendfile#reached}: not for an asynchronous
     * request or dispatch) and the response is not committed yet (the attributes are read when it is).
     *
     * @param otherwise the writer used if the connector refuses the channel
     * @return the hand-off, or {@code null}
     */
    @SuppressWarnings("unchecked")
    public static BodyWriter of(HttpServletRequest req, HttpServletResponse resp, OpenFile open, Path file,
            Otherwise otherwise) {
        ServletRequest container = TomcatSendfile.container(req, resp);
        if (container == null || !TomcatSendfile.reached(req) || resp.isCommitted()
                || !(container.getAttribute(SLOT) instanceof Predicate<?> slot)) {
            return null;
        }
        return new ConnectorSendfile(container, (Predicate<FileChannel>) slot, open, file, otherwise);
    }

    @Override
    public String name() {
        return NAME;
    }

    /** Hands the open channel to the connector and names the range; the connector sends it after the filter. */
    @Override
    public void send(FileChannel channel, long start, long length) throws IOException {
        BodyWriter.requireLength(channel, start, length);
        CountedChannel counted = new CountedChannel(channel);
        if (!open.handOver(c -> slot.test(counted))) {
            BodyWriter writer = otherwise.writer();
            if (LOG.isLoggable(Level.FINE)) {
                LOG.fine(Messages.get("sender.connectorRefused", file, writer.name()));
            }
            writer.send(channel, start, length);
            return;
        }
        container.setAttribute(TomcatSendfile.FILENAME, file.toAbsolutePath().toString());
        container.setAttribute(TomcatSendfile.START, Long.valueOf(start));
        container.setAttribute(TomcatSendfile.END, Long.valueOf(start + length));
        handedOff = counted;
    }

    @Override
    public Optional<CountedChannel> handedOff() {
        return Optional.ofNullable(handedOff);
    }
}
