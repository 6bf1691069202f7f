package dev.xaccel.bench;

/**
 * A benchmark run that must stop, loudly: a setup that does not start or answers wrongly, a tool that fails.
 * {@link BenchDriver} prints the message as {@code [bench] FAILED: ...} and exits with 1.
 */
final class BenchFailure extends RuntimeException {

    private static final long serialVersionUID = 1L;

    BenchFailure(String message) {
        super(message);
    }

    BenchFailure(String message, Throwable cause) {
        super(message, cause);
    }
}
