package dev.xaccel.bench.run;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalTime;
import java.time.format.DateTimeFormatter;
import java.util.List;

/** The driver's progress lines on stderr: {@code [bench HH:MM:SS] message}. */
public final class Log {

    private static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("HH:mm:ss");

    private Log() {
    }

    public static void info(String message) {
        System.err.printf("[bench %s] %s%n", LocalTime.now().format(TIME), message);
    }

    public static void failed(String message) {
        System.err.printf("[bench] FAILED: %s%n", message);
    }

    /** The last {@code lines} lines of a log file on stderr, as context for a failure. */
    public static void tail(Path file, int lines) {
        try {
            List<String> all = Files.readAllLines(file, StandardCharsets.UTF_8);
            raw(String.join("\n", all.subList(Math.max(0, all.size() - lines), all.size())));
        } catch (IOException | UncheckedIOException e) {
            System.err.println("(no log " + file + ")");
        }
    }

    /** Raw text (a tool's output) on stderr, as context for a failure. */
    public static void raw(String text) {
        if (!text.isEmpty()) {
            System.err.println(text.stripTrailing());
        }
    }
}
