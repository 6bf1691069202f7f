package dev.xaccel.filter.internal.util;

import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;
import java.util.function.Supplier;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Logs one kind of per-request event that clients may trigger at will: the first occurrence and then at most one
 * per interval at the given level (with the number suppressed since), all others at {@code FINE}. Thread-safe.
 */
public final class ThrottledLog {

    /** Interval between two records at the full level. */
    public static final long INTERVAL_NANOS = TimeUnit.MINUTES.toNanos(1);

    private final Logger logger;
    private final Level level;
    private final LongSupplier nanoClock;
    private boolean logged;
    private long lastLogged;
    private long suppressed;

    public ThrottledLog(Logger logger, Level level) {
        this(logger, level, System::nanoTime);
    }

    public ThrottledLog(Logger logger, Level level, LongSupplier nanoClock) {
        this.logger = logger;
        this.level = level;
        this.nanoClock = nanoClock;
    }

    public void log(Supplier<String> message) {
        long skipped;
        synchronized (this) {
            long now = nanoClock.getAsLong();
            if (logged && now - lastLogged < INTERVAL_NANOS) {
                suppressed++;
                skipped = -1;
            } else {
                logged = true;
                lastLogged = now;
                skipped = suppressed;
                suppressed = 0;
            }
        }
        if (skipped > 0) {
            logger.log(level, message.get() + " " + Messages.get("log.suppressed", skipped));
        } else if (skipped == 0) {
            logger.log(level, message.get());
        } else if (logger.isLoggable(Level.FINE)) {
            logger.fine(message.get());
        }
    }
}
