package dev.xaccel.filter.internal.body;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;

/**
 * Jetty's {@code HttpOutput.write(ByteBuffer)} (the Servlet 6.1 method, which Jetty has in ee10 too) of the open
 * channel's read-only mapping: Jetty writes the buffer to the socket itself, without its aggregation buffer, so the
 * bytes go from the page cache to the socket with no copy in user space. Mapped and written in chunks of
 * {@value #CHUNK} bytes; a mapping is released when it is collected. Found by reflection on the stream's class (no
 * Jetty dependency), once per class; other containers copy inside {@code write(ByteBuffer)} and get {@link Copy}.
 */
public final class ByteBufferWrite implements BodyWriter {

    public static final String NAME = "byte-buffer";
    /** Bytes per mapping and write: measured on Jetty 12.1, 1 GiB writes were slower than copying, 4-16 MiB not. */
    public static final long CHUNK = 8L << 20;
    private static final StreamMethod WRITE = new StreamMethod("org.eclipse.jetty.", "write", ByteBuffer.class);

    private final StreamMethod.Bound write;

    private ByteBufferWrite(StreamMethod.Bound write) {
        this.write = write;
    }

    /** The write for this response's stream, or {@code null} when its class is not Jetty's. */
    public static BodyWriter of(OutputStream out) {
        return WRITE.bind(out, ByteBufferWrite::new);
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public void send(FileChannel channel, long start, long length) throws IOException {
        BodyWriter.requireLength(channel, start, length);
        long position = start;
        long remaining = length;
        while (remaining > 0) {
            long n = Math.min(CHUNK, remaining);
            ByteBuffer mapped = channel.map(FileChannel.MapMode.READ_ONLY, position, n);
            write.call(mapped);
            position += n;
            remaining -= n;
        }
        write.stream().flush();
    }
}
