package dev.xaccel.filter.internal.body;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.ReadableByteChannel;
import java.nio.channels.WritableByteChannel;
import java.util.function.LongConsumer;

/**
 * The filter's open file as handed to a container that sends from it after the filter has returned
 * ({@link ConnectorSendfile}): every call goes to that channel, and the bytes its {@code transferTo} moved to the
 * socket are counted, so that when the container closes it (the body sent, or the client gone) the filter learns
 * how far the body got: a delivery receipt made at the hand-off could only guess. Reading goes on through
 * {@code transferTo} of the channel itself, so the container's zero-copy is kept. Thread-safe.
 */
public final class CountedChannel extends FileChannel {

    private final FileChannel file;
    private long transferred;
    private boolean closed;
    private LongConsumer whenClosed;

    CountedChannel(FileChannel file) {
        this.file = file;
    }

    /**
     * Calls {@code done} with the bytes sent once the container has closed the channel: now, when it has already.
     * One callback; a second replaces the first if it has not run yet.
     */
    public void whenClosed(LongConsumer done) {
        long n;
        synchronized (this) {
            if (!closed) {
                whenClosed = done;
                return;
            }
            n = transferred;
        }
        done.accept(n);
    }

    @Override
    public long transferTo(long position, long count, WritableByteChannel target) throws IOException {
        long n = file.transferTo(position, count, target);
        synchronized (this) {
            transferred += n;
        }
        return n;
    }

    @Override
    protected void implCloseChannel() throws IOException {
        LongConsumer done;
        long n;
        try {
            file.close();
        } finally {
            synchronized (this) {
                closed = true;
                done = whenClosed;
                whenClosed = null;
                n = transferred;
            }
        }
        if (done != null) {
            done.accept(n);
        }
    }

    @Override
    public int read(ByteBuffer dst) throws IOException {
        return file.read(dst);
    }

    @Override
    public long read(ByteBuffer[] dsts, int offset, int length) throws IOException {
        return file.read(dsts, offset, length);
    }

    @Override
    public int read(ByteBuffer dst, long position) throws IOException {
        return file.read(dst, position);
    }

    @Override
    public int write(ByteBuffer src) throws IOException {
        return file.write(src);
    }

    @Override
    public long write(ByteBuffer[] srcs, int offset, int length) throws IOException {
        return file.write(srcs, offset, length);
    }

    @Override
    public int write(ByteBuffer src, long position) throws IOException {
        return file.write(src, position);
    }

    @Override
    public long position() throws IOException {
        return file.position();
    }

    @Override
    public FileChannel position(long newPosition) throws IOException {
        file.position(newPosition);
        return this;
    }

    @Override
    public long size() throws IOException {
        return file.size();
    }

    @Override
    public FileChannel truncate(long size) throws IOException {
        file.truncate(size);
        return this;
    }

    @Override
    public void force(boolean metaData) throws IOException {
        file.force(metaData);
    }

    @Override
    public long transferFrom(ReadableByteChannel src, long position, long count) throws IOException {
        return file.transferFrom(src, position, count);
    }

    @Override
    public MappedByteBuffer map(MapMode mode, long position, long size) throws IOException {
        return file.map(mode, position, size);
    }

    @Override
    public FileLock lock(long position, long size, boolean shared) throws IOException {
        return file.lock(position, size, shared);
    }

    @Override
    public FileLock tryLock(long position, long size, boolean shared) throws IOException {
        return file.tryLock(position, size, shared);
    }
}
