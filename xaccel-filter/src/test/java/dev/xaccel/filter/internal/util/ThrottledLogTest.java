package dev.xaccel.filter.internal.util;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.atomic.AtomicLong;
import java.util.logging.Level;
import java.util.logging.Logger;

import dev.xaccel.filter.XAccelFilter;
import dev.xaccel.testsupport.LogCapture;

import org.junit.jupiter.api.Test;

class ThrottledLogTest {

    @Test
    void firstThenOncePerIntervalWithSuppressedCountOthersAtFine() {
        Logger logger = Logger.getLogger(XAccelFilter.class.getName());
        Level before = logger.getLevel();
        AtomicLong clock = new AtomicLong(-5); // nanoTime may be negative
        ThrottledLog throttled = new ThrottledLog(logger, Level.SEVERE, clock::get);
        try (LogCapture log = LogCapture.exclusive(XAccelFilter.class.getPackageName())) {
            logger.setLevel(Level.FINE);
            throttled.log(() -> "event a");
            clock.addAndGet(ThrottledLog.INTERVAL_NANOS - 1);
            throttled.log(() -> "event b");
            throttled.log(() -> "event c");
            clock.addAndGet(1);
            throttled.log(() -> "event d");
            clock.addAndGet(ThrottledLog.INTERVAL_NANOS);
            throttled.log(() -> "event e");

            assertEquals(1, log.count(Level.SEVERE, "event a"));
            assertEquals(1, log.count(Level.FINE, "event b"));
            assertEquals(1, log.count(Level.FINE, "event c"));
            assertEquals(1, log.count(Level.SEVERE, "event d"));
            assertTrue(log.records().get(3).getMessage().contains("(2 more"), log.records().get(3).getMessage());
            assertEquals(1, log.count(Level.SEVERE, "event e"));
            assertEquals(-1, log.records().get(4).getMessage().indexOf("more"));
            assertEquals(5, log.records().size());
        } finally {
            logger.setLevel(before);
        }
    }
}
