package dev.xaccel.filter.internal.fs;

import java.io.Closeable;
import java.io.IOException;
import java.nio.channels.FileChannel;

/**
 * An opened regular file: the channel to read from and the metadata of that same file.
 *
 * @param channel            the open file, read-only
 * @param size               its length when it was opened
 * @param lastModifiedMillis its modification time
 */
public record OpenFile(FileChannel channel, long size, long lastModifiedMillis) implements Closeable {

    @Override
    public void close() throws IOException {
        channel.close();
    }
}
