package dev.xaccel.filter.internal.body;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.util.Optional;

/**
 * How the body of a directly served single range leaves the filter (zero-copy where the container has a way):
 * chosen once per response by
 * {@link BodyWriterChoice}. All but {@link TomcatSendfile} send from the channel the filter opened (below its root,
 * no link followed), so what a client gets is the file that was checked.
 * <ul>
 * <li>{@link ChannelTransfer}: Undertow's {@code transferFrom(FileChannel)}, the kernel's sendfile from that
 * channel;</li>
 * <li>{@link ByteBufferWrite}: Jetty's {@code write(ByteBuffer)} of the channel's mapping, written to the socket
 * without a copy in user space;</li>
 * <li>{@link DirectBufferWrite}: Tomcat's {@code write(ByteBuffer)} of a pooled direct buffer read from that channel
 * (not zero-copy, but no heap array);</li>
 * <li>{@link ConnectorSendfile}: Tomcat's sendfile from that channel, through the xaccel Tomcat connector;</li>
 * <li>{@link TomcatSendfile}: Tomcat's sendfile, which opens the file again by name (opt-in
 * {@code sendfile=true});</li>
 * <li>{@link Copy}: read and written in chunks, everywhere.</li>
 * </ul>
 */
public interface BodyWriter {

    /** Its name in the FINE line {@code body via <name>} and in docs/containers.md. */
    String name();

    /**
     * Sends {@code length} bytes from {@code start} as the whole body; the status and {@code Content-Length} are set.
     *
     * @throws FileBody.Shrank when the file ends earlier (before a byte was sent, the caller still answers 500)
     */
    void send(FileChannel channel, long start, long length) throws IOException;

    /**
     * After {@link #send}: the channel the container sends the body from once the filter has returned, which tells
     * how far it got when the container closes it ({@link ConnectorSendfile}); empty when the body went out in
     * {@link #send}. ({@link TomcatSendfile} opens the file itself and tells no one: it is not chosen while
     * delivery receipts are made.)
     */
    default Optional<CountedChannel> handedOff() {
        return Optional.empty();
    }

    /** Fails with {@link FileBody.Shrank} when the open file is now shorter than {@code start + length}. */
    static void requireLength(FileChannel channel, long start, long length) throws IOException {
        long size = channel.size();
        if (size < start + length) {
            throw new FileBody.Shrank(size);
        }
    }
}
