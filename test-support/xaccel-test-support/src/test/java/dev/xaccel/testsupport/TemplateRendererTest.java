package dev.xaccel.testsupport;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TemplateRendererTest {

    @Test
    void replacesThePlaceholdersAndLeavesNginxVariablesAlone() {
        String template = "listen 127.0.0.1:${NGINX_PORT}; set $x ${host}; return 200 \"$uri ${A_1}\";";
        assertEquals("listen 127.0.0.1:8080; set $x ${host}; return 200 \"$uri v\";",
                TemplateRenderer.render(template, Map.of("NGINX_PORT", "8080", "A_1", "v")));
    }

    @Test
    void anUnknownPlaceholderIsAnErrorNamingIt() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> TemplateRenderer.render("a ${KNOWN} ${UNKNOWN}", Map.of("KNOWN", "k")));
        assertTrue(e.getMessage().contains("${UNKNOWN}"), e.getMessage());
    }

    @Test
    void valuesAreInsertedVerbatim() {
        assertEquals("x=$1\\2${Y}", TemplateRenderer.render("x=${X}", Map.of("X", "$1\\2${Y}")));
        assertEquals("unused values are fine", TemplateRenderer.render("unused values are fine", Map.of("Z", "z")));
    }

    @Test
    void theCommandTakesValuesFromArgumentsAndTheEnvironment(@TempDir Path dir) throws Exception {
        Path template = Files.writeString(dir.resolve("t.conf"), "port ${PORT}; secret ${SECRET};\n");
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int status = TemplateRenderer.run(new String[] {template.toString(), "PORT=81", "SECRET"},
                Map.of("SECRET", "s3cr=t"), new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
        assertEquals(0, status, err.toString(StandardCharsets.UTF_8));
        assertEquals("port 81; secret s3cr=t;\n", out.toString(StandardCharsets.UTF_8));
    }

    @Test
    void theCommandFailsOnAMissingValue(@TempDir Path dir) throws Exception {
        Path template = Files.writeString(dir.resolve("t.conf"), "port ${PORT};\n");
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        PrintStream o = new PrintStream(out, true, StandardCharsets.UTF_8);
        PrintStream e = new PrintStream(err, true, StandardCharsets.UTF_8);
        assertEquals(2, TemplateRenderer.run(new String[] {template.toString()}, Map.of(), o, e));
        assertTrue(err.toString(StandardCharsets.UTF_8).contains("${PORT}"), err.toString(StandardCharsets.UTF_8));
        assertEquals(2, TemplateRenderer.run(new String[] {template.toString(), "PORT"}, Map.of(), o, e));
        assertEquals(2, TemplateRenderer.run(new String[0], Map.of(), o, e));
        assertEquals("", out.toString(StandardCharsets.UTF_8));
    }
}
