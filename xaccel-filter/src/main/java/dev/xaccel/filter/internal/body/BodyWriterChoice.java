package dev.xaccel.filter.internal.body;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Path;
import java.util.logging.Level;
import java.util.logging.Logger;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import dev.xaccel.filter.internal.util.Messages;

/**
 * Chooses, once per response, the {@link BodyWriter} of a directly served single range: Tomcat's sendfile when
 * {@code sendfile=true} and Tomcat offers it; else, for bodies of at least {@value #MIN_SIZE} bytes, what the
 * container's own stream offers for the channel the filter opened ({@link ChannelTransfer} on Undertow,
 * {@link ByteBufferWrite} on Jetty, {@link DirectBufferWrite} on Tomcat); else {@link Copy}. The system property
 * {@value #PROPERTY}{@code =false} turns these off (everything but the opt-in sendfile is copied). The choice is
 * logged at FINE: {@code body via <name>}. Thread-safe.
 */
public final class BodyWriterChoice {

    /** {@code -Ddev.xaccel.filter.zeroCopy=false}: copy instead of the containers' channel hand-offs. */
    public static final String PROPERTY = "dev.xaccel.filter.zeroCopy";
    /** Smaller bodies are copied: a hand-off's setup cost is not worth it (as {@link TomcatSendfile#MIN_SIZE}). */
    public static final long MIN_SIZE = TomcatSendfile.MIN_SIZE;

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

    /** The writer of {@code length} bytes of {@code file} for this response. */
    public BodyWriter choose(HttpServletRequest req, HttpServletResponse resp, Path file, long length)
            throws IOException {
        BodyWriter chosen = sendfile ? TomcatSendfile.of(req, resp, file, length) : null;
        if (chosen == null) {
            OutputStream out = resp.getOutputStream();
            if (channels && length >= MIN_SIZE) {
                chosen = ChannelTransfer.of(out);
                if (chosen == null) {
                    chosen = ByteBufferWrite.of(out);
                }
                if (chosen == null) {
                    chosen = DirectBufferWrite.of(out);
                }
            }
            if (chosen == null) {
                chosen = new Copy(body, out);
            }
        }
        if (LOG.isLoggable(Level.FINE)) {
            LOG.fine(Messages.get("sender.bodyVia", chosen.name(), Long.toString(length), file));
        }
        return chosen;
    }
}
