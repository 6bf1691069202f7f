package dev.xaccel.bench.client;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;
import java.util.PriorityQueue;

import dev.xaccel.bench.run.BenchFailure;
import dev.xaccel.bench.server.BareAccelServlet;

/**
 * The clients of the seed-001 shapes (AcceptShapes), shaped like {@code ab} without keep-alive:
 * {@code concurrency} connections in a closed loop on one selector thread, each one request per connection —
 * connect, wait {@code pauseMicros} after the connection is established (the round trip a LAN client spends
 * between its handshake and its first data segment, emulated: this kernel offers no netem), send a complete GET
 * with {@code Connection: close}, read the answer until the server closes, close, connect again. A pause is at
 * least the selector's 1 ms granularity when not 0. Counts completed requests, non-2xx answers and failed
 * connections; latency from the start of the connect to the end of the answer.
 */
public final class PausingClients {

    /**
     * What a run measured.
     *
     * @param requests   answers completed with a 2xx status line
     * @param seconds    the run's wall time
     * @param statusErrors answers with another status
     * @param failures   connections that failed (refused, reset, timed out) before an answer
     * @param p50Us      median latency, µs
     * @param p99Us      99th percentile, µs
     */
    public record Result(long requests, double seconds, long statusErrors, long failures, long p50Us, long p99Us) {

        public double requestsPerSecond() {
            return seconds > 0 ? requests / seconds : 0;
        }
    }

    private static final class Conn {
        SocketChannel channel;
        long startNanos;
        long sendAtNanos;
        int sent;
        int status = -1;
        final byte[] head = new byte[16];
        int headLength;
    }

    private final InetSocketAddress target;
    private final byte[] request;
    private final long pauseNanos;
    private final ByteBuffer sink = ByteBuffer.allocateDirect(64 * 1024);
    private final PriorityQueue<Conn> waiting = new PriorityQueue<>((a, b) -> Long.compare(a.sendAtNanos,
            b.sendAtNanos));
    private final List<Long> latencies = new ArrayList<>();
    private Selector selector;
    private long completed;
    private long statusErrors;
    private long failures;
    private boolean stopping;

    /** @param gate the value of {@link BareAccelServlet#GATE_HEADER}, or {@code null} to send none */
    public PausingClients(int port, String path, String token, String gate, long pauseMicros) {
        this.target = new InetSocketAddress("127.0.0.1", port);
        this.request = ("GET " + path + " HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer " + token
                + (gate == null ? "" : "\r\n" + BareAccelServlet.GATE_HEADER + ": " + gate)
                + "\r\nConnection: close\r\n\r\n").getBytes(StandardCharsets.US_ASCII);
        this.pauseNanos = pauseMicros * 1000;
    }

    /** Runs {@code concurrency} clients for {@code seconds}; the connections still open then are closed. */
    public Result run(int concurrency, double seconds) {
        long start = System.nanoTime();
        long end = start + (long) (seconds * 1e9);
        try (Selector s = Selector.open()) {
            selector = s;
            for (int i = 0; i < concurrency; i++) {
                connect(new Conn());
            }
            while (System.nanoTime() < end) {
                long now = System.nanoTime();
                long wait = end - now;
                Conn next = waiting.peek();
                if (next != null) {
                    wait = Math.min(wait, next.sendAtNanos - now);
                }
                if (wait <= 0) {
                    selector.selectNow();
                } else {
                    selector.select(Math.max(1, (wait + 999_999) / 1_000_000));
                }
                Iterator<SelectionKey> it = selector.selectedKeys().iterator();
                while (it.hasNext()) {
                    SelectionKey k = it.next();
                    it.remove();
                    if (k.isValid()) {
                        handle(k);
                    }
                }
                sendDue();
            }
            stopping = true;
            for (SelectionKey k : selector.keys()) {
                closeQuietly(k.channel());
            }
        } catch (IOException e) {
            throw new BenchFailure("the pausing clients failed: " + e, e);
        }
        double elapsed = (System.nanoTime() - start) / 1e9;
        long[] l = latencies.stream().mapToLong(Long::longValue).toArray();
        Arrays.sort(l);
        return new Result(completed, elapsed, statusErrors, failures, percentile(l, 50), percentile(l, 99));
    }

    static long percentile(long[] sorted, int p) {
        if (sorted.length == 0) {
            return 0;
        }
        int i = (int) Math.ceil(p / 100.0 * sorted.length) - 1;
        return sorted[Math.max(0, Math.min(sorted.length - 1, i))] / 1000;
    }

    private void connect(Conn c) {
        if (stopping) {
            return;
        }
        try {
            SocketChannel ch = SocketChannel.open();
            ch.configureBlocking(false);
            ch.setOption(StandardSocketOptions.TCP_NODELAY, true);
            c.channel = ch;
            c.sent = 0;
            c.status = -1;
            c.headLength = 0;
            c.startNanos = System.nanoTime();
            if (ch.connect(target)) {
                established(c);
            } else {
                ch.register(selector, SelectionKey.OP_CONNECT, c);
            }
        } catch (IOException e) {
            failed(c);
        }
    }

    /** The handshake is done: send now, or after the pause. */
    private void established(Conn c) throws IOException {
        if (pauseNanos == 0) {
            send(c);
            return;
        }
        SelectionKey k = c.channel.keyFor(selector);
        if (k != null) {
            k.interestOps(0);
        }
        c.sendAtNanos = System.nanoTime() + pauseNanos;
        waiting.add(c);
    }

    private void sendDue() {
        long now = System.nanoTime();
        while (!waiting.isEmpty() && waiting.peek().sendAtNanos <= now) {
            Conn c = waiting.poll();
            try {
                send(c);
            } catch (IOException e) {
                failed(c);
            }
        }
    }

    private void send(Conn c) throws IOException {
        ByteBuffer b = ByteBuffer.wrap(request, c.sent, request.length - c.sent);
        c.sent += c.channel.write(b);
        SelectionKey k = c.channel.keyFor(selector);
        int ops = c.sent < request.length ? SelectionKey.OP_WRITE : SelectionKey.OP_READ;
        if (k == null) {
            c.channel.register(selector, ops, c);
        } else {
            k.interestOps(ops);
        }
    }

    private void handle(SelectionKey k) {
        Conn c = (Conn) k.attachment();
        try {
            if (k.isConnectable()) {
                if (c.channel.finishConnect()) {
                    established(c);
                }
            } else if (k.isWritable()) {
                send(c);
            } else if (k.isReadable()) {
                sink.clear();
                int n = c.channel.read(sink);
                if (n > 0 && c.headLength < c.head.length) {
                    sink.flip();
                    int take = Math.min(n, c.head.length - c.headLength);
                    sink.get(c.head, c.headLength, take);
                    c.headLength += take;
                } else if (n < 0) {
                    finished(c);
                }
            }
        } catch (IOException e) {
            failed(c);
        }
    }

    private void finished(Conn c) {
        closeQuietly(c.channel);
        String line = new String(c.head, 0, c.headLength, StandardCharsets.US_ASCII);
        if (line.startsWith("HTTP/1.1 2") || line.startsWith("HTTP/1.0 2")) {
            completed++;
            latencies.add(System.nanoTime() - c.startNanos);
        } else if (c.headLength == 0) {
            failures++;
        } else {
            statusErrors++;
        }
        connect(c);
    }

    private void failed(Conn c) {
        failures++;
        closeQuietly(c.channel);
        connect(c);
    }

    private static void closeQuietly(java.nio.channels.Channel ch) {
        if (ch != null) {
            try {
                ch.close();
            } catch (IOException ignored) {
                // closing anyway
            }
        }
    }

    /**
     * For a manual run: {@code --port P --path /x --token T [--gate G] --concurrency C --pause-us U --seconds S}.
     */
    public static void main(String[] args) {
        int port = 0;
        int c = 4;
        long pause = 0;
        double seconds = 5;
        String path = "/";
        String token = "bench-token";
        String gate = null;
        for (int i = 0; i + 1 < args.length; i += 2) {
            String v = args[i + 1];
            switch (args[i]) {
                case "--port" -> port = Integer.parseInt(v);
                case "--path" -> path = v;
                case "--token" -> token = v;
                case "--gate" -> gate = v;
                case "--concurrency" -> c = Integer.parseInt(v);
                case "--pause-us" -> pause = Long.parseLong(v);
                case "--seconds" -> seconds = Double.parseDouble(v);
                default -> throw new IllegalArgumentException("unknown option " + args[i]);
            }
        }
        System.out.println(new PausingClients(port, path, token, gate, pause).run(c, seconds));
    }
}
