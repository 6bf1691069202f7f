package dev.xaccel.filter.internal.receipt;

import java.io.IOException;
import java.net.Inet6Address;
import java.net.InetSocketAddress;
import java.net.SocketException;
import java.net.StandardProtocolFamily;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.ClosedSelectorException;
import java.nio.channels.DatagramChannel;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
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
 * (no connection, no file to rotate or tail) and a reload keeps sending to the same address. The channel stays
 * non-blocking under a selector, so each wake-up reads every datagram waiting with one system call each (the JDK's
 * {@code DatagramSocket} with a timeout switched the socket to non-blocking and back around every receive).
 */
final class ReceiptSocket implements ReceiptSource {

    private static final Logger LOG = Logger.getLogger(ReceiptSocket.class.getName());
    private static final ThrottledLog FAILED = new ThrottledLog(LOG, Level.WARNING);
    /** nginx's syslog messages are at most 2 KiB; a longer datagram is cut and then malformed. */
    private static final int MAX_DATAGRAM = 8192;
    /** Datagrams read in a row before the reader looks at the time: a flood cannot hold off the expiry. */
    private static final int BATCH = 1024;
    private static final long SECOND = 1_000_000_000L;

    private final DatagramChannel channel;
    private final Selector selector;
    private final Thread thread;
    private final Consumer<String> lines;
    private final LongConsumer expire;

    /**
     * @param lines  takes each datagram's text
     * @param expire called with {@link System#nanoTime()} at least once a second
     * @throws SocketException when the address cannot be bound (in use, not local)
     */
    ReceiptSocket(String name, InetSocketAddress address, Consumer<String> lines, LongConsumer expire)
            throws SocketException {
        this.lines = lines;
        this.expire = expire;
        DatagramChannel c = null;
        Selector sel = null;
        try {
            c = DatagramChannel.open(address.getAddress() instanceof Inet6Address ? StandardProtocolFamily.INET6
                    : StandardProtocolFamily.INET);
            // no SO_REUSEADDR: a second filter given the same port would silently share its lines; it fails instead
            c.setOption(StandardSocketOptions.SO_RCVBUF, 4 * 1024 * 1024);
            c.bind(address);
            c.configureBlocking(false);
            sel = Selector.open();
            c.register(sel, SelectionKey.OP_READ);
        } catch (IOException e) {
            closeQuietly(c, sel);
            throw e instanceof SocketException se ? se : new SocketException(e.getMessage());
        }
        this.channel = c;
        this.selector = sel;
        this.thread = new Thread(this::run, "xaccel-receipts-" + name + "-socket");
        thread.setDaemon(true);
        thread.start();
    }

    private void run() {
        ByteBuffer buf = ByteBuffer.allocate(MAX_DATAGRAM);
        long lastSweep = System.nanoTime();
        while (channel.isOpen()) {
            try {
                selector.select(1000);
                selector.selectedKeys().clear();
                for (int n = 0; n < BATCH; n++) {
                    buf.clear();
                    if (channel.receive(buf) == null) {
                        break;
                    }
                    lines.accept(new String(buf.array(), 0, buf.position(), StandardCharsets.UTF_8));
                }
            } catch (ClosedChannelException | ClosedSelectorException e) {
                return;
            } catch (IOException e) {
                if (!channel.isOpen()) {
                    return;
                }
                FAILED.log(() -> Messages.get("receipts.readFailed", e.getMessage()));
            } catch (RuntimeException e) {
                FAILED.log(() -> Messages.get("receipts.readFailed", e));
            }
            long now = System.nanoTime();
            if (now - lastSweep >= SECOND) {
                expire.accept(now);
                lastSweep = now;
            }
        }
    }

    /**
     * Closes the socket and waits (at most 2 s) for the reader to leave it: the port is free again once the
     * selector let go of the channel, so a redeployed application binds it again at once.
     */
    @Override
    public void close() {
        closeQuietly(channel, selector);
        thread.interrupt();
        try {
            thread.join(2000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static void closeQuietly(DatagramChannel c, Selector sel) {
        try {
            if (c != null) {
                c.close();
            }
            if (sel != null) {
                // deregisters the channel, which closes its descriptor now rather than at the next select
                sel.close();
            }
        } catch (IOException e) {
            // nothing was written: nothing is lost
        }
    }
}
