package dev.xaccel.tomcat.internal.os;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.nio.ByteOrder;
import java.util.Arrays;

/**
 * Decodes the {@code struct sockaddr_in}/{@code sockaddr_in6} bytes returned by {@code getsockname()}. Linux starts
 * with a host-order {@code u16 sa_family}; the BSDs and macOS with {@code u8 sa_len, u8 sa_family}. The port is in
 * network order at offset 2 in both; an IPv4-mapped IPv6 address decodes to its IPv4 address.
 */
public final class Sockaddr {

    private static final int SOCKADDR_IN_LENGTH = 8;
    private static final int SOCKADDR_IN6_LENGTH = 24;

    private Sockaddr() {
    }

    /**
     * @param os  the layout to decode
     * @param raw the bytes
     * @return the address, or {@code null} when it is not an IPv4/IPv6 address (for example a Unix domain socket)
     */
    public static InetSocketAddress decode(OsFamily os, byte[] raw) {
        if (raw == null || raw.length < 2) {
            return null;
        }
        int family = family(os, raw);
        try {
            if (family == OsFamily.AF_INET && raw.length >= SOCKADDR_IN_LENGTH) {
                return new InetSocketAddress(InetAddress.getByAddress(Arrays.copyOfRange(raw, 4, 8)), port(raw));
            } else if (family == os.afInet6() && raw.length >= SOCKADDR_IN6_LENGTH) {
                // getByAddress turns ::ffff:a.b.c.d into an Inet4Address
                return new InetSocketAddress(InetAddress.getByAddress(Arrays.copyOfRange(raw, 8, 24)), port(raw));
            }
        } catch (UnknownHostException e) {
            // cannot happen for 4 or 16 bytes
        }
        return null;
    }

    /**
     * Whether a socket's kernel address is the address a Java channel reports it is bound to. Any-local addresses of
     * both families match each other, since a Java socket bound to {@code 0.0.0.0} is a dual-stack {@code ::} socket.
     *
     * @param kernel the decoded {@code getsockname()} result, may be {@code null}
     * @param bound  the channel's local address
     * @return whether they designate the same listening socket address
     */
    public static boolean matches(InetSocketAddress kernel, InetSocketAddress bound) {
        if (kernel == null || bound == null || kernel.getPort() != bound.getPort()) {
            return false;
        }
        InetAddress k = kernel.getAddress();
        InetAddress b = bound.getAddress();
        if (k.isAnyLocalAddress() || b.isAnyLocalAddress()) {
            return k.isAnyLocalAddress() && b.isAnyLocalAddress();
        }
        return k.equals(b);
    }

    private static int family(OsFamily os, byte[] raw) {
        if (os.hasSockaddrLength()) {
            return raw[1] & 0xff;
        }
        if (ByteOrder.nativeOrder() == ByteOrder.LITTLE_ENDIAN) {
            return (raw[0] & 0xff) | (raw[1] & 0xff) << 8;
        }
        return (raw[0] & 0xff) << 8 | (raw[1] & 0xff);
    }

    private static int port(byte[] raw) {
        return (raw[2] & 0xff) << 8 | (raw[3] & 0xff);
    }
}
