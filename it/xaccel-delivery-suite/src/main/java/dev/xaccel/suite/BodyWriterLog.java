package dev.xaccel.suite;

import java.util.List;
import java.util.logging.Level;
import java.util.logging.Logger;
import java.util.stream.Stream;

import dev.xaccel.testsupport.LogCapture;
import dev.xaccel.testsupport.servlet.DeployedWar;
import dev.xaccel.testsupport.servlet.ServerLogLines;

/**
 * The filter's FINE lines {@code body via <name>: ...} (one per directly sent single range), captured from
 * {@link #start()} to {@link #close()}, which puts the logger's level back: which body writer sent each body. A
 * server in another JVM writes them to a file ({@link ServerLogLines}); the lines it added since are read too.
 */
public final class BodyWriterLog implements AutoCloseable {

    private static final String CHOICE_LOGGER = "dev.xaccel.filter.internal.body.BodyWriterChoice";
    private static final String PREFIX = "body via ";

    private final Logger logger = Logger.getLogger(CHOICE_LOGGER);
    private final Level level;
    private final LogCapture log;
    private final int serverLines;

    private BodyWriterLog() {
        level = logger.getLevel();
        logger.setLevel(Level.FINE);
        log = LogCapture.exclusive(CHOICE_LOGGER);
        serverLines = ServerLogLines.lines(DeployedWar.FILTER_LOGGER, 0).size();
    }

    /** Captures from now on. */
    public static BodyWriterLog start() {
        return new BodyWriterLog();
    }

    /** The writers logged so far, in order. */
    public List<String> writers() {
        return messages().stream().filter(m -> m.startsWith(PREFIX))
                .map(m -> m.substring(PREFIX.length(), m.indexOf(':'))).toList();
    }

    /** The logger's messages so far, in this JVM and a server's. */
    public List<String> messages() {
        return Stream.concat(log.records().stream().map(LogCapture::message),
                ServerLogLines.lines(DeployedWar.FILTER_LOGGER, serverLines).stream()).toList();
    }

    /** Whether a message so far contains {@code text}. */
    public boolean contains(String text) {
        return messages().stream().anyMatch(m -> m.contains(text));
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
