package dev.xaccel.tomcat.internal.os;

import java.util.Locale;

/**
 * The operating system families the connector distinguishes, with the socket constants and errno values that differ
 * between them. Values come from the systems' headers ({@code sys/socket.h}, {@code sys/errno.h},
 * {@code netinet/tcp.h}).
 */
public enum OsFamily {

    /** Linux: {@code TCP_DEFER_ACCEPT}. */
    LINUX(1, 30, 10, 92, Kind.DEFER_ACCEPT),
    /** FreeBSD: {@code SO_ACCEPTFILTER} with {@code accf_*} kernel modules. */
    FREEBSD(0xffff, 0x0002, 28, 42, Kind.ACCEPT_FILTER),
    /** NetBSD: {@code SO_ACCEPTFILTER}, same constants and struct as FreeBSD. */
    NETBSD(0xffff, 0x0002, 24, 42, Kind.ACCEPT_FILTER),
    /** macOS: no accept filters ({@code 0x1000} means something else there). */
    MACOS(0xffff, 0x0002, 30, 42, Kind.NONE),
    /** Windows: no accept filters. */
    WINDOWS(0xffff, 0x0002, 23, 10042, Kind.NONE),
    /** Anything else. */
    OTHER(-1, -1, -1, -1, Kind.NONE);

    /** What the OS offers to hold connections in the kernel until data has arrived. */
    public enum Kind {
        /** Linux {@code setsockopt(fd, IPPROTO_TCP, TCP_DEFER_ACCEPT, int)}. */
        DEFER_ACCEPT,
        /** BSD {@code setsockopt(fd, SOL_SOCKET, SO_ACCEPTFILTER, struct accept_filter_arg)}. */
        ACCEPT_FILTER,
        /** Nothing. */
        NONE
    }

    /** BSD {@code SO_ACCEPTFILTER} (FreeBSD and NetBSD). */
    public static final int SO_ACCEPTFILTER = 0x1000;
    /** {@code IPPROTO_TCP}. */
    public static final int IPPROTO_TCP = 6;
    /** Linux {@code TCP_DEFER_ACCEPT}. */
    public static final int TCP_DEFER_ACCEPT = 9;
    /** {@code AF_INET} (all of them). */
    public static final int AF_INET = 2;
    /** {@code ENOENT} (all of them). */
    public static final int ENOENT = 2;
    /** {@code EBADF} (all of them). */
    public static final int EBADF = 9;
    /** {@code EBUSY} (all of them). */
    public static final int EBUSY = 16;
    /** {@code EINVAL} (all of them). */
    public static final int EINVAL = 22;

    private final int solSocket;
    private final int soAcceptConn;
    private final int afInet6;
    private final int enoprotoopt;
    private final Kind kind;
    private final SocketOption acceptConn;
    private final SocketOption acceptFilter;
    private final SocketOption deferAccept;

    OsFamily(int solSocket, int soAcceptConn, int afInet6, int enoprotoopt, Kind kind) {
        this.solSocket = solSocket;
        this.soAcceptConn = soAcceptConn;
        this.afInet6 = afInet6;
        this.enoprotoopt = enoprotoopt;
        this.kind = kind;
        this.acceptConn = new SocketOption("SO_ACCEPTCONN", solSocket, soAcceptConn);
        this.acceptFilter = new SocketOption("SO_ACCEPTFILTER", solSocket, SO_ACCEPTFILTER);
        this.deferAccept = new SocketOption("TCP_DEFER_ACCEPT", IPPROTO_TCP, TCP_DEFER_ACCEPT);
    }

    /** @return {@code SOL_SOCKET, SO_ACCEPTCONN}: whether a socket is listening (an {@code int}) */
    public SocketOption acceptConn() {
        return acceptConn;
    }

    /**
     * @return {@code SOL_SOCKET, SO_ACCEPTFILTER}: the accept filter ({@code struct accept_filter_arg}); meaningful
     *         where {@link #kind()} is {@link Kind#ACCEPT_FILTER}
     */
    public SocketOption acceptFilter() {
        return acceptFilter;
    }

    /**
     * @return {@code IPPROTO_TCP, TCP_DEFER_ACCEPT}: the deferral in seconds (an {@code int}); meaningful where
     *         {@link #kind()} is {@link Kind#DEFER_ACCEPT}
     */
    public SocketOption deferAccept() {
        return deferAccept;
    }

    /** @return {@code SOL_SOCKET}: 1 on Linux, 0xffff on the BSDs and macOS */
    public int solSocket() {
        return solSocket;
    }

    /** @return {@code SO_ACCEPTCONN}: 30 on Linux, 2 on the BSDs and macOS */
    public int soAcceptConn() {
        return soAcceptConn;
    }

    /** @return {@code AF_INET6}: 10 Linux, 28 FreeBSD, 24 NetBSD, 30 macOS */
    public int afInet6() {
        return afInet6;
    }

    /** @return {@code ENOPROTOOPT}: 92 on Linux, 42 on the BSDs and macOS */
    public int enoprotoopt() {
        return enoprotoopt;
    }

    /** @return what this OS offers */
    public Kind kind() {
        return kind;
    }

    /** @return whether {@code struct sockaddr} starts with {@code u8 sa_len, u8 sa_family} (4.4BSD layout) */
    public boolean hasSockaddrLength() {
        return this == FREEBSD || this == NETBSD || this == MACOS;
    }

    /**
     * Names an errno value the way the C headers do, for log messages.
     *
     * @param errno the value
     * @return for example {@code ENOENT}, or {@code errno 5}
     */
    public String errnoName(int errno) {
        if (errno == ENOENT) {
            return "ENOENT";
        } else if (errno == EBADF) {
            return "EBADF";
        } else if (errno == EBUSY) {
            return "EBUSY";
        } else if (errno == EINVAL) {
            return "EINVAL";
        } else if (errno == enoprotoopt) {
            return "ENOPROTOOPT";
        }
        return Messages.get("errno.name", String.valueOf(errno));
    }

    /** @return the family of the running JVM's OS */
    public static OsFamily current() {
        return fromOsName(System.getProperty("os.name", ""));
    }

    /**
     * @param osName a value of the {@code os.name} system property
     * @return its family
     */
    public static OsFamily fromOsName(String osName) {
        String name = osName.toLowerCase(Locale.ROOT);
        if (name.startsWith("linux")) {
            return LINUX;
        } else if (name.startsWith("freebsd")) {
            return FREEBSD;
        } else if (name.startsWith("netbsd")) {
            return NETBSD;
        } else if (name.startsWith("mac") || name.startsWith("darwin")) {
            return MACOS;
        } else if (name.startsWith("windows")) {
            return WINDOWS;
        }
        return OTHER;
    }
}
