package dev.xaccel.tomcat.internal.os;

/**
 * The few socket system calls the connector needs, as plain Java types. The production implementation uses JNA
 * (see {@link NativeSocketsLoader}); tests use a fake that records the exact bytes passed and simulates errno
 * values. Nothing outside this package sees a JNA type.
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
}
