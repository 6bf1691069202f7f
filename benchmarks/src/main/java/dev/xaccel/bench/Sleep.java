package dev.xaccel.bench;

import java.time.Duration;

/** Sleeping that turns an interrupt into a {@link BenchFailure} (the run is being stopped). */
final class Sleep {

    private Sleep() {
    }

    static void millis(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new BenchFailure("interrupted");
        }
    }

    static void of(Duration d) {
        millis(d.toMillis());
    }
}
