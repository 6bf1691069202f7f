package dev.xaccel.bench.report;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

/** The run's facts for {@link Report}: {@code key=value} lines in the order given, each value on one line. */
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
}
