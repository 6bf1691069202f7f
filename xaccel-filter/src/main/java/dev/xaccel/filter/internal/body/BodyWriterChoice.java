package dev.xaccel.filter.internal.body;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Path;
import java.util.logging.Level;
import java.util.logging.Logger;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import dev.xaccel.filter.internal.fs.OpenFile;
import dev.xaccel.filter.internal.util.Messages;

/**
 * Chooses, once per response, the {@link BodyWriter} of a directly served single range. For bodies of at least
 * {@value #MIN_SIZE} bytes: Tomcat's sendfile from the channel the filter opened when the xaccel connector offers it
 * ({@link ConnectorSendfile}); else Tomcat's sendfile by name when {@code sendfile=true} and Tomcat offers it
 * ({@link TomcatSendfile}); else what the container's own stream offers for that channel ({@link ChannelTransfer} on
 * Undertow, {@link ByteBufferWrite} on Jetty, {@link DirectBufferWrite} on Tomcat). Else {@link Copy}. The system
 * property {@value #PROPERTY}{@code =false} turns the channel hand-offs off (everything but the opt-in sendfile by
 * name is copied). The choice is logged at FINE: {@code body via <name>}. Thread-safe.
 */
public final class BodyWriterChoice {

    /** {@code -Ddev.xaccel.filter.zeroCopy=false}: copy instead of the containers' channel hand-offs. */
    public static final String PROPERTY = "dev.xaccel.filter.zeroCopy";
    /** Smaller bodies are copied: a hand-off's setup cost is not worth it (as {@link TomcatSendfile#MIN_SIZE}). */
    public static final long MIN_SIZE = TomcatSendfile.MIN_SIZE;
    /** The name in the FINE line of a small file's body written from memory. */
    public static final String MEMORY = "memory";

    private static final Logger LOG = Logger.getLogger(BodyWriterChoice.class.getName());

    private final boolean sendfile;
    private final boolean channels;
    private final FileBody body;

    /**
     * @param sendfile whether Tomcat's sendfile (by name) may be used
     * @param body     the copy loop
     */
    public BodyWriterChoice(boolean sendfile, FileBody body) {
        this(sendfile, !"false".equalsIgnoreCase(System.getProperty(PROPERTY)), body);
    }

    public BodyWriterChoice(boolean sendfile, boolean channels, FileBody body) {
        this.sendfile = sendfile;
        this.channels = channels;
        this.body = body;
    }

    /**
     * The writer of {@code length} bytes of {@code open} (the file {@code file}) for this response.
     */
    public BodyWriter choose(HttpServletRequest req, HttpServletResponse resp, OpenFile open, Path file, long length)
            throws IOException {
        BodyWriter chosen = null;
        if (length >= MIN_SIZE) {
            if (channels) {
                chosen = ConnectorSendfile.of(req, resp, open, file, () -> streamWriter(resp, length));
            }
            if (chosen == null && sendfile) {
                chosen = TomcatSendfile.of(req, resp, file, length);
            }
        }
        if (chosen == null) {
            chosen = streamWriter(resp, length);
        }
        if (LOG.isLoggable(Level.FINE)) {
            LOG.fine(Messages.get("sender.bodyVia", chosen.name(), Long.toString(length), file));
        }
        return chosen;
    }

    /**
     * The FINE line of a body written from a small file's bytes in memory ({@code body via memory}), beside the
     * writers' lines, so a log reader sees every directly sent single range.
     */
    public static void loggedFromMemory(long length, Path file) {
        if (LOG.isLoggable(Level.FINE)) {
            LOG.fine(Messages.get("sender.bodyVia", MEMORY, Long.toString(length), file));
        }
    }

    /** What the container's own stream offers for the channel, else the copy loop. */
    private BodyWriter streamWriter(HttpServletResponse resp, long length) throws IOException {
        OutputStream out = resp.getOutputStream();
        BodyWriter chosen = null;
        if (channels && length >= MIN_SIZE) {
            chosen = ChannelTransfer.of(out);
            if (chosen == null) {
                chosen = ByteBufferWrite.of(out);
            }
            if (chosen == null) {
                chosen = DirectBufferWrite.of(out);
            }
        }
        return chosen != null ? chosen : new Copy(body, out);
    }
}
