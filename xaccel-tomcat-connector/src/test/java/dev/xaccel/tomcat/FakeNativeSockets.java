package dev.xaccel.tomcat;

import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Supplier;

import dev.xaccel.tomcat.internal.os.ErrnoException;
import dev.xaccel.tomcat.internal.os.NativeSockets;
import dev.xaccel.tomcat.internal.os.OsFamily;

/**
 * A simulated FreeBSD/NetBSD kernel behind {@link NativeSockets}: one listening socket (descriptor
 * {@value #LISTENING_FD}), the accept filter modules that are "loaded", at most one installed filter, and the
 * errno answers of {@code sys/kern/uipc_accf.c}. Records every {@code SO_ACCEPTFILTER} call with its exact bytes.
 */
final class FakeNativeSockets implements NativeSockets {

    static final int LISTENING_FD = 5;
    static final int TABLE_SIZE = 12;

    /** How the kernel answers an attempt to install a filter over another one. */
    enum Generation {
        /** Older kernels: {@code EINVAL}. */
        OLD_EINVAL,
        /** Newer kernels: {@code EBUSY}. */
        NEW_EBUSY
    }

    /**
     * A recorded {@code SO_ACCEPTFILTER} call.
     *
     * @param call   {@code setsockopt} or {@code getsockopt}
     * @param fd     descriptor
     * @param level  level
     * @param option option
     * @param value  exact bytes passed ({@code null} for {@code NULL, 0}; for getsockopt the buffer size only)
     * @param length the length passed
     */
    record Call(String call, int fd, int level, int option, byte[] value, int length) {
        @Override
        public String toString() {
            String what = value == null ? "NULL" : AcceptFilter.fromStruct(value) + "";
            return call + "(" + fd + ", 0x" + Integer.toHexString(level) + ", 0x" + Integer.toHexString(option) + ", "
                    + (call.equals("getsockopt") ? "buf" : what) + ", " + length + ")";
        }
    }

    final List<Call> calls = new ArrayList<>();
    final Set<String> loaded = new HashSet<>();
    private final OsFamily os;
    private final Generation generation;
    private final Supplier<InetSocketAddress> listeningAddress;
    AcceptFilter installed;
    boolean listening = true;
    Integer injectedSetErrno;

    FakeNativeSockets(OsFamily os, Generation generation, Supplier<InetSocketAddress> listeningAddress,
            String... loadedFilters) {
        this.os = os;
        this.generation = generation;
        this.listeningAddress = listeningAddress;
        this.loaded.addAll(List.of(loadedFilters));
    }

    List<String> callNames() {
        List<String> names = new ArrayList<>();
        for (Call c : calls) {
            names.add(c.toString());
        }
        return names;
    }

    @Override
    public void setsockopt(int fd, int level, int option, byte[] value) throws ErrnoException {
        calls.add(new Call("setsockopt", fd, level, option, value == null ? null : value.clone(),
                value == null ? 0 : value.length));
        checkFd(fd, "setsockopt");
        if (level != os.solSocket() || option != OsFamily.SO_ACCEPTFILTER) {
            throw new ErrnoException("setsockopt", os.enoprotoopt());
        }
        if (!listening) {
            throw new ErrnoException("setsockopt", OsFamily.EINVAL);
        }
        if (value == null) {
            installed = null; // removal succeeds even when there is none
            return;
        }
        if (injectedSetErrno != null) {
            int errno = injectedSetErrno;
            injectedSetErrno = null;
            throw new ErrnoException("setsockopt", errno);
        }
        if (value.length != AcceptFilter.STRUCT_SIZE) {
            throw new ErrnoException("setsockopt", OsFamily.EINVAL);
        }
        if (installed != null) {
            throw new ErrnoException("setsockopt",
                    generation == Generation.OLD_EINVAL ? OsFamily.EINVAL : OsFamily.EBUSY);
        }
        byte[] copy = value.clone();
        copy[AcceptFilter.NAME_SIZE - 1] = 0; // the kernel forces the fields' last bytes to NUL
        copy[AcceptFilter.STRUCT_SIZE - 1] = 0;
        AcceptFilter wanted = AcceptFilter.fromStruct(copy);
        if (wanted == null || !loaded.contains(wanted.name())) {
            throw new ErrnoException("setsockopt", OsFamily.ENOENT);
        }
        installed = wanted;
    }

    @Override
    public void setsockoptInt(int fd, int level, int option, int value) throws ErrnoException {
        setsockopt(fd, level, option, ByteBuffer.allocate(4).putInt(value).array());
    }

    @Override
    public byte[] getsockopt(int fd, int level, int option, int length) throws ErrnoException {
        calls.add(new Call("getsockopt", fd, level, option, null, length));
        checkFd(fd, "getsockopt");
        if (level != os.solSocket() || option != OsFamily.SO_ACCEPTFILTER) {
            throw new ErrnoException("getsockopt", os.enoprotoopt());
        }
        if (!listening || installed == null) {
            throw new ErrnoException("getsockopt", OsFamily.EINVAL);
        }
        return installed.toStruct();
    }

    @Override
    public int getsockoptInt(int fd, int level, int option) throws ErrnoException {
        checkFd(fd, "getsockopt");
        if (level == os.solSocket() && option == os.soAcceptConn()) {
            return fd == LISTENING_FD && listening ? 1 : 0;
        }
        throw new ErrnoException("getsockopt", os.enoprotoopt());
    }

    @Override
    public byte[] getsockname(int fd) throws ErrnoException {
        checkFd(fd, "getsockname");
        if (fd != LISTENING_FD) {
            return bsdSockaddrIn6(os, new InetSocketAddress("127.0.0.1", 1)); // some client socket
        }
        return bsdSockaddrIn6(os, listeningAddress.get());
    }

    @Override
    public int descriptorTableSize() {
        return TABLE_SIZE;
    }

    private static void checkFd(int fd, String call) throws ErrnoException {
        if (fd < 3 || fd >= TABLE_SIZE || fd % 2 == 0 && fd != LISTENING_FD + 1) {
            throw new ErrnoException(call, OsFamily.EBADF);
        }
    }

    /**
     * @return a BSD {@code sockaddr_in6} ({@code u8 len, u8 family, port, flowinfo, addr[16], scope}) with the IPv4
     *         address mapped as a Java dual-stack socket shows it
     */
    static byte[] bsdSockaddrIn6(OsFamily os, InetSocketAddress address) {
        ByteBuffer b = ByteBuffer.allocate(28);
        b.put((byte) 28).put((byte) os.afInet6()).putShort((short) address.getPort()).putInt(0);
        byte[] a = address.getAddress().getAddress();
        if (a.length == 4) {
            b.put(new byte[10]).put((byte) 0xff).put((byte) 0xff).put(a);
        } else {
            b.put(a);
        }
        return b.putInt(0).array();
    }
}
