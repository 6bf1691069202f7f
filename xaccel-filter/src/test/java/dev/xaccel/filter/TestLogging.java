package dev.xaccel.filter;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.logging.ConsoleHandler;
import java.util.logging.FileHandler;
import java.util.logging.Handler;
import java.util.logging.Logger;
import java.util.logging.SimpleFormatter;

/**
 * Sends java.util.logging (Tomcat's and the filter's) of the integration tests to
 * {@code target/it-logs/jul.log} instead of the console, so passing runs stay quiet.
 */
final class TestLogging {

    private static Path file;
    /** Strong reference: a logger's level is lost when the logger is collected. */
    private static Logger parserLogger;

    private TestLogging() {
    }

    static synchronized void install() {
        if (file != null) {
            return;
        }
        try {
            Path dir = Files.createDirectories(TestPaths.target().resolve("it-logs"));
            file = dir.resolve("jul.log");
            FileHandler handler = new FileHandler(file.toString(), false);
            handler.setFormatter(new SimpleFormatter());
            handler.setEncoding("UTF-8");
            Logger root = Logger.getLogger("");
            for (Handler h : root.getHandlers()) {
                if (h instanceof ConsoleHandler) {
                    root.removeHandler(h);
                }
            }
            root.addHandler(handler);
            // The traversal corpus is full of request lines Tomcat refuses: no stack trace per refusal.
            parserLogger = Logger.getLogger("org.apache.coyote.http11.Http11Processor");
            parserLogger.setLevel(java.util.logging.Level.WARNING);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static synchronized Path logFile() {
        return file;
    }
}
