package dev.xaccel.testsupport;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;

/**
 * What the receipt tests share: the filter's loopback UDP port for receipt lines, the queue a test's recording
 * listener fills, waiting for receipts, sending lines as a local process could, and the check that such lines are
 * counted and ignored. Generic in the receipt type because the filter's module depends on this one, not the
 * reverse: each test keeps its own few-line listener class (the filter instantiates it by name).
 *
 * @param <R> the filter's receipt type
 */
public final class ReceiptProbe<R> {

    /** How long a receipt may take: a front end logs the line as the request ends, the filter matches it at once. */
    public static final Duration WAIT = Duration.ofSeconds(20);
    /** How long to wait for a receipt that must not come. */
    public static final Duration NONE = Duration.ofMillis(500);

    private final BlockingQueue<R> received;
    private final int port;
    /** The front end's receipt log, when the lines go to a file instead of the port. */
    private final Path file;
    private final Duration none;

    /**
     * @param received the queue the test's listener adds every receipt to
     * @param port     the filter's receipt port on 127.0.0.1 ({@link #freeUdpPort()})
     */
    public ReceiptProbe(BlockingQueue<R> received, int port) {
        this.received = received;
        this.port = port;
        this.file = null;
        this.none = NONE;
    }

    /**
     * The probe of a filter reading the front end's receipt log {@code file} ({@code receipts=<file>}): lines are
     * appended to it, and a receipt that must not come is awaited for {@link #FILE_NONE}, since nginx writes its
     * buffered lines up to a second late.
     */
    public ReceiptProbe(BlockingQueue<R> received, Path file) {
        this.received = received;
        this.port = -1;
        this.file = file;
        this.none = FILE_NONE;
    }

    /** How long to wait for a receipt that must not come through a file: nginx's {@code flush=1s}, and more. */
    public static final Duration FILE_NONE = Duration.ofMillis(2500);

    /** A UDP port free on 127.0.0.1 right now, for the filter's {@code receipts} init-param. */
    public static int freeUdpPort() {
        try (DatagramSocket s = new DatagramSocket(0, InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The filter's receipt port on 127.0.0.1. */
    public int port() {
        return port;
    }

    /** The filter's {@code receipts} value: {@code 127.0.0.1:PORT}, or the log file's path. */
    public String receipts() {
        return file != null ? file.toAbsolutePath().toString() : "127.0.0.1:" + port;
    }

    /** Forgets the receipts of earlier tests. */
    public void clear() {
        received.clear();
    }

    /** The next receipt, within {@link #WAIT}; fails without one. */
    public R next() throws InterruptedException {
        R r = received.poll(WAIT.toMillis(), TimeUnit.MILLISECONDS);
        if (r == null) {
            throw new AssertionError("no receipt within " + WAIT.toSeconds() + " s");
        }
        return r;
    }

    /** The next {@code n} receipts, each within {@link #WAIT} of the one before. */
    public List<R> next(int n) throws InterruptedException {
        List<R> all = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            all.add(next());
        }
        return all;
    }

    /** Fails when another receipt comes within {@link #NONE} ({@link #FILE_NONE}): one receipt per delivery. */
    public void assertNoMore() throws InterruptedException {
        R r = received.poll(none.toMillis(), TimeUnit.MILLISECONDS);
        if (r != null) {
            throw new AssertionError("one receipt per delivery, but also " + r);
        }
    }

    /**
     * Sends each line as one datagram to the filter's port, or appends it to the log file, as a local process (or
     * the front end) could.
     */
    public void send(String... lines) throws IOException {
        if (file != null) {
            StringBuilder sb = new StringBuilder();
            for (String line : lines) {
                sb.append(line).append('\n');
            }
            Files.writeString(file, sb, StandardCharsets.US_ASCII, StandardOpenOption.CREATE,
                    StandardOpenOption.APPEND);
            return;
        }
        try (DatagramSocket s = new DatagramSocket()) {
            for (String line : lines) {
                byte[] b = line.getBytes(StandardCharsets.US_ASCII);
                s.send(new DatagramPacket(b, b.length, InetAddress.getLoopbackAddress(), port));
            }
        }
    }

    /** A line a test sends and the filter counter it must move by exactly one ({@code why}: the failure message). */
    public record Counted(String line, LongSupplier counter, String why) {
    }

    /**
     * Sends every line, waits up to 10 s until each one's counter has moved, then asserts each moved by exactly
     * one, {@code receipted} (the filter's count of receipts) did not move, and no receipt came.
     */
    public void assertCountedAndIgnored(LongSupplier receipted, Counted... lines) throws Exception {
        long[] before = new long[lines.length];
        for (int i = 0; i < lines.length; i++) {
            before[i] = lines[i].counter().getAsLong();
        }
        long receiptedBefore = receipted.getAsLong();
        for (Counted c : lines) {
            send(c.line());
        }
        Poll.until(Duration.ofSeconds(10), () -> {
            for (int i = 0; i < lines.length; i++) {
                if (lines[i].counter().getAsLong() == before[i]) {
                    return false;
                }
            }
            return true;
        });
        for (int i = 0; i < lines.length; i++) {
            long moved = lines[i].counter().getAsLong() - before[i];
            if (moved != 1) {
                throw new AssertionError(lines[i].why() + ": counted " + moved + " times, not once: "
                        + lines[i].line());
            }
        }
        if (receipted.getAsLong() != receiptedBefore) {
            throw new AssertionError("a line counted as a receipt: " + (receipted.getAsLong() - receiptedBefore));
        }
        assertNoMore();
    }

    /**
     * {@code total} GETs of {@code url}, {@code concurrency} at a time, request {@code i} asking
     * {@code Range: bytes=0-(i % 10000)}: the sizes differ by request, so a sum of receipted bytes checks every
     * count, not just their number. Each answer must be 206.
     *
     * @return the body bytes the clients read
     */
    public static long rangedGets(String url, int total, int concurrency) throws Exception {
        ExecutorService clientThreads = Executors.newFixedThreadPool(4);
        ExecutorService pool = Executors.newFixedThreadPool(concurrency);
        try {
            HttpClient client = HttpClient.newBuilder().executor(clientThreads).build();
            AtomicLong read = new AtomicLong();
            AtomicLong next = new AtomicLong();
            List<Future<?>> workers = new ArrayList<>();
            for (int w = 0; w < concurrency; w++) {
                workers.add(pool.submit(() -> {
                    long i;
                    while ((i = next.getAndIncrement()) < total) {
                        HttpRequest req = HttpRequest.newBuilder(URI.create(url))
                                .header("Range", "bytes=0-" + (i % 10_000)).timeout(Duration.ofSeconds(60)).build();
                        HttpResponse<byte[]> r = client.send(req, HttpResponse.BodyHandlers.ofByteArray());
                        if (r.statusCode() != 206) {
                            throw new AssertionError("request " + i + ": " + r.statusCode() + ", not 206");
                        }
                        read.addAndGet(r.body().length);
                    }
                    return null;
                }));
            }
            for (Future<?> f : workers) {
                f.get(10, TimeUnit.MINUTES);
            }
            return read.get();
        } finally {
            pool.shutdownNow();
            clientThreads.shutdownNow();
        }
    }

    /**
     * A GET in flight: sends {@code request} (a whole request head) to 127.0.0.1:{@code port} and reads the response
     * head; the body is the test's to read, or not (a client that stalls or leaves).
     */
    public static InFlight open(int port, String request) throws IOException {
        Socket c = new Socket(InetAddress.getLoopbackAddress(), port);
        try {
            c.setSoTimeout(15_000);
            c.getOutputStream().write(request.getBytes(StandardCharsets.US_ASCII));
            InputStream in = c.getInputStream();
            return new InFlight(c, head(in), in);
        } catch (IOException | RuntimeException e) {
            c.close();
            throw e;
        }
    }

    /** What {@link #open} holds: the connection, the response head as the client got it, the body unread. */
    public record InFlight(Socket socket, String head, InputStream body) implements AutoCloseable {
        @Override
        public void close() throws IOException {
            socket.close();
        }
    }

    /**
     * A client that leaves: sends {@code request} (a whole request head) to 127.0.0.1:{@code port}, reads the
     * response head and at least {@code bytes} of the body, then closes the connection.
     *
     * @return the response head as the client got it, and the body bytes it read
     */
    public static Left readAndLeave(int port, String request, long bytes) throws IOException {
        try (InFlight c = open(port, request)) {
            byte[] buf = new byte[64 * 1024];
            long read = 0;
            while (read < bytes) {
                int n = c.body().read(buf);
                if (n < 0) {
                    throw new AssertionError("the server closed after " + read + " bytes: " + c.head());
                }
                read += n;
            }
            return new Left(c.head(), read);
        }
    }

    /** What {@link #readAndLeave} got: the response head and the body bytes read. */
    public record Left(String head, long read) {
    }

    /** The response head read byte by byte up to its empty line (nothing of the body). */
    public static String head(InputStream in) throws IOException {
        ByteArrayOutputStream head = new ByteArrayOutputStream();
        int b;
        while ((b = in.read()) >= 0) {
            head.write(b);
            byte[] h = head.toByteArray();
            int n = h.length;
            if (n >= 4 && h[n - 4] == '\r' && h[n - 3] == '\n' && h[n - 2] == '\r' && h[n - 1] == '\n') {
                break;
            }
        }
        return head.toString(StandardCharsets.ISO_8859_1);
    }
}
