package dev.xaccel.bench.run;

import java.time.Duration;

/** Sleeping that turns an interrupt into a {@link BenchFailure} (the run is being stopped). */
public final class Sleep {

    private Sleep() {
    }

    public static void millis(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new BenchFailure("interrupted");
        }
    }

    public static void of(Duration d) {
        millis(d.toMillis());
    }
}
