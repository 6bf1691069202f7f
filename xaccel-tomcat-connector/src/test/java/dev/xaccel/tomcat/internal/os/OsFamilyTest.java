package dev.xaccel.tomcat.internal.os;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class OsFamilyTest {

    @Test
    void osNames() {
        assertEquals(OsFamily.LINUX, OsFamily.fromOsName("Linux"));
        assertEquals(OsFamily.FREEBSD, OsFamily.fromOsName("FreeBSD"));
        assertEquals(OsFamily.NETBSD, OsFamily.fromOsName("NetBSD"));
        assertEquals(OsFamily.MACOS, OsFamily.fromOsName("Mac OS X"));
        assertEquals(OsFamily.WINDOWS, OsFamily.fromOsName("Windows Server 2022"));
        assertEquals(OsFamily.OTHER, OsFamily.fromOsName("OpenBSD"));
        assertEquals(OsFamily.OTHER, OsFamily.fromOsName("SunOS"));
    }

    @Test
    void kinds() {
        assertEquals(OsFamily.Kind.DEFER_ACCEPT, OsFamily.LINUX.kind());
        assertEquals(OsFamily.Kind.ACCEPT_FILTER, OsFamily.FREEBSD.kind());
        assertEquals(OsFamily.Kind.ACCEPT_FILTER, OsFamily.NETBSD.kind());
        assertEquals(OsFamily.Kind.NONE, OsFamily.MACOS.kind());
        assertEquals(OsFamily.Kind.NONE, OsFamily.WINDOWS.kind());
    }

    @Test
    void linuxConstants() {
        assertEquals(1, OsFamily.LINUX.solSocket());
        assertEquals(30, OsFamily.LINUX.soAcceptConn());
        assertEquals(6, OsFamily.IPPROTO_TCP);
        assertEquals(9, OsFamily.TCP_DEFER_ACCEPT);
        assertEquals("ENOPROTOOPT", OsFamily.LINUX.errnoName(92));
        assertEquals("ENOPROTOOPT", OsFamily.FREEBSD.errnoName(42));
        assertEquals("ENOENT", OsFamily.FREEBSD.errnoName(2));
        assertEquals("errno 5", OsFamily.FREEBSD.errnoName(5));
    }

    @Test
    void socketOptionsAreValueTypesOfEachFamily() {
        assertEquals(new SocketOption("SO_ACCEPTFILTER", 0xffff, 0x1000), OsFamily.FREEBSD.acceptFilter());
        assertEquals(new SocketOption("SO_ACCEPTFILTER", 0xffff, 0x1000), OsFamily.NETBSD.acceptFilter());
        assertEquals(new SocketOption("SO_ACCEPTCONN", 0xffff, 2), OsFamily.FREEBSD.acceptConn());
        assertEquals(new SocketOption("SO_ACCEPTCONN", 1, 30), OsFamily.LINUX.acceptConn());
        assertEquals(new SocketOption("TCP_DEFER_ACCEPT", 6, 9), OsFamily.LINUX.deferAccept());
        assertEquals("TCP_DEFER_ACCEPT", OsFamily.LINUX.deferAccept().toString());
    }
}
