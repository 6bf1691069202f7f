package dev.xaccel.filter.internal.body;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.channels.FileChannel;

/** The body read from the open file and written to the response's stream in chunks ({@link FileBody#copy}). */
public final class Copy implements BodyWriter {

    public static final String NAME = "copy";

    private final FileBody body;
    private final OutputStream out;

    public Copy(FileBody body, OutputStream out) {
        this.body = body;
        this.out = out;
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public void send(FileChannel channel, long start, long length) throws IOException {
        body.copy(channel, start, length, out);
        out.flush();
    }
}
