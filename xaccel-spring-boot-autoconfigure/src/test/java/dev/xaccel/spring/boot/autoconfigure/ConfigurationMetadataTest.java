package dev.xaccel.spring.boot.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.InputStream;
import java.net.URI;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

import org.junit.jupiter.api.Test;
import org.springframework.beans.BeanWrapper;
import org.springframework.beans.BeanWrapperImpl;

import com.jayway.jsonpath.JsonPath;

import dev.xaccel.filter.XAccelFilter;
import dev.xaccel.spring.boot.autoconfigure.tomcat.XAccelConnectorProperties;

/**
 * The configuration metadata that {@code spring-boot-configuration-processor} generated from the properties
 * classes (what IDEs complete and explain): every {@code xaccel.*} property with its type, a description and,
 * unless the filter's default is "not set", its default.
 */
class ConfigurationMetadataTest {

    /** Properties whose default is "not set" (the filter's "required", "none", "not sent", "off", "derived"). */
    static final Set<String> WITHOUT_DEFAULT = Set.of("xaccel.locations", "xaccel.mappings", "xaccel.limit-rate",
            "xaccel.charset", "xaccel.accel-expires", "xaccel.cache-control", "xaccel.jmx-name",
            "xaccel.signed-link-secret", "xaccel.signed-link-prefix", "xaccel.remote-origins",
            "xaccel.receipt-listener");

    private static final Map<String, Object> JSON = read();

    @SuppressWarnings("unchecked")
    private static Map<String, Object> read() {
        try {
            // the module's own, as a directory here, as the installed jar where the other lines' tests run
            Path classes = Path.of(XAccelProperties.class.getProtectionDomain().getCodeSource().getLocation().toURI());
            String name = "META-INF/spring-configuration-metadata.json";
            URL url = Files.isDirectory(classes) ? classes.resolve(name).toUri().toURL()
                    : URI.create("jar:" + classes.toUri() + "!/" + name).toURL();
            try (InputStream in = url.openStream()) {
                return JsonPath.parse(new String(in.readAllBytes(), StandardCharsets.UTF_8)).read("$", Map.class);
            }
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    static List<Map<String, Object>> properties() {
        return JsonPath.read(JSON, "$.properties[*]");
    }

    private static Map<String, Object> property(String name) {
        return properties().stream().filter(p -> name.equals(p.get("name"))).findFirst().orElse(null);
    }

    @Test
    void everyInitParamAndSpringPropertyIsListed() {
        Set<String> listed = new TreeSet<>();
        properties().forEach(p -> listed.add((String) p.get("name")));
        for (String param : XAccelFilter.PARAMS) {
            assertThat(listed).contains(XAccelProperties.propertyOf(param));
        }
        for (String own : XAccelPropertiesTest.SPRING_ONLY) {
            assertThat(listed).contains(XAccelProperties.propertyOf(own));
        }
        assertThat(listed).contains("xaccel.connector.accept-filter", "xaccel.connector.defer-accept-seconds",
                "xaccel.connector.fail-on-error", "xaccel.connector.checked-file-sendfile");
    }

    @Test
    void everyPropertyHasADescriptionAndItsDefault() {
        BeanWrapper filter = new BeanWrapperImpl(new XAccelProperties());
        BeanWrapper connector = new BeanWrapperImpl(new XAccelConnectorProperties());
        for (Map<String, Object> p : properties()) {
            String name = (String) p.get("name");
            assertThat((String) p.get("description")).as("description of %s", name).isNotBlank()
                    .doesNotContain("{@");
            if (WITHOUT_DEFAULT.contains(name)) {
                assertThat(p.get("defaultValue")).as("default of %s", name).isNull();
                assertThat((String) p.get("description")).as(name)
                        .containsAnyOf("Default: not sent", "Default: none", "Default: off", "Default: derived",
                                "Required");
                continue;
            }
            BeanWrapper bean = name.startsWith(XAccelConnectorProperties.PREFIX + ".") ? connector : filter;
            String prefix = bean == connector ? XAccelConnectorProperties.PREFIX : XAccelProperties.PREFIX;
            Object expected = bean.getPropertyValue(camel(name.substring(prefix.length() + 1)));
            assertThat(p.get("defaultValue")).as("default of %s", name).isNotNull();
            // enums are listed in their lower-case form (x-accel-redirect for X_ACCEL_REDIRECT)
            String wanted = expected instanceof Enum<?> e ? e.name().toLowerCase(Locale.ROOT).replace('_', '-')
                    : String.valueOf(expected);
            assertThat(String.valueOf(p.get("defaultValue"))).as("default of %s", name).isEqualTo(wanted);
        }
    }

    @Test
    void theEnumsAndTheirDefaultsMeanTheFiltersSpelling() {
        assertThat(property("xaccel.header-type").get("defaultValue").toString())
                .isEqualToIgnoringCase("X-Accel-Redirect");
        assertThat(property("xaccel.symlinks").get("defaultValue")).isEqualTo("within-root");
        assertThat(property("xaccel.offload").get("type")).isEqualTo("dev.xaccel.filter.OffloadMode");
    }

    private static String camel(String kebab) {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < kebab.length(); i++) {
            char c = kebab.charAt(i);
            if (c == '-') {
                sb.append(Character.toUpperCase(kebab.charAt(++i)));
            } else {
                sb.append(c);
            }
        }
        return sb.toString();
    }
}
