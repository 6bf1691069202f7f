package dev.xaccel.tomcat.internal.os;

import java.io.IOException;

/**
 * Loads the JNA implementation of {@link NativeSockets} without letting a missing JNA break class loading, or hands
 * out the no-op fallback.
 */
public final class NativeSocketsLoader {

    private NativeSocketsLoader() {
    }

    /**
     * Loads libc through JNA. JNA classes are only touched inside this call, so a Tomcat without {@code jna.jar} in
     * {@code lib/} gets an {@link IOException} here instead of a {@link NoClassDefFoundError} elsewhere.
     *
     * @return the native socket calls
     * @throws IOException if JNA or its native library cannot be loaded (the message says why)
     */
    public static NativeSockets load() throws IOException {
        try {
            return new JnaNativeSockets();
        } catch (LinkageError | RuntimeException e) {
            // NoClassDefFoundError: jna.jar missing; UnsatisfiedLinkError: no libjnidispatch for this platform
            throw new IOException(Messages.get("loader.failed", e.getClass().getSimpleName(), e.getMessage()), e);
        }
    }

    /**
     * {@link #load()}, or the no-op fallback when JNA cannot be loaded: its {@link NativeSockets#isAvailable()} is
     * false and {@link NativeSockets#unavailabilityCause()} says why.
     *
     * @return the native socket calls, or the fallback
     */
    public static NativeSockets loadOrNoop() {
        try {
            return load();
        } catch (IOException e) {
            return new NoopNativeSockets(e.getMessage());
        }
    }
}
