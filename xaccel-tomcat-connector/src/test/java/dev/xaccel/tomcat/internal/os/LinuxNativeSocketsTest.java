package dev.xaccel.tomcat.internal.os;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The JNA layer and the descriptor scan against the real Linux kernel (skipped elsewhere). */
class LinuxNativeSocketsTest {

    private static NativeSockets sockets;

    @BeforeAll
    static void load() throws Exception {
        assumeTrue(OsFamily.current() == OsFamily.LINUX, "TCP_DEFER_ACCEPT is Linux only");
        sockets = NativeSocketsLoader.load();
    }

    @Test
    void scanFindsTheListeningSocketAmongOthers() throws Exception {
        try (ServerSocketChannel a = ServerSocketChannel.open();
                ServerSocketChannel b = ServerSocketChannel.open()) {
            a.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
            b.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
            try (SocketChannel client = SocketChannel.open(a.getLocalAddress())) {
                ListeningSocketLocator locator = new ListeningSocketLocator(sockets, OsFamily.LINUX);
                ListeningSocketLocator.Found fa = locator.locate(a);
                ListeningSocketLocator.Found fb = locator.locate(b);
                assertTrue(fa.fd() != fb.fd());
                // the kernel sees a dual-stack socket: ::ffff:127.0.0.1
                assertEquals(a.getLocalAddress(), Sockaddr.decode(OsFamily.LINUX, sockets.getsockname(fa.fd())));
                assertEquals(1, sockets.getsockoptInt(fa.fd(), OsFamily.LINUX.solSocket(),
                        OsFamily.LINUX.soAcceptConn()));
                // without --add-exports java.base/sun.nio.ch the scan is what finds it
                if (ListeningSocketLocator.jdkDescriptor(a) < 0) {
                    assertEquals(ListeningSocketLocator.Via.DESCRIPTOR_SCAN, fa.how());
                } else {
                    assertEquals(ListeningSocketLocator.jdkDescriptor(a), fa.fd());
                }
            }
        }
    }

    @Test
    void wildcardListenerIsFound() throws Exception {
        try (ServerSocketChannel any = ServerSocketChannel.open()) {
            any.bind(new InetSocketAddress(0));
            ListeningSocketLocator.Found found = new ListeningSocketLocator(sockets, OsFamily.LINUX).locate(any);
            assertTrue(found.fd() > 2);
        }
    }

    @Test
    void deferAcceptReadsBackAsRetransmissionCount() throws Exception {
        try (ServerSocketChannel ch = ServerSocketChannel.open()) {
            ch.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
            int fd = new ListeningSocketLocator(sockets, OsFamily.LINUX).locate(ch).fd();
            assertEquals(0, sockets.getsockoptInt(fd, OsFamily.IPPROTO_TCP, OsFamily.TCP_DEFER_ACCEPT));
            int[][] expected = { { 1, 1 }, { 2, 3 }, { 5, 7 }, { 30, 31 }, { 60, 63 } };
            for (int[] pair : expected) {
                sockets.setsockoptInt(fd, OsFamily.IPPROTO_TCP, OsFamily.TCP_DEFER_ACCEPT, pair[0]);
                int kernel = sockets.getsockoptInt(fd, OsFamily.IPPROTO_TCP, OsFamily.TCP_DEFER_ACCEPT);
                assertTrue(kernel >= pair[0] && Integer.bitCount(kernel + 1) == 1,
                        pair[0] + " read back as " + kernel);
                assertEquals(pair[1], kernel, "kernel rounding of " + pair[0]);
            }
        }
    }

    @Test
    void bsdOptionFailsWithLinuxEnoprotoopt() throws Exception {
        try (ServerSocketChannel ch = ServerSocketChannel.open()) {
            ch.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
            int fd = new ListeningSocketLocator(sockets, OsFamily.LINUX).locate(ch).fd();
            ErrnoException e = assertThrows(ErrnoException.class,
                    () -> sockets.setsockopt(fd, 0xffff, OsFamily.SO_ACCEPTFILTER, new byte[256]));
            assertEquals(92, e.errno());
        }
    }
}
