package dev.xaccel.bench.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SpreadSectionTest {

    @Test
    void spreadOverOneDirectoryPerSetupRoundByRoundAgainstTenPercent(@TempDir Path dir) throws Exception {
        List<String> lines = new ArrayList<>();
        // tomcat: spread 120/100, 130/100 µs: missed; xaccel: 105/100, 108/100: met; default: 100/100, 125/100
        double[][] tomcat = {{100, 120}, {100, 130}};
        double[][] xaccel = {{100, 105}, {100, 108}};
        double[][] def = {{100, 100}, {100, 125}};
        add(lines, "tomcat", tomcat);
        add(lines, "xaccel", xaccel);
        add(lines, "default", def);
        // DefaultServlet is measured spread (for direct ÷ DefaultServlet) but has no one-directory twin
        lines.removeIf(l -> l.startsWith("small-8K-onedir-c8\tdefault\t"));
        Path raw = dir.resolve("raw.tsv");
        Files.writeString(raw, String.join("\n", lines) + "\n", StandardCharsets.UTF_8);
        String md = SpreadSection.markdown(Measurements.read(raw));
        assertTrue(md.contains("| 8K, c=8 | (1) Tomcat serves it (filter, offload=never, xaccel connector) | 9,000 "
                + "(8,000–10,000) | 11,000 (10,000–12,000) | 125.0 (120.0–130.0) | 100.0 (100.0–100.0) | **1.25×** "
                + "(1.20–1.30 over 2 rounds) | ≤ 1.10×: **missed** |"), md);
        assertTrue(md.contains("| **1.07×** (1.05–1.08 over 2 rounds) | ≤ 1.10×: **met** |"), md);
        assertFalse(md.contains("DefaultServlet"), md);
        assertTrue(md.contains("`onedir-SIZE/Author/Title/chapter-NNNN.bin`"), md);
        assertEquals(2, md.lines().filter(l -> l.startsWith("| 8K, c=8 |")).count(), md);
        Path deepOnly = write(dir, "small-8K-onedir-c8\ttomcat\t1\trps\t1\n");
        assertEquals("", SpreadSection.markdown(Measurements.read(deepOnly)), "no spread set, no section");
    }

    /** Rounds 1 and 2 of a setup: {one-directory, spread} server CPU µs per request; req/s 10,000+ and 8,000+. */
    private static void add(List<String> lines, String setup, double[][] rounds) {
        for (int r = 0; r < rounds.length; r++) {
            int round = r + 1;
            lines.add("small-8K-onedir-c8\t" + setup + "\t" + round + "\tserver_us_per_req\t" + rounds[r][0]);
            lines.add("small-8K-spread-c8\t" + setup + "\t" + round + "\tserver_us_per_req\t" + rounds[r][1]);
            lines.add("small-8K-onedir-c8\t" + setup + "\t" + round + "\trps\t" + (10_000 + 2_000 * r));
            lines.add("small-8K-spread-c8\t" + setup + "\t" + round + "\trps\t" + (8_000 + 2_000 * r));
        }
    }

    private static Path write(Path dir, String text) throws Exception {
        Path raw = dir.resolve("one.tsv");
        Files.writeString(raw, text, StandardCharsets.UTF_8);
        return raw;
    }
}
