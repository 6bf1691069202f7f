package dev.xaccel.filter.internal.body;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.channels.FileChannel;

/**
 * Undertow's {@code ServletOutputStreamImpl.transferFrom(FileChannel)}: the kernel's sendfile from the channel the
 * filter opened. It sends from the channel's position for the rest of the {@code Content-Length}, after flushing
 * what is buffered. Found by reflection on the stream's class (no Undertow dependency), looked up once per class;
 * a stream of another container, or one a wrapper put in its place, has none.
 */
public final class ChannelTransfer implements BodyWriter {

    public static final String NAME = "channel-transfer";

    private static final StreamMethod TRANSFER_FROM = new StreamMethod("io.undertow.", "transferFrom",
            FileChannel.class);

    private final StreamMethod.Bound transferFrom;

    private ChannelTransfer(StreamMethod.Bound transferFrom) {
        this.transferFrom = transferFrom;
    }

    /** The transfer for this response's stream, or {@code null} when its class has none. */
    public static BodyWriter of(OutputStream out) {
        return TRANSFER_FROM.bind(out, ChannelTransfer::new);
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public void send(FileChannel channel, long start, long length) throws IOException {
        BodyWriter.requireLength(channel, start, length);
        channel.position(start);
        transferFrom.call(channel);
    }
}
