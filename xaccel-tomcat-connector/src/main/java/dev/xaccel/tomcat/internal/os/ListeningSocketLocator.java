package dev.xaccel.tomcat.internal.os;

import java.io.IOException;
import java.lang.reflect.Method;
import java.net.InetSocketAddress;
import java.nio.channels.NetworkChannel;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.function.IntPredicate;

/**
 * Finds the file descriptor of a listening {@link NetworkChannel} without requiring JVM flags.
 * <p>
 * Fast path: {@code sun.nio.ch.SelChImpl.getFDVal()} when {@code sun.nio.ch} is exported to this code
 * ({@code --add-exports java.base/sun.nio.ch=ALL-UNNAMED}). Otherwise the descriptors of the process are scanned
 * ({@code /proc/self/fd} on Linux, {@code 0 .. getdtablesize()-1} elsewhere) for the one listening socket
 * ({@code SO_ACCEPTCONN}) whose {@code getsockname()} equals the channel's bound address.
 */
public final class ListeningSocketLocator {

    /** Upper bound of the descriptor scan where there is no {@code /proc/self/fd}. */
    static final int MAX_SCAN = 1 << 20;
    /** Open descriptors probed beyond the process's count before the scan stops. */
    static final int SCAN_SLACK = 64;

    /** How the descriptor was found. */
    public enum Via {
        /** {@code sun.nio.ch.SelChImpl.getFDVal()}. */
        JDK_INTERNALS,
        /** Scan of the process's descriptors. */
        DESCRIPTOR_SCAN
    }

    /**
     * A found descriptor.
     *
     * @param fd  the descriptor
     * @param how how it was found
     */
    public record Found(int fd, Via how) {
    }

    private final NativeSockets sockets;
    private final OsFamily os;
    private final Path procSelfFd;

    /**
     * @param sockets the native calls
     * @param os      the OS (sockaddr layout, constants, descriptor listing)
     */
    public ListeningSocketLocator(NativeSockets sockets, OsFamily os) {
        this(sockets, os, Paths.get("/proc/self/fd"));
    }

    ListeningSocketLocator(NativeSockets sockets, OsFamily os, Path procSelfFd) {
        this.sockets = sockets;
        this.os = os;
        this.procSelfFd = procSelfFd;
    }

    /**
     * @param channel a bound, listening channel
     * @return its descriptor
     * @throws IOException if it cannot be found unambiguously (the message says why)
     */
    public Found locate(NetworkChannel channel) throws IOException {
        if (!(channel.getLocalAddress() instanceof InetSocketAddress)) {
            throw new IOException(Messages.get("locator.notIp", channel.getLocalAddress()));
        }
        InetSocketAddress bound = (InetSocketAddress) channel.getLocalAddress();
        int fd = jdkDescriptor(channel);
        if (fd >= 0 && isListeningOn(fd, bound)) {
            return new Found(fd, Via.JDK_INTERNALS);
        }
        return locate(bound);
    }

    /**
     * Scans the process's descriptors for the listening socket bound to {@code bound}.
     *
     * @param bound the local address of the listening socket, as Java reports it
     * @return its descriptor
     * @throws IOException if there is none, or more than one
     */
    public Found locate(InetSocketAddress bound) throws IOException {
        List<Integer> matches = new ArrayList<>(1);
        scan(candidate -> {
            if (isListeningOn(candidate, bound)) {
                matches.add(candidate);
            }
            return matches.size() < 2;
        });
        if (matches.isEmpty()) {
            throw new IOException(Messages.get("locator.none", bound));
        }
        if (matches.size() > 1) {
            throw new IOException(Messages.get("locator.several", bound, matches));
        }
        return new Found(matches.get(0), Via.DESCRIPTOR_SCAN);
    }

    /**
     * @param fd    a descriptor
     * @param bound the expected address
     * @return whether {@code fd} is a listening socket bound to {@code bound}
     */
    boolean isListeningOn(int fd, InetSocketAddress bound) {
        return probe(fd, bound) == Probe.MATCH;
    }

    private enum Probe {
        CLOSED, OTHER, MATCH
    }

    private Probe probe(int fd, InetSocketAddress bound) {
        try {
            if (sockets.getsockoptInt(fd, os.acceptConn()) == 0) {
                return Probe.OTHER;
            }
            return Sockaddr.matches(Sockaddr.decode(os, sockets.getsockname(fd)), bound) ? Probe.MATCH : Probe.OTHER;
        } catch (ErrnoException e) {
            return e.errno() == OsFamily.EBADF ? Probe.CLOSED : Probe.OTHER; // ENOTSOCK: open, not a socket
        }
    }

    /** Feeds candidate descriptors to {@code visitor} until it returns false. */
    private void scan(IntPredicate visitor) throws IOException {
        if (os == OsFamily.LINUX && Files.isDirectory(procSelfFd)) {
            List<Integer> fds = new ArrayList<>();
            try (DirectoryStream<Path> dir = Files.newDirectoryStream(procSelfFd)) {
                for (Path entry : dir) {
                    try {
                        if (Files.readSymbolicLink(entry).toString().startsWith("socket:")) {
                            fds.add(Integer.valueOf(entry.getFileName().toString()));
                        }
                    } catch (IOException | NumberFormatException e) {
                        // closed meanwhile (or the directory stream's own descriptor)
                    }
                }
            }
            for (int fd : fds) {
                if (!visitor.test(fd)) {
                    return;
                }
            }
            return;
        }
        // No /proc: probe 0, 1, 2, ... Descriptors are allocated lowest first, so once as many open descriptors as
        // the process has (plus some slack for concurrent opens) have been seen, the rest of the table is empty.
        int limit = Math.min(Math.max(sockets.descriptorTableSize(), 0), MAX_SCAN);
        long open = openDescriptorCount();
        long seen = 0;
        for (int fd = 0; fd < limit; fd++) {
            if (!visitor.test(fd)) {
                return;
            }
            if (open > 0 && isOpen(fd) && ++seen >= open + SCAN_SLACK) {
                return;
            }
        }
    }

    private boolean isOpen(int fd) {
        try {
            sockets.getsockoptInt(fd, os.acceptConn());
            return true;
        } catch (ErrnoException e) {
            return e.errno() != OsFamily.EBADF;
        }
    }

    /** @return the number of open descriptors of this process, or -1 if the JVM does not tell */
    static long openDescriptorCount() {
        try {
            java.lang.management.OperatingSystemMXBean bean =
                    java.lang.management.ManagementFactory.getOperatingSystemMXBean();
            if (bean instanceof com.sun.management.UnixOperatingSystemMXBean) {
                return ((com.sun.management.UnixOperatingSystemMXBean) bean).getOpenFileDescriptorCount();
            }
        } catch (RuntimeException | LinkageError e) {
            // not HotSpot, or jdk.management absent
        }
        return -1;
    }

    /** @return the descriptor from the JDK's internals if {@code sun.nio.ch} is exported to us, else -1 */
    static int jdkDescriptor(NetworkChannel channel) {
        try {
            Class<?> selChImpl = Class.forName("sun.nio.ch.SelChImpl");
            if (!selChImpl.isInstance(channel)
                    || !selChImpl.getModule().isExported("sun.nio.ch", ListeningSocketLocator.class.getModule())) {
                return -1;
            }
            Method getFdVal = selChImpl.getMethod("getFDVal");
            return ((Integer) getFdVal.invoke(channel)).intValue();
        } catch (ReflectiveOperationException | RuntimeException | LinkageError e) {
            return -1;
        }
    }
}
