package dev.xaccel.tomcat.internal.os;

/**
 * The few socket system calls the connector needs, as plain Java types. The production implementation uses JNA
 * (package-private, loaded by {@link NativeSocketsLoader}); when JNA cannot be loaded, the loader hands out a no-op
 * fallback whose {@link #isAvailable()} is false; tests use a fake that records the exact bytes passed and
 * simulates errno values. Nothing outside this package sees a JNA type.
 */
public interface NativeSockets {

    /**
     * {@code setsockopt(fd, level, option, value, value.length)}; a {@code null} value passes {@code NULL, 0}.
     *
     * @param fd     the socket
     * @param level  the option level
     * @param option the option
     * @param value  the bytes of the option value, or {@code null}
     * @throws ErrnoException if the call fails
     */
    void setsockopt(int fd, int level, int option, byte[] value) throws ErrnoException;

    /**
     * {@code setsockopt(fd, level, option, &(int) value, sizeof(int))}.
     *
     * @param fd     the socket
     * @param level  the option level
     * @param option the option
     * @param value  the value
     * @throws ErrnoException if the call fails
     */
    void setsockoptInt(int fd, int level, int option, int value) throws ErrnoException;

    /**
     * {@code getsockopt(fd, level, option, buf, &len)} with a buffer of {@code length} bytes.
     *
     * @param fd     the socket
     * @param level  the option level
     * @param option the option
     * @param length the buffer size
     * @return the bytes the kernel wrote (as many as it reported)
     * @throws ErrnoException if the call fails
     */
    byte[] getsockopt(int fd, int level, int option, int length) throws ErrnoException;

    /**
     * {@code getsockopt} of an {@code int} option.
     *
     * @param fd     the socket
     * @param level  the option level
     * @param option the option
     * @return the value
     * @throws ErrnoException if the call fails
     */
    int getsockoptInt(int fd, int level, int option) throws ErrnoException;

    /**
     * {@code getsockname(fd, buf, &len)}.
     *
     * @param fd the socket
     * @return the raw {@code struct sockaddr} bytes
     * @throws ErrnoException if the call fails
     */
    byte[] getsockname(int fd) throws ErrnoException;

    /** @return the size of the descriptor table ({@code getdtablesize()}), the bound of a descriptor scan */
    int descriptorTableSize();

    /**
     * {@link #setsockopt(int, int, int, byte[])} of an option value type.
     *
     * @param fd     the socket
     * @param option the option (level and number)
     * @param value  the bytes of the option value, or {@code null} for {@code NULL, 0}
     * @throws ErrnoException if the call fails
     */
    default void setsockopt(int fd, SocketOption option, byte[] value) throws ErrnoException {
        setsockopt(fd, option.level(), option.option(), value);
    }

    /**
     * {@link #setsockoptInt(int, int, int, int)} of an option value type.
     *
     * @param fd     the socket
     * @param option the option (level and number)
     * @param value  the value
     * @throws ErrnoException if the call fails
     */
    default void setsockoptInt(int fd, SocketOption option, int value) throws ErrnoException {
        setsockoptInt(fd, option.level(), option.option(), value);
    }

    /**
     * {@link #getsockopt(int, int, int, int)} of an option value type.
     *
     * @param fd     the socket
     * @param option the option (level and number)
     * @param length the buffer size
     * @return the bytes the kernel wrote (as many as it reported)
     * @throws ErrnoException if the call fails
     */
    default byte[] getsockopt(int fd, SocketOption option, int length) throws ErrnoException {
        return getsockopt(fd, option.level(), option.option(), length);
    }

    /**
     * {@link #getsockoptInt(int, int, int)} of an option value type.
     *
     * @param fd     the socket
     * @param option the option (level and number)
     * @return the value
     * @throws ErrnoException if the call fails
     */
    default int getsockoptInt(int fd, SocketOption option) throws ErrnoException {
        return getsockoptInt(fd, option.level(), option.option());
    }

    /** @return whether the calls reach the kernel: false for the fallback used when JNA cannot be loaded */
    default boolean isAvailable() {
        return true;
    }

    /** @return why the calls do not reach the kernel, or {@code null} when they do */
    default String unavailabilityCause() {
        return null;
    }
}
