package dev.xaccel.bench.run;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Locale;

/**
 * The raw measurements, one line each as they are taken: {@code workload setup round metric value},
 * tab-separated; measured values with six decimals, counts as integers. This file becomes {@code <date>.tsv}, and
 * the report reads it.
 */
public final class RawResults {

    private final Path file;

    public RawResults(Path file) {
        this.file = file;
        try {
            Files.writeString(file, "", StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public Path file() {
        return file;
    }

    public void value(String workload, String setup, int round, String metric, double value) {
        append(workload, setup, round, metric, format(value));
    }

    public void count(String workload, String setup, int round, String metric, long value) {
        append(workload, setup, round, metric, Long.toString(value));
    }

    /** Six decimals, as {@code awk 'printf "%.6f"'} wrote them. */
    static String format(double value) {
        return String.format(Locale.ROOT, "%.6f", value);
    }

    static String line(String workload, String setup, int round, String metric, String value) {
        return workload + '\t' + setup + '\t' + round + '\t' + metric + '\t' + value + '\n';
    }

    private void append(String workload, String setup, int round, String metric, String value) {
        try {
            Files.writeString(file, line(workload, setup, round, metric, value), StandardCharsets.UTF_8,
                    StandardOpenOption.APPEND);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
