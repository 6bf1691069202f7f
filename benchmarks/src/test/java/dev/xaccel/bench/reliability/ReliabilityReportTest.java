package dev.xaccel.bench.reliability;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** docs/reliability.md's template names every scenario of the ITs; the report fills in figures and gaps. */
class ReliabilityReportTest {

    @Test
    void theTemplateHasAPlaceForEveryScenario() throws Exception {
        String template;
        try (InputStream in = ReliabilityReport.class.getResourceAsStream("reliability.md")) {
            template = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
        assertEquals(List.of("2-app-dies", "3-nginx-reload", "4-scale-out", "5-aborting-clients",
                "6-changing-files", "7-slow-clients", "8-root-gone"), ReliabilityReport.scenarios(template));
        assertTrue(template.contains("@@RUN@@") && template.contains("@@LOAD@@"));
    }

    @Test
    void fillsInFiguresAndSaysWhatWasNotMeasured(@TempDir Path dir) throws Exception {
        Path figures = Files.createDirectories(dir.resolve("figures"));
        Files.writeString(figures.resolve("2-app-dies.tsv"),
                "scenario\t2-app-dies\nvariant\tlong\ndownloads completed byte-exact\t8 of 8\n");
        Map<String, String> load = new LinkedHashMap<>();
        load.put("requests", "1234");
        Path out = new ReliabilityReport(dir, figures).write(dir.resolve("r.md"), load, 0, "1.0", "2.0",
                "--reliability");
        String md = Files.readString(out);
        assertTrue(md.contains("| downloads completed byte-exact | 8 of 8 |"), md);
        assertTrue(md.contains("Measured (the longer variant"), md);
        assertTrue(md.contains("| requests | 1234 |"), md);
        assertTrue(md.contains("not measured in this run: figures/3-nginx-reload.tsv is missing"), md);
        assertFalse(md.contains("@@"), md);
    }
}
