package dev.xaccel.filter.internal.receipt;

import java.io.IOException;
import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetSocketAddress;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.util.function.Consumer;
import java.util.function.LongConsumer;
import java.util.logging.Level;
import java.util.logging.Logger;

import dev.xaccel.filter.internal.util.Messages;
import dev.xaccel.filter.internal.util.ThrottledLog;

/**
 * The loopback UDP socket nginx's {@code access_log syslog:} sends receipt lines to, read by one daemon thread,
 * which also expires receipts that waited too long (at least once a second). UDP because nginx never blocks on it
 * (no connection, no file to rotate or tail) and a reload keeps sending to the same address.
 */
final class ReceiptSocket implements ReceiptSource {

    private static final Logger LOG = Logger.getLogger(ReceiptSocket.class.getName());
    private static final ThrottledLog FAILED = new ThrottledLog(LOG, Level.WARNING);
    /** nginx's syslog messages are at most 2 KiB; a longer datagram is cut and then malformed. */
    private static final int MAX_DATAGRAM = 8192;

    private final DatagramSocket socket;
    private final Thread thread;
    private final Consumer<String> lines;
    private final LongConsumer expire;

    /**
     * @param lines  takes each datagram's text
     * @param expire called with {@link System#nanoTime()} at least once a second
     */
    ReceiptSocket(String name, InetSocketAddress address, Consumer<String> lines, LongConsumer expire)
            throws SocketException {
        this.lines = lines;
        this.expire = expire;
        this.socket = new DatagramSocket(null);
        socket.setReuseAddress(true);
        socket.bind(address);
        socket.setSoTimeout(1000);
        socket.setReceiveBufferSize(4 * 1024 * 1024);
        this.thread = new Thread(this::run, "xaccel-receipts-" + name + "-socket");
        thread.setDaemon(true);
        thread.start();
    }

    private void run() {
        byte[] buf = new byte[MAX_DATAGRAM];
        DatagramPacket p = new DatagramPacket(buf, buf.length);
        long lastSweep = System.nanoTime();
        while (!socket.isClosed()) {
            try {
                p.setLength(buf.length);
                socket.receive(p);
                lines.accept(new String(buf, 0, p.getLength(), StandardCharsets.UTF_8));
            } catch (SocketTimeoutException e) {
                // nothing came: time to expire
            } catch (IOException e) {
                if (socket.isClosed()) {
                    return;
                }
                FAILED.log(() -> Messages.get("receipts.readFailed", e.getMessage()));
            } catch (RuntimeException e) {
                FAILED.log(() -> Messages.get("receipts.readFailed", e));
            }
            long now = System.nanoTime();
            if (now - lastSweep >= 1_000_000_000L) {
                expire.accept(now);
                lastSweep = now;
            }
        }
    }

    /**
     * Closes the socket and waits (at most 2 s) for the reader to leave it: the JDK releases the port only once no
     * thread is in {@code receive}, and a redeployed application binds it again at once.
     */
    @Override
    public void close() {
        socket.close();
        thread.interrupt();
        try {
            thread.join(2000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
