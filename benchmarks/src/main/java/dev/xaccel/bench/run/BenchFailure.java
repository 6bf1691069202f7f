package dev.xaccel.bench.run;

/**
 * A benchmark run that must stop, loudly: a setup that does not start or answers wrongly, a tool that fails.
 * BenchDriver prints the message as {@code [bench] FAILED: ...} and exits with 1.
 */
public final class BenchFailure extends RuntimeException {

    private static final long serialVersionUID = 1L;

    public BenchFailure(String message) {
        super(message);
    }

    public BenchFailure(String message, Throwable cause) {
        super(message, cause);
    }
}
