package dev.xaccel.tomcat;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;

import org.junit.jupiter.api.Test;

import dev.xaccel.tomcat.internal.os.OsFamily;

/**
 * The accept filter path on a real FreeBSD/NetBSD kernel; skipped on systems without {@code SO_ACCEPTFILTER} (so
 * on Linux, where this project's CI runs). Needs the filters in the kernel first:
 * {@code kldload accf_http accf_data} (FreeBSD).
 */
class BsdNativeAcceptFilterTest {

    private static final OsFamily OS = OsFamily.current();

    private static AcceptFilterStatus install(AcceptFilterInstaller installer, ServerSocketChannel ch,
            AcceptFilterMode mode) {
        AcceptFilterStatus status = installer.install(ch, "bsd-native-test", mode, false, AcceptFilter.HTTPREADY, 1);
        assertFalse(status.failed(), status.message());
        return status;
    }

    private static SocketChannel connect(ServerSocketChannel ch) throws Exception {
        return SocketChannel.open(ch.getLocalAddress());
    }

    private static SocketChannel acceptWithin(ServerSocketChannel ch, long millis) throws Exception {
        long deadline = System.nanoTime() + millis * 1_000_000L;
        do {
            SocketChannel accepted = ch.accept();
            if (accepted != null) {
                return accepted;
            }
            Thread.sleep(10);
        } while (System.nanoTime() < deadline);
        return null;
    }

    private static void send(SocketChannel client, String data) throws Exception {
        client.write(ByteBuffer.wrap(data.getBytes(StandardCharsets.US_ASCII)));
    }

    @Test
    void httpreadyAndDatareadyOnTheRealKernel() throws Exception {
        assumeTrue(OS.kind() == OsFamily.Kind.ACCEPT_FILTER, "SO_ACCEPTFILTER exists on FreeBSD and NetBSD only");
        AcceptFilterInstaller installer = new AcceptFilterInstaller();
        try (ServerSocketChannel ch = ServerSocketChannel.open()) {
            ch.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 16);
            ch.configureBlocking(false);

            AcceptFilterStatus first = install(installer, ch, AcceptFilterMode.HTTPREADY);
            assertTrue(first.active());
            assertEquals("httpready", first.kernelValue());
            // the same filter again: read back, equal, kept (setting it twice would be refused)
            AcceptFilterStatus again = install(installer, ch, AcceptFilterMode.HTTPREADY);
            assertTrue(again.message().contains("already installed"), again.message());

            try (SocketChannel silent = connect(ch); SocketChannel partial = connect(ch)) {
                send(partial, "GET / HTTP/1.1\r\nHost: x\r\n");
                assertNull(acceptWithin(ch, 500), "a silent or incomplete GET passed httpready");
                send(partial, "\r\n");
                try (SocketChannel accepted = acceptWithin(ch, 2000)) {
                    assertNotNull(accepted, "the complete GET was not released");
                }
            }

            // another filter over it: remove (NULL, 0), then set
            AcceptFilterStatus data = install(installer, ch, AcceptFilterMode.DATAREADY);
            assertTrue(data.active());
            assertEquals("dataready", data.kernelValue());
            try (SocketChannel silent = connect(ch); SocketChannel talking = connect(ch)) {
                assertNull(acceptWithin(ch, 500), "a silent client passed dataready");
                send(talking, "x");
                try (SocketChannel accepted = acceptWithin(ch, 2000)) {
                    assertNotNull(accepted, "data did not release the connection");
                }
            }
        }
    }
}
