package dev.xaccel.testsupport.servlet;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.logging.Formatter;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import java.util.logging.SimpleFormatter;

import jakarta.servlet.ServletContextEvent;
import jakarta.servlet.ServletContextListener;

import dev.xaccel.testsupport.TestPaths;

/**
 * The log lines of one logger of the application in a server's JVM, for the tests in theirs: this listener (in a
 * {@link DeployedWar}'s web.xml) sets the logger of the context-param {@value #LOGGER} to FINE and appends each
 * message, one a line, to the file of {@value #FILE}; {@link #lines} reads them in the tests' JVM.
 */
public final class ServerLogLines implements ServletContextListener {

    /** Context-param: the logger's name. */
    static final String LOGGER = "xaccel.test.logger";
    /** Context-param: the file the lines go to. */
    static final String FILE = "xaccel.test.loggerFile";

    /** Strong reference: a logger's level is lost when the logger is collected. */
    private Logger logger;
    private Handler handler;

    /** The file of {@code logger}'s lines, under the tests' target/ (the same for every application). */
    public static Path file(String logger) {
        return TestPaths.target().resolve("server-logs").resolve(logger + ".log").toAbsolutePath();
    }

    /** The lines {@code logger} wrote in a server's JVM, from line {@code from} on (none when it wrote none). */
    public static List<String> lines(String logger, int from) {
        Path f = file(logger);
        try {
            List<String> all = Files.exists(f) ? Files.readAllLines(f, StandardCharsets.UTF_8) : List.of();
            return all.size() <= from ? List.of() : new ArrayList<>(all.subList(from, all.size()));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public void contextInitialized(ServletContextEvent event) {
        Path file = Path.of(event.getServletContext().getInitParameter(FILE));
        Formatter messages = new SimpleFormatter();
        handler = new Handler() {
            @Override
            public synchronized void publish(LogRecord r) {
                try {
                    Files.writeString(file, messages.formatMessage(r).replace('\n', ' ') + "\n",
                            StandardCharsets.UTF_8, StandardOpenOption.CREATE, StandardOpenOption.APPEND);
                } catch (IOException e) {
                    reportError("cannot append to " + file, e, 0);
                }
            }

            @Override
            public void flush() {
            }

            @Override
            public void close() {
            }
        };
        handler.setLevel(Level.ALL);
        logger = Logger.getLogger(event.getServletContext().getInitParameter(LOGGER));
        logger.setLevel(Level.FINE);
        logger.addHandler(handler);
    }

    @Override
    public void contextDestroyed(ServletContextEvent event) {
        logger.removeHandler(handler);
    }
}
