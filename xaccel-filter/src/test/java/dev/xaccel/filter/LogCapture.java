package dev.xaccel.filter;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;

/** Captures the filter's JUL records (and keeps them off the console) while open. */
final class LogCapture extends Handler implements AutoCloseable {

    private final Logger logger = Logger.getLogger(XAccelFilter.class.getPackageName()); // every class logs below it
    private final boolean parentHandlers;
    final List<LogRecord> records = new CopyOnWriteArrayList<>();

    LogCapture() {
        parentHandlers = logger.getUseParentHandlers();
        logger.setUseParentHandlers(false);
        logger.addHandler(this);
        setLevel(Level.ALL);
    }

    long count(Level level, String contains) {
        return records.stream().filter(r -> r.getLevel().equals(level) && r.getMessage().contains(contains))
                .count();
    }

    @Override
    public void publish(LogRecord record) {
        records.add(record);
    }

    @Override
    public void flush() {
    }

    @Override
    public void close() {
        logger.removeHandler(this);
        logger.setUseParentHandlers(parentHandlers);
    }
}
