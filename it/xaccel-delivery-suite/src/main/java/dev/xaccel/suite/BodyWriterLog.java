package dev.xaccel.suite;

import java.util.List;
import java.util.logging.Level;
import java.util.logging.Logger;

import dev.xaccel.testsupport.LogCapture;

/**
 * The filter's FINE lines {@code body via <name>: ...} (one per directly sent single range), captured from
 * {@link #start()} to {@link #close()}, which puts the logger's level back: which body writer sent each body.
 */
public final class BodyWriterLog implements AutoCloseable {

    private static final String CHOICE_LOGGER = "dev.xaccel.filter.internal.body.BodyWriterChoice";
    private static final String PREFIX = "body via ";

    private final Logger logger = Logger.getLogger(CHOICE_LOGGER);
    private final Level level;
    private final LogCapture log;

    private BodyWriterLog() {
        level = logger.getLevel();
        logger.setLevel(Level.FINE);
        log = LogCapture.exclusive(CHOICE_LOGGER);
    }

    /** Captures from now on. */
    public static BodyWriterLog start() {
        return new BodyWriterLog();
    }

    /** The writers logged so far, in order. */
    public List<String> writers() {
        return log.records().stream().map(LogCapture::message).filter(m -> m.startsWith(PREFIX))
                .map(m -> m.substring(PREFIX.length(), m.indexOf(':'))).toList();
    }

    /** The capture itself, for other lines of the same logger. */
    public LogCapture capture() {
        return log;
    }

    @Override
    public void close() {
        log.close();
        logger.setLevel(level);
    }
}
