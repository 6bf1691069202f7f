package dev.xaccel.bench.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;

/** Issue 34: no benchmark class exceeds 400 lines (BenchOptions, 450, was split into the option classes). */
class SourceLengthTest {

    static final int MAX_LINES = 400;

    @Test
    void noBenchmarkSourceFileExceedsFourHundredLines() throws Exception {
        Path main = Path.of("src/main/java");
        assertTrue(Files.isDirectory(main), "run from the benchmarks module: " + main.toAbsolutePath());
        List<String> tooLong;
        try (Stream<Path> files = Files.walk(main)) {
            tooLong = files.filter(f -> f.toString().endsWith(".java")).filter(f -> lines(f) > MAX_LINES)
                    .map(f -> main.relativize(f) + " (" + lines(f) + " lines)").toList();
        }
        assertEquals(List.of(), tooLong);
    }

    private static long lines(Path f) {
        try (Stream<String> l = Files.lines(f)) {
            return l.count();
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }
}
