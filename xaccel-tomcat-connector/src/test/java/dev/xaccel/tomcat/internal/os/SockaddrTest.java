package dev.xaccel.tomcat.internal.os;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;

import org.junit.jupiter.api.Test;

class SockaddrTest {

    private static byte[] linuxIn6(int port, byte[] addr) {
        ByteBuffer b = ByteBuffer.allocate(28);
        b.order(ByteOrder.nativeOrder()).putShort((short) 10);
        b.order(ByteOrder.BIG_ENDIAN).putShort((short) port).putInt(0).put(addr).putInt(0);
        return b.array();
    }

    private static byte[] mapped(int a, int b, int c, int d) {
        byte[] addr = new byte[16];
        addr[10] = (byte) 0xff;
        addr[11] = (byte) 0xff;
        addr[12] = (byte) a;
        addr[13] = (byte) b;
        addr[14] = (byte) c;
        addr[15] = (byte) d;
        return addr;
    }

    @Test
    void linuxIpv4MappedDecodesToIpv4() {
        InetSocketAddress a = Sockaddr.decode(OsFamily.LINUX, linuxIn6(8080, mapped(127, 0, 0, 1)));
        assertEquals(new InetSocketAddress("127.0.0.1", 8080), a);
    }

    @Test
    void linuxSockaddrIn() {
        ByteBuffer b = ByteBuffer.allocate(16);
        b.order(ByteOrder.nativeOrder()).putShort((short) 2);
        b.order(ByteOrder.BIG_ENDIAN).putShort((short) 65535).put(new byte[] { 10, 1, 2, 3 });
        assertEquals(new InetSocketAddress("10.1.2.3", 65535), Sockaddr.decode(OsFamily.LINUX, b.array()));
    }

    @Test
    void freebsdLayoutHasLengthByteFirst() {
        byte[] raw = ByteBuffer.allocate(28).put((byte) 28).put((byte) 28).putShort((short) 8443).putInt(0)
                .put(mapped(192, 168, 0, 1)).putInt(0).array();
        assertEquals(new InetSocketAddress("192.168.0.1", 8443), Sockaddr.decode(OsFamily.FREEBSD, raw));
        // NetBSD's AF_INET6 is 24, so 28 is not an IPv6 family there
        assertNull(Sockaddr.decode(OsFamily.NETBSD, raw));
        raw[1] = 24;
        assertEquals(new InetSocketAddress("192.168.0.1", 8443), Sockaddr.decode(OsFamily.NETBSD, raw));
    }

    @Test
    void unixAndShortAddressesAreNotIp() {
        assertNull(Sockaddr.decode(OsFamily.LINUX, new byte[] { 1, 0, '/', 't' }));
        assertNull(Sockaddr.decode(OsFamily.LINUX, new byte[1]));
        assertNull(Sockaddr.decode(OsFamily.LINUX, null));
    }

    @Test
    void wildcardOfEitherFamilyMatchesAndPortMustBeEqual() {
        InetSocketAddress v6any = Sockaddr.decode(OsFamily.LINUX, linuxIn6(80, new byte[16]));
        assertTrue(Sockaddr.matches(v6any, new InetSocketAddress("0.0.0.0", 80)));
        assertTrue(Sockaddr.matches(v6any, new InetSocketAddress("::", 80)));
        assertFalse(Sockaddr.matches(v6any, new InetSocketAddress("0.0.0.0", 81)));
        assertFalse(Sockaddr.matches(v6any, new InetSocketAddress("127.0.0.1", 80)));
        assertFalse(Sockaddr.matches(new InetSocketAddress("127.0.0.2", 80), new InetSocketAddress("127.0.0.1", 80)));
        assertFalse(Sockaddr.matches(null, new InetSocketAddress("127.0.0.1", 80)));
    }
}
