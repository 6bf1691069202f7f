package dev.xaccel.spring.boot.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;

import dev.xaccel.testsupport.TestPaths;

/** docs/spring-boot.md's table of properties against the configuration metadata: every property, its default. */
class SpringBootDocsTest {

    private static final Pattern ROW = Pattern.compile("(?m)^\\| `([a-z0-9.\\-]+)` \\| ([^|]+) \\|");
    private static final Set<String> NOT_SET = Set.of("**required**", "none", "not sent", "off", "derived");

    @Test
    void everyPropertyIsInTheTableWithItsDefault() throws Exception {
        String docs = Files.readString(TestPaths.repositoryFile("docs/spring-boot.md"));
        String table = docs.substring(docs.indexOf("## Every property"));
        Map<String, String> rows = new LinkedHashMap<>();
        Matcher m = ROW.matcher(table);
        while (m.find()) {
            rows.put(m.group(1), m.group(2).trim().replace("`", ""));
        }
        for (Map<String, Object> p : ConfigurationMetadataTest.properties()) {
            String name = (String) p.get("name");
            assertThat(rows).as("docs/spring-boot.md lists %s", name).containsKey(name);
            Object def = p.get("defaultValue");
            if (def == null) {
                assertThat(NOT_SET).as("default of %s in docs/spring-boot.md", name).contains(rows.get(name));
            } else {
                assertThat(rows.get(name)).as("default of %s in docs/spring-boot.md", name)
                        .isEqualToIgnoringCase(String.valueOf(def));
            }
        }
    }
}
