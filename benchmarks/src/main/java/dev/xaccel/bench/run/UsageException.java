package dev.xaccel.bench.run;

/** A command line that {@link BenchOptions} cannot accept; the message names the option and the value. */
public final class UsageException extends Exception {

    private static final long serialVersionUID = 1L;

    public UsageException(String message) {
        super(message);
    }
}
