package dev.xaccel.filter;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.lang.module.ModuleDescriptor;
import java.lang.module.ModuleFinder;
import java.lang.module.ModuleReference;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;

/**
 * The module boundary: {@code module-info} exports the API packages and nothing else, and no code of the
 * repository outside this module names an internal package (imports and qualified names; a logger's name in a
 * string is not a dependency).
 */
class ModuleBoundaryTest {

    static final Set<String> API = Set.of("dev.xaccel.filter", "dev.xaccel.filter.jaxrs");
    private static final Pattern INTERNAL_USE = Pattern.compile("\\bdev\\.xaccel\\.filter\\.internal\\b");

    @Test
    void moduleInfoExportsTheApiOnly() throws Exception {
        Path classes = Path.of(XAccelFilter.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        ModuleReference ref = ModuleFinder.of(classes).find("dev.xaccel.filter").orElseThrow();
        ModuleDescriptor d = ref.descriptor();
        Set<String> exported = d.exports().stream().filter(e -> !e.isQualified()).map(ModuleDescriptor.Exports::source)
                .collect(Collectors.toCollection(TreeSet::new));
        assertEquals(new TreeSet<>(API), exported);
        assertTrue(d.exports().stream().noneMatch(ModuleDescriptor.Exports::isQualified), d.exports().toString());
        assertTrue(d.opens().isEmpty(), d.opens().toString());
        for (String p : d.packages()) {
            assertTrue(API.contains(p) || p.startsWith("dev.xaccel.filter.internal."), "package " + p);
        }
    }

    @Test
    void noOtherModuleNamesAnInternalPackage() throws IOException {
        Path repo = Path.of("").toAbsolutePath().getParent();
        assertTrue(Files.isRegularFile(repo.resolve("pom.xml")), repo.toString());
        Path self = repo.resolve("xaccel-filter");
        List<String> uses = new ArrayList<>();
        try (Stream<Path> files = Files.walk(repo)) {
            for (Path f : (Iterable<Path>) files.filter(p -> p.toString().endsWith(".java"))::iterator) {
                if (f.startsWith(self) || repo.relativize(f).toString().contains("target/")) {
                    continue;
                }
                List<String> lines = Files.readAllLines(f);
                for (int i = 0; i < lines.size(); i++) {
                    if (namesInternal(lines.get(i))) {
                        uses.add(repo.relativize(f) + ":" + (i + 1) + ": " + lines.get(i).trim());
                    }
                }
            }
        }
        assertEquals(List.of(), uses);
        assertTrue(namesInternal("import dev.xaccel.filter.internal.fs.Resolution;"), "the check sees an import");
        assertTrue(namesInternal("var r = new dev.xaccel.filter.internal.fs.Resolution();"), "and a qualified name");
    }

    /** Whether a line names an internal package outside a string literal. */
    static boolean namesInternal(String line) {
        Matcher m = INTERNAL_USE.matcher(line);
        while (m.find()) {
            long quotes = line.substring(0, m.start()).chars().filter(c -> c == '"').count();
            if (quotes % 2 == 0) {
                return true;
            }
        }
        return false;
    }
}
