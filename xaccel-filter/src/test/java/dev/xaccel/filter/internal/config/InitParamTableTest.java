package dev.xaccel.filter.internal.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import dev.xaccel.filter.InitParams;
import dev.xaccel.filter.XAccelFilter;
import dev.xaccel.testsupport.TestPaths;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The one parameter table ({@link InitParam}) against everything that lists the init-params: the public names
 * ({@link InitParams}, {@link XAccelFilter#PARAMS}), the startup line, and the tables of docs/filter.md and
 * README.md (a row per param, each stating its default, no row for a param that does not exist).
 */
class InitParamTableTest {

    private static final Pattern ROW = Pattern.compile("(?m)^\\| `([A-Za-z]+)` \\|(.*)$");
    /** The section of the init-param table: from its heading to the next heading. */
    private static final Pattern SECTION = Pattern.compile("(?ms)^#+ [^\\n]*Init-param[^\\n]*$(.*?)(?=^#)");

    @Test
    void theNamesAreTheTables() throws Exception {
        assertEquals(InitParam.names(), XAccelFilter.PARAMS);
        Set<String> fields = new TreeSet<>();
        for (Field f : InitParams.class.getFields()) {
            fields.add(f.getName());
        }
        Set<String> constants = new TreeSet<>();
        for (Field f : InitParams.class.getFields()) {
            String n = f.getName();
            boolean isDefault = n.startsWith("DEFAULT_") && fields.contains(n.substring("DEFAULT_".length()));
            if (Modifier.isStatic(f.getModifiers()) && !isDefault && !n.endsWith("_NONE")) {
                constants.add((String) f.get(null));
            }
        }
        assertEquals(new TreeSet<>(InitParam.names()), constants, "InitParams has one constant per table entry");
    }

    @Test
    void theStartupLineShowsEveryParamInTheTablesOrder() {
        XAccelConfig c = new XAccelConfig.Builder().location(Path.of("/").toAbsolutePath(), "/_x/", null)
                .signedLinkSecret("0123456789abcdef0123456789abcdef").signedLinkPrefix("/s/").build();
        String line = InitParam.describe(c);
        int at = -1;
        for (InitParam p : InitParam.values()) {
            int i = line.indexOf(p.paramName() + "=");
            assertTrue(i > at, p.paramName() + " missing or out of order in: " + line);
            at = i;
        }
        assertTrue(line.contains("signedLinkSecret=(set)") && !line.contains("0123456789abcdef"), line);
    }

    @ParameterizedTest
    @ValueSource(strings = {"docs/filter.md", "README.md"})
    void theDocsTableHasARowWithTheDefaultForEveryParamAndNoOtherRow(String doc) throws Exception {
        String text = Files.readString(TestPaths.repositoryFile(doc), StandardCharsets.UTF_8);
        Matcher section = SECTION.matcher(text);
        assertTrue(section.find(), doc + " has no Init-parameters section");
        Map<String, String> rows = new LinkedHashMap<>();
        Matcher m = ROW.matcher(section.group(1));
        while (m.find()) {
            rows.putIfAbsent(m.group(1), m.group(2));
        }
        for (InitParam p : InitParam.values()) {
            String row = rows.get(p.paramName());
            assertTrue(row != null, doc + " has no row for " + p.paramName());
            assertTrue(row.toLowerCase(Locale.ROOT).contains(p.defaultText().toLowerCase(Locale.ROOT)),
                    doc + ": the row of " + p.paramName() + " does not state its default " + p.defaultText());
        }
        Set<String> params = new TreeSet<>(rows.keySet());
        params.removeAll(InitParam.names());
        assertEquals(Set.of(), params, doc + " documents init-params that do not exist");
    }
}
