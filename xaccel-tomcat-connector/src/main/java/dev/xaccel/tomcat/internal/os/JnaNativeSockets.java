package dev.xaccel.tomcat.internal.os;

import java.util.Arrays;

import com.sun.jna.LastErrorException;
import com.sun.jna.Library;
import com.sun.jna.Native;
import com.sun.jna.ptr.IntByReference;

/** {@link NativeSockets} through JNA's libc binding. The only class that touches JNA. */
final class JnaNativeSockets implements NativeSockets {

    /** The libc functions used, mapped by JNA. */
    interface LibC extends Library {
        int setsockopt(int fd, int level, int option, byte[] value, int length) throws LastErrorException;

        int setsockopt(int fd, int level, int option, int[] value, int length) throws LastErrorException;

        int getsockopt(int fd, int level, int option, byte[] value, IntByReference length)
                throws LastErrorException;

        int getsockopt(int fd, int level, int option, int[] value, IntByReference length) throws LastErrorException;

        int getsockname(int fd, byte[] address, IntByReference length) throws LastErrorException;

        int getdtablesize();
    }

    /** Large enough for {@code struct sockaddr_storage}. */
    private static final int SOCKADDR_STORAGE = 128;

    private final LibC libc;

    JnaNativeSockets() {
        this.libc = Native.load("c", LibC.class);
    }

    @Override
    public void setsockopt(int fd, int level, int option, byte[] value) throws ErrnoException {
        try {
            libc.setsockopt(fd, level, option, value, value == null ? 0 : value.length);
        } catch (LastErrorException e) {
            throw new ErrnoException("setsockopt", e.getErrorCode());
        }
    }

    @Override
    public void setsockoptInt(int fd, int level, int option, int value) throws ErrnoException {
        try {
            libc.setsockopt(fd, level, option, new int[] { value }, Integer.BYTES);
        } catch (LastErrorException e) {
            throw new ErrnoException("setsockopt", e.getErrorCode());
        }
    }

    @Override
    public byte[] getsockopt(int fd, int level, int option, int length) throws ErrnoException {
        byte[] buffer = new byte[length];
        IntByReference len = new IntByReference(length);
        try {
            libc.getsockopt(fd, level, option, buffer, len);
        } catch (LastErrorException e) {
            throw new ErrnoException("getsockopt", e.getErrorCode());
        }
        return Arrays.copyOf(buffer, Math.min(length, Math.max(0, len.getValue())));
    }

    @Override
    public int getsockoptInt(int fd, int level, int option) throws ErrnoException {
        int[] value = new int[1];
        try {
            libc.getsockopt(fd, level, option, value, new IntByReference(Integer.BYTES));
        } catch (LastErrorException e) {
            throw new ErrnoException("getsockopt", e.getErrorCode());
        }
        return value[0];
    }

    @Override
    public byte[] getsockname(int fd) throws ErrnoException {
        byte[] buffer = new byte[SOCKADDR_STORAGE];
        IntByReference len = new IntByReference(SOCKADDR_STORAGE);
        try {
            libc.getsockname(fd, buffer, len);
        } catch (LastErrorException e) {
            throw new ErrnoException("getsockname", e.getErrorCode());
        }
        return Arrays.copyOf(buffer, Math.min(SOCKADDR_STORAGE, Math.max(0, len.getValue())));
    }

    @Override
    public int descriptorTableSize() {
        return libc.getdtablesize();
    }
}
