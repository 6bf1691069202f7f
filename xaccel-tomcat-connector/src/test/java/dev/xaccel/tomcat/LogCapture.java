package dev.xaccel.tomcat;

import java.util.ArrayList;
import java.util.List;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;

/** Collects the JUL records Tomcat's juli writes (embedded Tomcat logs through java.util.logging). */
final class LogCapture extends Handler implements AutoCloseable {

    private final List<LogRecord> records = new ArrayList<>();

    LogCapture() {
        setLevel(Level.ALL);
        Logger.getLogger("").addHandler(this);
    }

    @Override
    public synchronized void publish(LogRecord record) {
        records.add(record);
    }

    synchronized List<String> messages(Level atLeast) {
        List<String> out = new ArrayList<>();
        for (LogRecord r : records) {
            if (r.getLevel().intValue() >= atLeast.intValue()) {
                String m = r.getMessage();
                if (r.getParameters() != null) {
                    m = java.text.MessageFormat.format(m, r.getParameters());
                }
                out.add(r.getLevel() + " " + m);
            }
        }
        return out;
    }

    synchronized boolean contains(String fragment) {
        return messages(Level.ALL).stream().anyMatch(m -> m.contains(fragment));
    }

    /** @return whether a record's exception chain has a message containing {@code fragment} */
    synchronized boolean containsThrown(String fragment) {
        for (LogRecord r : records) {
            for (Throwable t = r.getThrown(); t != null; t = t.getCause()) {
                if (t.getMessage() != null && t.getMessage().contains(fragment)) {
                    return true;
                }
            }
        }
        return false;
    }

    @Override
    public void flush() {
    }

    @Override
    public void close() {
        Logger.getLogger("").removeHandler(this);
    }
}
