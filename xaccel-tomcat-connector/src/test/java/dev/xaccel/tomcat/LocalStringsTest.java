package dev.xaccel.tomcat;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.Properties;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Each package's {@code LocalStrings.properties} against its sources: every {@code Messages.get("key", ...)} has its
 * key (Tomcat's StringManager would print the bare key otherwise), and every key is used.
 */
class LocalStringsTest {

    private static final Pattern GET = Pattern.compile("Messages\\.get\\(\\s*\"([^\"]+)\"");
    private static final Pattern LITERAL = Pattern.compile("\"([a-z][A-Za-z0-9]*(?:\\.[A-Za-z0-9]+)+)\"");

    @ParameterizedTest
    @ValueSource(strings = { "dev/xaccel/tomcat", "dev/xaccel/tomcat/internal/os",
            "dev/xaccel/tomcat/internal/sendfile" })
    void keysAndSourcesAgree(String pkg) throws IOException {
        Properties bundle = new Properties();
        ClassLoader loader = LocalStringsTest.class.getClassLoader();
        try (InputStream in = loader.getResourceAsStream(pkg + "/LocalStrings.properties")) {
            bundle.load(in);
        }
        assertFalse(bundle.isEmpty(), pkg);
        Set<String> called = new TreeSet<>();
        Set<String> literals = new TreeSet<>();
        try (Stream<Path> files = Files.list(Paths.get("src/main/java", pkg))) {
            for (Path file : (Iterable<Path>) files.filter(f -> f.toString().endsWith(".java"))::iterator) {
                String source = Files.readString(file);
                Matcher m = GET.matcher(source);
                while (m.find()) {
                    called.add(m.group(1));
                }
                m = LITERAL.matcher(source);
                while (m.find()) {
                    literals.add(m.group(1));
                }
            }
        }
        Set<String> missing = new TreeSet<>(called);
        missing.removeAll(bundle.stringPropertyNames());
        assertEquals(Set.of(), missing, "keys used in " + pkg + " but not in its LocalStrings.properties");
        Set<String> unused = new TreeSet<>(bundle.stringPropertyNames());
        unused.removeAll(literals);
        assertEquals(Set.of(), unused, "keys of " + pkg + "/LocalStrings.properties that no source names");
    }
}
