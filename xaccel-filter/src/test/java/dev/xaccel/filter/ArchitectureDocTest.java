package dev.xaccel.filter;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;

/**
 * docs/architecture.md's package table matches the compiled filter: every package is a row, and every row lists
 * exactly the package's top-level types.
 */
class ArchitectureDocTest {

    private static final Pattern ROW = Pattern.compile("^\\| `(dev\\.xaccel\\.filter[a-z.]*)` \\|[^|]*\\|(.*)\\|$");
    private static final Pattern TYPE = Pattern.compile("`([A-Z][A-Za-z]*)`");

    @Test
    void thePackageTableListsEveryPackageAndItsTypes() throws Exception {
        Map<String, Set<String>> documented = documented();
        Map<String, Set<String>> compiled = compiled();
        assertEquals(compiled.keySet(), documented.keySet(), "packages");
        assertEquals(compiled, documented, "types per package");
    }

    /** The table's rows: package to the types its last column names. */
    static Map<String, Set<String>> documented() throws IOException {
        Path doc = Path.of("").toAbsolutePath().getParent().resolve("docs/architecture.md");
        Map<String, Set<String>> rows = new LinkedHashMap<>();
        List<String> lines = Files.readAllLines(doc);
        for (String line : lines) {
            Matcher m = ROW.matcher(line);
            if (m.matches()) {
                Set<String> types = new TreeSet<>();
                Matcher t = TYPE.matcher(m.group(2));
                while (t.find()) {
                    types.add(t.group(1));
                }
                rows.put(m.group(1), types);
            }
        }
        assertTrue(rows.size() > 5, "rows read from " + doc + ": " + rows.keySet());
        return new TreeMap<>(rows);
    }

    /** The compiled module's packages and their top-level types (no package-info, no nested classes). */
    static Map<String, Set<String>> compiled() throws Exception {
        Path classes = Path.of(XAccelFilter.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        try (Stream<Path> files = Files.walk(classes)) {
            return files.map(p -> classes.relativize(p).toString().replace('\\', '/'))
                    .filter(n -> n.startsWith("dev/xaccel/filter/") && n.endsWith(".class") && !n.contains("$")
                            && !n.endsWith("/package-info.class"))
                    .collect(Collectors.groupingBy(n -> n.substring(0, n.lastIndexOf('/')).replace('/', '.'),
                            TreeMap::new, Collectors.mapping(
                                    n -> n.substring(n.lastIndexOf('/') + 1, n.length() - ".class".length()),
                                    Collectors.toCollection(TreeSet::new))));
        }
    }
}
