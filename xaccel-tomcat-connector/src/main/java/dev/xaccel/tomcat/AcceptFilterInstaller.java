package dev.xaccel.tomcat;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.channels.NetworkChannel;
import java.util.List;

import dev.xaccel.tomcat.internal.os.ErrnoException;
import dev.xaccel.tomcat.internal.os.ListeningSocketLocator;
import dev.xaccel.tomcat.internal.os.NativeSockets;
import dev.xaccel.tomcat.internal.os.NativeSocketsLoader;
import dev.xaccel.tomcat.internal.os.OsFamily;

/**
 * Applies the configured accept filter to a listening socket: the one OS switch (Linux {@code TCP_DEFER_ACCEPT},
 * FreeBSD/NetBSD {@code SO_ACCEPTFILTER}, anything else a warning) and the BSD read-compare-remove-set sequence.
 * Never throws: every outcome is an {@link AcceptFilterStatus}.
 */
final class AcceptFilterInstaller {

    /** Loads the native calls; a seam for tests. */
    interface NativeSource {
        NativeSockets load() throws IOException;
    }

    private final OsFamily os;
    private final NativeSource source;
    private NativeSockets sockets;

    AcceptFilterInstaller() {
        this(OsFamily.current(), NativeSocketsLoader::loadOrNoop);
    }

    AcceptFilterInstaller(OsFamily os, NativeSource source) {
        this.os = os;
        this.source = source;
    }

    /**
     * @param channel      the bound, listening channel
     * @param connector    the connector name for messages
     * @param mode         the configured mode
     * @param tls          whether the connector terminates TLS
     * @param plainDefault the {@code auto} filter of a plain connector
     * @param deferSeconds the Linux {@code TCP_DEFER_ACCEPT} seconds
     * @return the outcome
     */
    synchronized AcceptFilterStatus install(NetworkChannel channel, String connector, AcceptFilterMode mode,
            boolean tls, AcceptFilter plainDefault, int deferSeconds) {
        try {
            return doInstall(channel, connector, mode, tls, plainDefault, deferSeconds);
        } catch (RuntimeException | LinkageError e) {
            // a broken native binding must not take the connector down unless acceptFilterFailOnError says so
            return AcceptFilterStatus.failure(Messages.get("installer.unexpected", connector, e.toString()));
        }
    }

    private AcceptFilterStatus doInstall(NetworkChannel channel, String connector, AcceptFilterMode mode,
            boolean tls, AcceptFilter plainDefault, int deferSeconds) {
        if (mode == AcceptFilterMode.NONE) {
            return new AcceptFilterStatus(false, "none", "", Messages.get("installer.none", connector), false);
        }
        if (os.kind() == OsFamily.Kind.NONE) {
            return AcceptFilterStatus.failure(Messages.get("installer.unsupportedOs", connector,
                    System.getProperty("os.name"), mode.attributeValue()));
        }
        if (sockets == null) {
            try {
                sockets = source.load();
            } catch (IOException e) {
                return AcceptFilterStatus.failure(Messages.get("installer.nativeUnavailable", connector,
                        e.getMessage()));
            }
        }
        if (!sockets.isAvailable()) {
            return AcceptFilterStatus.failure(Messages.get("installer.nativeUnavailable", connector,
                    sockets.unavailabilityCause()));
        }
        ListeningSocketLocator.Found found;
        try {
            found = new ListeningSocketLocator(sockets, os).locate(channel);
        } catch (IOException e) {
            return AcceptFilterStatus.failure(Messages.get("installer.socketNotFound", connector, e.getMessage(),
                    localAddress(channel)));
        }
        if (os.kind() == OsFamily.Kind.DEFER_ACCEPT) {
            return installDeferAccept(found, connector, mode, deferSeconds);
        }
        return installFilter(found, connector, mode.candidates(tls, plainDefault));
    }

    /** Linux: {@code setsockopt(fd, IPPROTO_TCP, TCP_DEFER_ACCEPT, seconds)} and read it back. */
    AcceptFilterStatus installDeferAccept(ListeningSocketLocator.Found found, String connector,
            AcceptFilterMode mode, int seconds) {
        int fd = found.fd();
        try {
            sockets.setsockoptInt(fd, os.deferAccept(), seconds);
            int kernel = sockets.getsockoptInt(fd, os.deferAccept());
            return new AcceptFilterStatus(kernel > 0, "TCP_DEFER_ACCEPT", String.valueOf(kernel),
                    Messages.get("installer.linux.active", connector, mode.attributeValue(),
                            String.valueOf(seconds), String.valueOf(kernel), describe(found)),
                    kernel <= 0);
        } catch (ErrnoException e) {
            return AcceptFilterStatus.failure(Messages.get("installer.linux.failed", connector,
                    os.errnoName(e.errno()), e.call()));
        }
    }

    /**
     * FreeBSD/NetBSD: read the installed filter; equal: keep it; different: remove it ({@code NULL, 0}) and set the
     * wanted one (a kernel refuses to replace a filter: {@code EINVAL} on older, {@code EBUSY} on newer kernels);
     * {@code ENOENT} (module not loaded) moves on to the next candidate, if any.
     */
    AcceptFilterStatus installFilter(ListeningSocketLocator.Found found, String connector,
            List<AcceptFilter> candidates) {
        int fd = found.fd();
        AcceptFilter current = currentFilter(fd);
        boolean removed = false;
        for (int i = 0; i < candidates.size(); i++) {
            AcceptFilter wanted = candidates.get(i);
            if (wanted.equals(current)) {
                return new AcceptFilterStatus(true, wanted.name(), current.toString(),
                        Messages.get("installer.bsd.alreadyInstalled", connector, wanted, describe(found)), false);
            }
            try {
                if (current != null && !removed) {
                    sockets.setsockopt(fd, os.acceptFilter(), null);
                    removed = true;
                }
                sockets.setsockopt(fd, os.acceptFilter(), wanted.toStruct());
            } catch (ErrnoException e) {
                if (e.errno() == OsFamily.ENOENT && i + 1 < candidates.size()) {
                    continue; // auto on TLS: tlsready not in this kernel, try dataready
                }
                return AcceptFilterStatus.failure(failureMessage(e, connector, wanted, current, removed));
            }
            AcceptFilter readBack = currentFilter(fd);
            String kernel = readBack == null ? "" : readBack.toString();
            return new AcceptFilterStatus(wanted.equals(readBack), wanted.name(), kernel,
                    Messages.get("installer.bsd.active", connector, wanted, kernel, describe(found)),
                    !wanted.equals(readBack));
        }
        return AcceptFilterStatus.failure(Messages.get("installer.bsd.noCandidate", connector));
    }

    private String failureMessage(ErrnoException e, String connector, AcceptFilter wanted, AcceptFilter current,
            boolean removed) {
        String installed = current == null ? Messages.get("installer.bsd.installedNone") : current.toString();
        if (!removed && current != null) {
            return Messages.get("installer.bsd.removeFailed", connector, installed, os.errnoName(e.errno()));
        }
        int errno = e.errno();
        if (errno == OsFamily.ENOENT && wanted.kernelModule() != null) {
            if (os == OsFamily.NETBSD) {
                return Messages.get("installer.bsd.enoent.netbsd", connector, wanted, wanted.kernelModule());
            }
            return Messages.get("installer.bsd.enoent.freebsd", connector, wanted, wanted.kernelModule());
        } else if (errno == OsFamily.ENOENT) {
            return Messages.get("installer.bsd.enoent.unknown", connector, wanted);
        } else if (errno == OsFamily.EINVAL) {
            return Messages.get("installer.bsd.einval", connector, wanted, installed);
        } else if (errno == OsFamily.EBUSY) {
            return Messages.get("installer.bsd.ebusy", connector, wanted, installed);
        } else if (errno == os.enoprotoopt()) {
            return Messages.get("installer.bsd.enoprotoopt", connector, wanted, System.getProperty("os.name"));
        }
        return Messages.get("installer.bsd.failed", connector, wanted, os.errnoName(errno));
    }

    /** @return the installed filter, or {@code null} for none ({@code getsockopt} answers {@code EINVAL}) */
    private AcceptFilter currentFilter(int fd) {
        try {
            return AcceptFilter.fromStruct(sockets.getsockopt(fd, os.acceptFilter(), AcceptFilter.STRUCT_SIZE));
        } catch (ErrnoException | IllegalArgumentException e) {
            return null;
        }
    }

    private static String describe(ListeningSocketLocator.Found found) {
        return Messages.get("installer.descriptor", String.valueOf(found.fd()),
                Messages.get(found.how() == ListeningSocketLocator.Via.JDK_INTERNALS ? "installer.via.jdkInternals"
                        : "installer.via.descriptorScan"));
    }

    private static String localAddress(NetworkChannel channel) {
        try {
            return String.valueOf((InetSocketAddress) channel.getLocalAddress());
        } catch (IOException | ClassCastException e) {
            return "?";
        }
    }
}
