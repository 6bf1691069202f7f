package dev.xaccel.bench.report;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The run's facts for the report (machine, parameters, labels of workloads, notes): {@code key=value} lines in the
 * order given, each value on one line. The driver writes them, {@link Report} reads them back.
 */
public final class Meta {

    private final Map<String, String> values = new LinkedHashMap<>();

    public Meta put(String key, Object value) {
        values.put(key, String.valueOf(value).replace('\n', ' ').replace('\r', ' '));
        return this;
    }

    public void write(Path file) {
        StringBuilder sb = new StringBuilder();
        values.forEach((k, v) -> sb.append(k).append('=').append(v).append('\n'));
        try {
            Files.writeString(file, sb.toString(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static Meta read(Path file) throws IOException {
        Meta m = new Meta();
        for (String line : Files.readAllLines(file, StandardCharsets.UTF_8)) {
            int eq = line.indexOf('=');
            if (eq > 0) {
                m.values.put(line.substring(0, eq), line.substring(eq + 1));
            }
        }
        return m;
    }

    /** The value, or null. */
    String get(String key) {
        return values.get(key);
    }

    String get(String key, String otherwise) {
        return values.getOrDefault(key, otherwise);
    }

    /** A workload's label (e.g. "Large file, 4 parallel downloaders"), else its id. */
    String label(String workload) {
        return get("label." + workload, workload);
    }

    /** The entries whose key starts with {@code prefix}, the prefix cut off, in their order. */
    Map<String, String> withPrefix(String prefix) {
        Map<String, String> m = new LinkedHashMap<>();
        values.forEach((k, v) -> {
            if (k.startsWith(prefix)) {
                m.put(k.substring(prefix.length()), v);
            }
        });
        return m;
    }
}
