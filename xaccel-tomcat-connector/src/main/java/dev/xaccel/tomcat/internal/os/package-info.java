/**
 * Internal, not API: may change in any release without notice. The connector's operating system layer: the socket
 * system calls it makes, as plain Java.
 * <ul>
 * <li>{@link dev.xaccel.tomcat.internal.os.NativeSockets}: {@code setsockopt}, {@code getsockopt},
 * {@code getsockname}, {@code getdtablesize} with Java types only.
 * {@link dev.xaccel.tomcat.internal.os.NativeSocketsLoader} loads the JNA implementation, the one class that touches
 * JNA, or a no-op fallback when JNA cannot be loaded.</li>
 * <li>{@link dev.xaccel.tomcat.internal.os.OsFamily}: the operating systems told apart, with their constants and
 * {@link dev.xaccel.tomcat.internal.os.SocketOption} values (level and option number).</li>
 * <li>{@link dev.xaccel.tomcat.internal.os.ListeningSocketLocator}: finds the descriptor of a listening channel
 * without JVM flags; {@link dev.xaccel.tomcat.internal.os.Sockaddr} decodes the {@code getsockname()} bytes.</li>
 * <li>{@link dev.xaccel.tomcat.internal.os.ErrnoException}: a failed call with its {@code errno}.</li>
 * </ul>
 * Nothing here depends on the API package {@code dev.xaccel.tomcat}.
 */
package dev.xaccel.tomcat.internal.os;
