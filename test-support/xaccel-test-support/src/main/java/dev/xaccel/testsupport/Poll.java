package dev.xaccel.testsupport;

import java.time.Duration;
import java.util.Optional;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

/** Waiting for something another process does (a port, a log line, an exit) by asking again and again. */
public final class Poll {

    /** How long between two questions unless told otherwise. */
    public static final Duration INTERVAL = Duration.ofMillis(20);

    private Poll() {
    }

    /** Asks until {@code condition} holds or {@code timeout} has passed; whether it held (asked once more at last). */
    public static boolean until(Duration timeout, BooleanSupplier condition) {
        return until(timeout, INTERVAL, condition);
    }

    /** {@link #until(Duration, BooleanSupplier)} asking every {@code interval}; false when interrupted. */
    public static boolean until(Duration timeout, Duration interval, BooleanSupplier condition) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (System.nanoTime() < deadline) {
            if (condition.getAsBoolean()) {
                return true;
            }
            if (!sleep(interval)) {
                return false;
            }
        }
        return condition.getAsBoolean();
    }

    /** The first non-empty answer of {@code value} within {@code timeout}. */
    public static <T> Optional<T> first(Duration timeout, Supplier<Optional<T>> value) {
        @SuppressWarnings({"unchecked", "rawtypes"})
        Optional<T>[] found = new Optional[] {Optional.empty()};
        until(timeout, () -> (found[0] = value.get()).isPresent());
        return found[0];
    }

    /** Sleeps; false (and the thread's interrupt flag set again) when interrupted. */
    public static boolean sleep(Duration d) {
        try {
            Thread.sleep(d.toMillis());
            return true;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }
}
