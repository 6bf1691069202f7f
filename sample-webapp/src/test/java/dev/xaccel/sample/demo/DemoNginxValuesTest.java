package dev.xaccel.sample.demo;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import dev.xaccel.testsupport.TemplateRenderer;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The one place that fills the sample's nginx template has a value for each of its placeholders: a placeholder added
 * to the template fails here until {@link DemoNginxValues} fills it, and with it ./demo, the ITs and the benchmark.
 */
class DemoNginxValuesTest {

    @Test
    void fillsEveryPlaceholderOfTheTemplate() throws Exception {
        for (String origin : new String[] {null, "http://127.0.0.1:9000"}) {
            Map<String, String> values = new LinkedHashMap<>(
                    new DemoNginxValues(8081, Path.of("/srv/library"), "s".repeat(48), origin).placeholders());
            values.put("NGINX_PORT", "8080");
            // TemplateRenderer fails naming the first placeholder without a value
            String conf = TemplateRenderer.render(ConnectorTuningTest.NGINX, values);
            assertFalse(conf.matches("(?s).*\\$\\{[A-Z][A-Z0-9_]*}.*"), "a placeholder is left");
        }
    }

    @Test
    void withoutAStoreNginxNamesAnAddressItNeverAsks() {
        Map<String, String> values = new DemoNginxValues(8081, Path.of("/srv/library"), "x", null).placeholders();
        assertEquals(DemoNginxValues.NO_STORE, values.get("REMOTE_ORIGIN"));
        assertEquals("127.0.0.1:9", values.get("REMOTE_SERVER"));
    }

    @Test
    void theStoreOriginGivesTheServerNginxConnectsTo() {
        assertEquals("127.0.0.1:9000", new DemoNginxValues(1, Path.of("/l"), "x", "http://127.0.0.1:9000")
                .placeholders().get("REMOTE_SERVER"));
        assertEquals("s3.example:443", new DemoNginxValues(1, Path.of("/l"), "x", "https://s3.example")
                .placeholders().get("REMOTE_SERVER"));
    }

    @Test
    void printsOneLinePerPlaceholderForScripts() {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        DemoNginxValues.print(new DemoNginxValues(8081, Path.of("/srv/library"), "secret", null),
                new PrintStream(out, true, StandardCharsets.UTF_8));
        assertEquals("TOMCAT_PORT=8081\nLIBRARY=/srv/library\nLINK_SECRET=secret\nREMOTE_ORIGIN=http://127.0.0.1:9\n"
                + "REMOTE_SERVER=127.0.0.1:9\nCA_CERTIFICATES=/etc/ssl/certs/ca-certificates.crt\nRECEIPTS_PORT=9\n",
                out.toString(StandardCharsets.UTF_8));
    }
}
