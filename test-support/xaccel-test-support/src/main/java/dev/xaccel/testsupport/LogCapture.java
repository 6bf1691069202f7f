package dev.xaccel.testsupport;

import java.text.MessageFormat;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;

/**
 * Collects the java.util.logging records of one logger (and the loggers below it) while open. Either
 * {@linkplain #of(String) alongside} the logger's other handlers, or {@linkplain #exclusive(String) instead of}
 * its parents' (the records then stay off the console). A message is compared as it would be printed: with its
 * parameters formatted in when it has any.
 */
public final class LogCapture extends Handler implements AutoCloseable {

    private final Logger logger;
    private final boolean exclusive;
    private final boolean parentHandlers;
    private final List<LogRecord> records = new CopyOnWriteArrayList<>();

    private LogCapture(String loggerName, boolean exclusive) {
        this.logger = Logger.getLogger(loggerName);
        this.exclusive = exclusive;
        this.parentHandlers = logger.getUseParentHandlers();
        setLevel(Level.ALL);
        if (exclusive) {
            logger.setUseParentHandlers(false);
        }
        logger.addHandler(this);
    }

    /** Captures {@code loggerName}'s records; they still reach the other handlers. {@code ""} is the root logger. */
    public static LogCapture of(String loggerName) {
        return new LogCapture(loggerName, false);
    }

    /** Captures {@code loggerName}'s records and keeps them from its parents' handlers (the console) until closed. */
    public static LogCapture exclusive(String loggerName) {
        return new LogCapture(loggerName, true);
    }

    /** The records so far, in order. */
    public List<LogRecord> records() {
        return Collections.unmodifiableList(records);
    }

    /** How many records of exactly {@code level} have a message containing {@code fragment}. */
    public long count(Level level, String fragment) {
        return records.stream().filter(r -> r.getLevel().equals(level) && message(r).contains(fragment)).count();
    }

    /** {@code "LEVEL message"} of every record at {@code atLeast} or above. */
    public List<String> messages(Level atLeast) {
        List<String> out = new ArrayList<>();
        for (LogRecord r : records) {
            if (r.getLevel().intValue() >= atLeast.intValue()) {
                out.add(r.getLevel() + " " + message(r));
            }
        }
        return out;
    }

    /** Whether a record's message contains {@code fragment}. */
    public boolean contains(String fragment) {
        return records.stream().anyMatch(r -> message(r).contains(fragment));
    }

    /** Whether a message in a record's exception chain contains {@code fragment}. */
    public boolean containsThrown(String fragment) {
        for (LogRecord r : records) {
            for (Throwable t = r.getThrown(); t != null; t = t.getCause()) {
                if (t.getMessage() != null && t.getMessage().contains(fragment)) {
                    return true;
                }
            }
        }
        return false;
    }

    /** The message as printed: parameters formatted in (when there are any). */
    public static String message(LogRecord r) {
        String m = r.getMessage();
        if (m == null) {
            return "";
        }
        Object[] parameters = r.getParameters();
        return parameters == null || parameters.length == 0 ? m : MessageFormat.format(m, parameters);
    }

    @Override
    public void publish(LogRecord record) {
        if (record != null) {
            records.add(record);
        }
    }

    @Override
    public void flush() {
    }

    @Override
    public void close() {
        logger.removeHandler(this);
        if (exclusive) {
            logger.setUseParentHandlers(parentHandlers);
        }
    }
}
