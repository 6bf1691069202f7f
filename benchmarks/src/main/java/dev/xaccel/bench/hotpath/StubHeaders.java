package dev.xaccel.bench.hotpath;

import java.util.Arrays;
import java.util.List;

/**
 * Header storage that, like a container's recycled header table, allocates nothing per request: parallel
 * arrays searched with {@code equalsIgnoreCase}; a {@code null} value removes the header. One value per name.
 */
final class StubHeaders {
    private final String[] names = new String[32];
    private final String[] values = new String[32];
    private int size;

    String get(String name) {
        for (int i = 0; i < size; i++) {
            if (names[i].equalsIgnoreCase(name)) {
                return values[i];
            }
        }
        return null;
    }

    void set(String name, String value) {
        for (int i = 0; i < size; i++) {
            if (names[i].equalsIgnoreCase(name)) {
                if (value == null) {
                    size--;
                    names[i] = names[size];
                    values[i] = values[size];
                } else {
                    values[i] = value;
                }
                return;
            }
        }
        if (value != null) {
            names[size] = name;
            values[size++] = value;
        }
    }

    List<String> names() {
        return List.copyOf(Arrays.asList(names).subList(0, size));
    }

    void clear() {
        size = 0;
    }
}
