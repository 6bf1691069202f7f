package dev.xaccel.filter.internal.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;

/**
 * Each init-param is spelled in one place: its name as a string literal stands in at most three main source files
 * of the shipped modules (the names' home {@code InitParams}, and at most two files that mention the word for
 * another reason), so an option is added or renamed in the table, the public builder and the Spring properties,
 * not in copies that tests must keep in step.
 */
class InitParamSpellingTest {

    /** The modules whose jars users run. */
    static final List<String> SHIPPED = List.of("xaccel-filter", "xaccel-tomcat-connector",
            "xaccel-spring-boot-autoconfigure", "xaccel-spring-boot-starter");

    @Test
    void everyNameIsALiteralInAtMostThreeMainFiles() throws IOException {
        Path repo = Path.of("").toAbsolutePath().getParent();
        Map<Path, String> sources = new TreeMap<>();
        for (String module : SHIPPED) {
            Path main = repo.resolve(module).resolve("src/main/java");
            if (!Files.isDirectory(main)) {
                continue;
            }
            try (Stream<Path> files = Files.walk(main)) {
                for (Path f : (Iterable<Path>) files.filter(p -> p.toString().endsWith(".java"))::iterator) {
                    sources.put(repo.relativize(f), Files.readString(f));
                }
            }
        }
        assertTrue(sources.size() > 50, "read " + sources.size() + " files");
        Map<String, List<Path>> tooMany = new TreeMap<>();
        for (String name : InitParam.names()) {
            List<Path> spelled = new ArrayList<>();
            sources.forEach((file, text) -> {
                if (text.contains("\"" + name + "\"")) {
                    spelled.add(file);
                }
            });
            assertTrue(!spelled.isEmpty(), name + " is spelled nowhere: the check reads the wrong files");
            if (spelled.size() > 3) {
                tooMany.put(name, spelled);
            }
        }
        assertEquals(Map.of(), tooMany);
    }
}
