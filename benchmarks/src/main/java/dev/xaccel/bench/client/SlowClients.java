package dev.xaccel.bench.client;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;

/**
 * The misbehaving clients of the accept-filter workload, all on one selector thread:
 * <ul>
 * <li>{@code --idle N} connections that connect and never send anything (an idle-connection flood); when the
 * server closes one, it connects again, so the flood stays constant;</li>
 * <li>{@code --slow M} connections that send a complete small GET request one byte every
 * {@code --interval-ms} (a very slow network), read the answer ({@code Connection: close}) and start over.</li>
 * </ul>
 * Runs for {@code --duration-s} seconds, then writes {@code key=value} counters to {@code --out}.
 * {@code --ready} is written once every connection attempt has completed or 3 s have passed.
 */
public final class SlowClients {

    private static final class Client {
        final boolean slow;
        SocketChannel channel;
        boolean up;
        int sent;
        long received;

        Client(boolean slow) {
            this.slow = slow;
        }
    }

    private final InetSocketAddress target;
    private final byte[] request;
    private final Selector selector;
    private final List<Client> clients = new ArrayList<>();
    private final ByteBuffer sink = ByteBuffer.allocateDirect(64 * 1024);
    private long connects;
    private long connected;
    private long closedByServer;
    private long slowCompleted;
    private long failures;

    private SlowClients(InetSocketAddress target, byte[] request) throws IOException {
        this.target = target;
        this.request = request;
        this.selector = Selector.open();
    }

    public static void main(String[] args) throws Exception {
        String host = "127.0.0.1";
        int port = -1;
        int idle = 0;
        int slow = 0;
        long intervalMs = 1000;
        long durationS = 10;
        String path = "/";
        String token = "bench-token";
        Path out = null;
        Path ready = null;
        for (int i = 0; i + 1 < args.length; i += 2) {
            String v = args[i + 1];
            switch (args[i]) {
                case "--host" -> host = v;
                case "--port" -> port = Integer.parseInt(v);
                case "--idle" -> idle = Integer.parseInt(v);
                case "--slow" -> slow = Integer.parseInt(v);
                case "--interval-ms" -> intervalMs = Long.parseLong(v);
                case "--duration-s" -> durationS = Long.parseLong(v);
                case "--path" -> path = v;
                case "--token" -> token = v;
                case "--out" -> out = Path.of(v);
                case "--ready" -> ready = Path.of(v);
                default -> throw new IllegalArgumentException("unknown option " + args[i]);
            }
        }
        if (port <= 0) {
            throw new IllegalArgumentException("--port is required");
        }
        String req = "GET " + path + " HTTP/1.1\r\nHost: " + host + "\r\nAuthorization: Bearer " + token
                + "\r\nConnection: close\r\n\r\n";
        SlowClients sc = new SlowClients(new InetSocketAddress(host, port), req.getBytes(StandardCharsets.US_ASCII));
        sc.run(idle, slow, intervalMs, durationS * 1000, ready);
        String report = sc.report();
        if (out != null) {
            write(out, report);
        } else {
            System.out.print(report);
        }
    }

    private void run(int idle, int slow, long intervalMs, long durationMs, Path ready) throws IOException {
        for (int i = 0; i < idle; i++) {
            clients.add(new Client(false));
        }
        for (int i = 0; i < slow; i++) {
            clients.add(new Client(true));
        }
        for (Client c : clients) {
            connect(c);
        }
        long start = System.nanoTime();
        long end = start + durationMs * 1_000_000L;
        long readyAt = start + 3_000_000_000L;
        long nextTick = start + intervalMs * 1_000_000L;
        boolean readyWritten = ready == null;
        while (true) {
            long now = System.nanoTime();
            if (now >= end) {
                break;
            }
            if (!readyWritten && (connected + failures >= clients.size() || now >= readyAt)) {
                write(ready, "connected=" + connected + "\n");
                readyWritten = true;
            }
            if (now >= nextTick) {
                tick();
                nextTick += intervalMs * 1_000_000L;
            }
            long waitMs = Math.max(1, Math.min(nextTick - now, end - now) / 1_000_000L);
            selector.select(Math.min(waitMs, 100));
            Iterator<SelectionKey> it = selector.selectedKeys().iterator();
            while (it.hasNext()) {
                SelectionKey key = it.next();
                it.remove();
                handle(key);
            }
        }
        for (Client c : clients) {
            close(c);
        }
        selector.close();
    }

    private void connect(Client c) {
        try {
            SocketChannel ch = SocketChannel.open();
            ch.configureBlocking(false);
            ch.setOption(StandardSocketOptions.TCP_NODELAY, true);
            c.channel = ch;
            c.sent = 0;
            c.received = 0;
            connects++;
            if (ch.connect(target)) {
                c.up = true;
                connected++;
                ch.register(selector, SelectionKey.OP_READ, c);
            } else {
                ch.register(selector, SelectionKey.OP_CONNECT, c);
            }
        } catch (IOException e) {
            failures++;
            close(c);
        }
    }

    private void handle(SelectionKey key) {
        Client c = (Client) key.attachment();
        try {
            if (key.isConnectable()) {
                if (c.channel.finishConnect()) {
                    c.up = true;
                    connected++;
                    key.interestOps(SelectionKey.OP_READ);
                }
                return;
            }
            if (key.isReadable()) {
                sink.clear();
                int n = c.channel.read(sink);
                if (n > 0) {
                    c.received += n;
                } else if (n < 0) {
                    if (c.slow && c.received > 0) {
                        slowCompleted++;
                    } else {
                        closedByServer++;
                    }
                    reconnect(c);
                }
            }
        } catch (IOException e) {
            failures++;
            reconnect(c);
        }
    }

    private void reconnect(Client c) {
        close(c);
        if (c.up) {
            c.up = false;
            connected--;
        }
        connect(c);
    }

    /** One more byte from every slow client whose connection is established. */
    private void tick() {
        for (Client c : clients) {
            if (c.slow && c.channel != null && c.channel.isConnected() && c.sent < request.length) {
                try {
                    c.channel.write(ByteBuffer.wrap(request, c.sent, 1));
                    c.sent++;
                } catch (IOException e) {
                    failures++;
                }
            }
        }
    }

    private static void close(Client c) {
        if (c.channel != null) {
            try {
                c.channel.close();
            } catch (IOException ignored) {
                // closing anyway
            }
        }
    }

    private String report() {
        return "connects=" + connects + "\nconnected=" + connected + "\nclosedByServer=" + closedByServer
                + "\nslowCompleted=" + slowCompleted + "\nfailures=" + failures + "\n";
    }

    private static void write(Path file, String text) throws IOException {
        Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
        Files.writeString(tmp, text, StandardCharsets.UTF_8);
        Files.move(tmp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    }
}
