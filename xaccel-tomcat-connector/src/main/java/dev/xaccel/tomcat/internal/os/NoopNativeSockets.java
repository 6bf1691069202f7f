package dev.xaccel.tomcat.internal.os;

/**
 * The fallback when the native layer cannot be loaded (no {@code jna.jar}, no JNA native library for the platform):
 * every call does nothing and reports nothing ({@code getsockopt} reads 0 or no bytes, {@code getsockname} no
 * address, the descriptor table is empty), and {@link #isAvailable()} is false with the reason in
 * {@link #unavailabilityCause()}. Callers check {@link #isAvailable()} first and say why nothing was applied.
 */
final class NoopNativeSockets implements NativeSockets {

    private final String cause;

    /** @param cause why the native layer is not available, for the log */
    NoopNativeSockets(String cause) {
        this.cause = cause;
    }

    @Override
    public void setsockopt(int fd, int level, int option, byte[] value) {
        // nothing to call
    }

    @Override
    public void setsockoptInt(int fd, int level, int option, int value) {
        // nothing to call
    }

    @Override
    public byte[] getsockopt(int fd, int level, int option, int length) {
        return new byte[0];
    }

    @Override
    public int getsockoptInt(int fd, int level, int option) {
        return 0;
    }

    @Override
    public byte[] getsockname(int fd) {
        return new byte[0];
    }

    @Override
    public int descriptorTableSize() {
        return 0;
    }

    @Override
    public boolean isAvailable() {
        return false;
    }

    @Override
    public String unavailabilityCause() {
        return cause;
    }
}
