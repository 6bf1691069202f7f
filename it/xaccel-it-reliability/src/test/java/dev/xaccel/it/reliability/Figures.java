package dev.xaccel.it.reliability;

import dev.xaccel.testsupport.TestPaths;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * What a scenario measured, written to {@code target/reliability/<scenario>.tsv} ({@code key TAB value} lines, in
 * the order recorded) when it ends, pass or fail: benchmarks/run --reliability puts them into docs/reliability.md.
 * Also the one switch between the {@code mvn verify} sizes and the longer variants
 * ({@code -Dxaccel.reliability.long=true}).
 */
final class Figures {

    private final String scenario;
    private final Map<String, String> values = new LinkedHashMap<>();

    Figures(String scenario) {
        this.scenario = scenario;
    }

    /** Whether the longer variants run (benchmarks/run --reliability). */
    static boolean longRun() {
        return Boolean.getBoolean("xaccel.reliability.long");
    }

    /** {@code verify} in mvn verify, {@code longer} in the long run. */
    static int size(int verify, int longer) {
        return longRun() ? longer : verify;
    }

    Figures put(String key, Object value) {
        values.put(key, String.valueOf(value));
        return this;
    }

    /** Writes the file (also with what was recorded before a failure). */
    void write() {
        Path dir = TestPaths.target().resolve("reliability");
        StringBuilder sb = new StringBuilder();
        sb.append("scenario\t").append(scenario).append('\n');
        sb.append("variant\t").append(longRun() ? "long" : "verify").append('\n');
        values.forEach((k, v) -> sb.append(k).append('\t').append(v.replace('\t', ' ').replace('\n', ' '))
                .append('\n'));
        try {
            Files.createDirectories(dir);
            Files.writeString(dir.resolve(scenario + ".tsv"), sb.toString(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
