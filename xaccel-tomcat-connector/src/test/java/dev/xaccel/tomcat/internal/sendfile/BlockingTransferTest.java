package dev.xaccel.tomcat.internal.sendfile;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.SocketTimeoutException;
import java.net.StandardSocketOptions;
import java.nio.channels.FileChannel;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The worker thread's sendfile loop on a real loopback connection whose server side is non-blocking, as Tomcat's
 * are: a body far larger than the socket buffers arrives exact while the reader is slow (the loop waits for
 * writability), a reader that never reads makes it fail after the timeout, a file shorter than the range fails it.
 */
class BlockingTransferTest {

    @TempDir
    Path dir;

    /** A connected pair: the non-blocking server side, and the client's stream. */
    private record Pair(SocketChannel server, java.net.Socket client) implements AutoCloseable {
        @Override
        public void close() throws IOException {
            server.close();
            client.close();
        }
    }

    private static Pair connect() throws IOException {
        try (ServerSocketChannel listener = ServerSocketChannel.open()) {
            listener.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
            java.net.Socket client = new java.net.Socket();
            client.setReceiveBufferSize(16 * 1024);
            client.connect(listener.getLocalAddress());
            SocketChannel server = listener.accept();
            server.setOption(StandardSocketOptions.SO_SNDBUF, 16 * 1024);
            server.configureBlocking(false);
            return new Pair(server, client);
        }
    }

    private Path file(int size) throws IOException {
        byte[] data = new byte[size];
        new Random(size).nextBytes(data);
        return Files.write(dir.resolve("f-" + size + ".bin"), data);
    }

    @Test
    void aRangeFarLargerThanTheSocketBuffersArrivesExactThroughASlowReader() throws Exception {
        Path file = file(8 << 20);
        byte[] expected = Arrays.copyOfRange(Files.readAllBytes(file), 1000, (8 << 20) - 1000);
        AtomicInteger writes = new AtomicInteger();
        try (Pair pair = connect(); FileChannel channel = FileChannel.open(file)) {
            CompletableFuture<byte[]> read = CompletableFuture.supplyAsync(() -> readSlowly(pair.client(),
                    expected.length));
            BlockingTransfer.send(channel, 1000, expected.length, pair.server(), 30_000, writes::incrementAndGet);
            assertArrayEquals(expected, read.get());
        }
        assertTrue(writes.get() > 1, "the socket buffer filled up at least once: " + writes.get());
    }

    private static byte[] readSlowly(java.net.Socket client, int length) {
        byte[] out = new byte[length];
        try {
            InputStream in = client.getInputStream();
            int off = 0;
            byte[] chunk = new byte[64 * 1024];
            while (off < length) {
                int n = in.read(chunk, 0, Math.min(chunk.length, length - off));
                if (n < 0) {
                    throw new IOException("closed at " + off);
                }
                System.arraycopy(chunk, 0, out, off, n);
                off += n;
                if ((off & 0xfffff) < n) {
                    Thread.sleep(5);
                }
            }
            return out;
        } catch (IOException | InterruptedException e) {
            throw new IllegalStateException(e);
        }
    }

    @Test
    void aClientThatReadsNothingTimesOut() throws Exception {
        Path file = file(16 << 20);
        try (Pair pair = connect(); FileChannel channel = FileChannel.open(file)) {
            assertThrows(SocketTimeoutException.class,
                    () -> BlockingTransfer.send(channel, 0, 16 << 20, pair.server(), 200, () -> { }));
        }
    }

    @Test
    void aFileShorterThanTheRangeFails() throws Exception {
        Path file = file(1000);
        try (Pair pair = connect(); FileChannel channel = FileChannel.open(file)) {
            IOException e = assertThrows(IOException.class,
                    () -> BlockingTransfer.send(channel, 0, 2000, pair.server(), 5_000, () -> { }));
            assertTrue(e.getMessage().contains("[1000]"), e.getMessage());
        }
    }
}
