package dev.xaccel.tomcat.internal.sendfile;

import java.io.IOException;
import java.net.SocketTimeoutException;
import java.nio.channels.FileChannel;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.SocketChannel;

/**
 * Sends a range of a file to a non-blocking socket with the kernel's sendfile ({@link FileChannel#transferTo}),
 * blocking the calling thread until it is all sent: whenever the socket's send buffer is full it waits for
 * writability on a selector of its own, opened on the first wait (a body the socket takes at once, as most do on a
 * fast network, opens none) and closed at the end; the socket stays registered with Tomcat's poller, whose interest in
 * it is off while a worker thread processes the request.
 */
public final class BlockingTransfer {

    private BlockingTransfer() {
    }

    /**
     * Sends {@code length} bytes of {@code file} from {@code position}.
     *
     * @param file          the file, read from at absolute positions (its own position is not used)
     * @param position      the first byte
     * @param length        how many bytes
     * @param socket        the connection, non-blocking
     * @param timeoutMillis how long the socket may take no byte before this fails; 0 or less: no limit
     * @param progress      run after each write that sent bytes
     * @throws SocketTimeoutException when the socket took nothing for {@code timeoutMillis}
     * @throws IOException            when the file ends before the range does, or the socket fails
     */
    public static void send(FileChannel file, long position, long length, SocketChannel socket, long timeoutMillis,
            Runnable progress) throws IOException {
        Selector selector = null;
        try {
            long pos = position;
            long remaining = length;
            long lastProgress = System.nanoTime();
            while (remaining > 0) {
                long n = file.transferTo(pos, remaining, socket);
                if (n > 0) {
                    pos += n;
                    remaining -= n;
                    lastProgress = System.nanoTime();
                    progress.run();
                    continue;
                }
                if (file.size() <= pos) {
                    throw new IOException(Messages.get("transfer.fileEnded", Long.toString(pos),
                            Long.toString(position + length)));
                }
                if (selector == null) {
                    selector = Selector.open();
                    socket.register(selector, SelectionKey.OP_WRITE);
                }
                long waitMillis = 0;
                if (timeoutMillis > 0) {
                    waitMillis = timeoutMillis - (System.nanoTime() - lastProgress) / 1_000_000L;
                    if (waitMillis <= 0) {
                        throw new SocketTimeoutException(Messages.get("transfer.timeout",
                                Long.toString(timeoutMillis)));
                    }
                }
                selector.select(waitMillis);
                selector.selectedKeys().clear();
            }
        } finally {
            if (selector != null) {
                selector.close();
            }
        }
    }
}
