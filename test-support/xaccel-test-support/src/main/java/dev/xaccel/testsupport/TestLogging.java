package dev.xaccel.testsupport;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.logging.ConsoleHandler;
import java.util.logging.FileHandler;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.Logger;
import java.util.logging.SimpleFormatter;

/**
 * Sends java.util.logging of a test JVM (an embedded container's and the code under test's) to
 * {@code target/it-logs/jul.log} instead of the console, so that passing runs stay quiet. Installed once per JVM.
 */
public final class TestLogging {

    private static Path file;
    /** Strong reference: a logger's level is lost when the logger is collected. */
    private static Logger parserLogger;

    private TestLogging() {
    }

    /** Installs the file handler (once) and returns the log file. */
    public static synchronized Path install() {
        if (file != null) {
            return file;
        }
        try {
            Path dir = Files.createDirectories(TestPaths.target().resolve("it-logs"));
            Path log = dir.resolve("jul.log");
            FileHandler handler = new FileHandler(log.toString(), false);
            handler.setFormatter(new SimpleFormatter());
            handler.setEncoding("UTF-8");
            Logger root = Logger.getLogger("");
            for (Handler h : root.getHandlers()) {
                if (h instanceof ConsoleHandler) {
                    root.removeHandler(h);
                }
            }
            root.addHandler(handler);
            // Corpora of malformed requests make Tomcat's parser log a stack trace per refusal: warnings only.
            parserLogger = Logger.getLogger("org.apache.coyote.http11.Http11Processor");
            parserLogger.setLevel(Level.WARNING);
            file = log;
            return file;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The log file, or null before {@link #install()}. */
    public static synchronized Path logFile() {
        return file;
    }
}
