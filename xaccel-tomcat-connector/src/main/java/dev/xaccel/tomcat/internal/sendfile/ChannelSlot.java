package dev.xaccel.tomcat.internal.sendfile;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.util.function.Predicate;

import org.apache.juli.logging.Log;
import org.apache.juli.logging.LogFactory;

/**
 * One request's place for the open file channel its body is to be sent from: the request attribute
 * {@value #ATTRIBUTE}. The application puts the channel in with {@link #test} (a {@code Predicate<FileChannel>}: JDK
 * types only cross the class loaders), and from then on the connector owns it: Tomcat's sendfile takes it
 * ({@link #take}) when the response is committed, and what was not taken when the request's processing ends
 * ({@link #end}: an error, an asynchronous request) is closed. The slot of the request being processed on this thread
 * is {@link #current()}.
 */
public final class ChannelSlot implements Predicate<FileChannel> {

    /** The request attribute. */
    public static final String ATTRIBUTE = "dev.xaccel.tomcat.checkedFileChannel";

    private static final Log log = LogFactory.getLog(ChannelSlot.class);
    private static final ThreadLocal<ChannelSlot> CURRENT = new ThreadLocal<>();

    private FileChannel channel;
    private boolean filled;
    private boolean ended;

    /**
     * Takes ownership of {@code offered}, unless a channel was put here already or the request's processing has
     * ended.
     *
     * @return whether the slot owns the channel now
     */
    @Override
    public synchronized boolean test(FileChannel offered) {
        if (offered == null || filled || ended) {
            return false;
        }
        channel = offered;
        filled = true;
        return true;
    }

    /** @return the channel put here and not taken yet, now the taker's; {@code null} when there is none */
    public synchronized FileChannel take() {
        FileChannel taken = channel;
        channel = null;
        return taken;
    }

    /**
     * Ends the request's processing: a channel not taken is closed, and no channel is accepted any more.
     *
     * @return whether a channel was put here and never taken
     */
    public boolean end() {
        FileChannel untaken;
        synchronized (this) {
            ended = true;
            untaken = channel;
            channel = null;
        }
        if (untaken == null) {
            return false;
        }
        try {
            untaken.close();
        } catch (IOException e) {
            log.debug(Messages.get("slot.closeFailed"), e);
        }
        return true;
    }

    /** @return the slot of the request this thread is processing, or {@code null} */
    public static ChannelSlot current() {
        return CURRENT.get();
    }

    /** Makes this the current thread's slot until {@link #unbind()}. */
    void bind() {
        CURRENT.set(this);
    }

    /** This thread has no slot any more. */
    static void unbind() {
        CURRENT.remove();
    }
}
