package dev.xaccel.filter.internal.fs;

import java.io.Closeable;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.util.function.Predicate;

/**
 * An opened regular file: the channel to read from and the metadata of that same file, or the bytes of a small file
 * kept in memory ({@link SmallFileCache}, no channel). Its owner closes it, unless the channel was
 * {@link #handOver handed over} to someone who takes care of it from then on (the xaccel Tomcat connector, which
 * sends from it and closes it after the filter has returned). Used by one thread at a time.
 */
public final class OpenFile implements Closeable {

    private final FileChannel channel;
    private final byte[] content;
    private final long size;
    private final long lastModifiedMillis;
    private boolean handedOver;

    /**
     * @param channel            the open file, read-only
     * @param size               its length when it was opened
     * @param lastModifiedMillis its modification time
     */
    public OpenFile(FileChannel channel, long size, long lastModifiedMillis) {
        this.channel = channel;
        this.content = null;
        this.size = size;
        this.lastModifiedMillis = lastModifiedMillis;
    }

    private OpenFile(byte[] content, long lastModifiedMillis) {
        this.channel = null;
        this.content = content;
        this.size = content.length;
        this.lastModifiedMillis = lastModifiedMillis;
    }

    /** A small file's bytes, validated against the file at its name just now; shared, never written to. */
    static OpenFile inMemory(byte[] content, long lastModifiedMillis) {
        return new OpenFile(content, lastModifiedMillis);
    }

    /** The open file, read-only; {@code null} for a file {@link #content() in memory}. */
    public FileChannel channel() {
        return channel;
    }

    /** The whole file, when it is answered from memory; {@code null} when it is {@link #channel() open}. */
    public byte[] content() {
        return content;
    }

    /** Its length when it was opened. */
    public long size() {
        return size;
    }

    /** Its modification time. */
    public long lastModifiedMillis() {
        return lastModifiedMillis;
    }

    /**
     * Offers the channel to {@code taker}; when it accepts ({@code true}), it owns the channel and {@link #close()}
     * leaves it open.
     *
     * @return whether the channel now belongs to {@code taker}
     */
    public boolean handOver(Predicate<FileChannel> taker) {
        if (!handedOver && channel != null && channel.isOpen() && taker.test(channel)) {
            handedOver = true;
        }
        return handedOver;
    }

    /** Closes the channel unless it was handed over. */
    @Override
    public void close() throws IOException {
        if (!handedOver && channel != null) {
            channel.close();
        }
    }
}
