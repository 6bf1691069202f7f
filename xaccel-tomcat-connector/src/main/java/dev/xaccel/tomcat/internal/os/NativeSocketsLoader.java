package dev.xaccel.tomcat.internal.os;

import java.io.IOException;

/** Loads the JNA implementation of {@link NativeSockets} without letting a missing JNA break class loading. */
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
            throw new IOException(e.getClass().getSimpleName() + ": " + e.getMessage(), e);
        }
    }
}
