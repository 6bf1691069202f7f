package dev.xaccel.bench;

/** A command line that {@link BenchOptions} cannot accept; the message names the option and the value. */
final class UsageException extends Exception {

    private static final long serialVersionUID = 1L;

    UsageException(String message) {
        super(message);
    }
}
