package dev.xaccel.bench.report;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The report's sections of issue 15 from raw lines: headline ratios, seed 001's shapes, virtual threads. */
class Issue15ReportTest {

    @Test
    void sectionsOfTheHopTheSeedShapesAndVirtualThreads(@TempDir Path dir) throws Exception {
        Path raw = dir.resolve("raw.tsv");
        Files.writeString(raw, String.join("\n",
                "small-c8\txaccel\t1\trps\t9000", "small-c8\txaccel\t2\trps\t9100",
                "small-c8\tbare\t1\trps\t10000", "small-c8\tbare\t2\trps\t9800",
                "small-c8\tuds\t1\trps\t9900", "small-c8\tuds\t2\trps\t10100",
                "seed001-lan-c1\tplain\t1\trps\t500", "seed001-lan-c1\tplain\t2\trps\t520",
                "seed001-lan-c1\tdefer\t1\trps\t510", "seed001-lan-c1\tdefer\t2\trps\t505",
                "seed001-lan-c1\tplain\t1\twakeups_per_req\t4.0", "seed001-lan-c1\tdefer\t1\twakeups_per_req\t3.0",
                "seed001-lan-c1\tplain\t0\tsc_all\t40", "seed001-lan-c1\tplain\t0\tsc_accept\t1.0",
                "threads-slow-c64\tplatform\t1\trps\t8000", "threads-slow-c64\tvirtual\t1\trps\t7600",
                "threads-slow-c64\tplatform\t1\tthreads\t230", "threads-slow-c64\tvirtual\t1\tthreads\t40", ""),
                StandardCharsets.UTF_8);
        Path meta = dir.resolve("meta.env");
        Files.writeString(meta, "date=2026-12-01\nmachine.nproc=2\nthreads_note=Tomcat on 25.\n",
                StandardCharsets.UTF_8);
        Path conf = dir.resolve("nginx.conf");
        Files.writeString(conf, "events {}\n", StandardCharsets.UTF_8);
        Path out = dir.resolve("r.md");
        Report.write(raw, meta, conf, null, null, out, dir.resolve("r.svg"));
        String md = Files.readString(out, StandardCharsets.UTF_8);
        assertTrue(md.contains("| xaccel ÷ bare X-Accel servlet, both behind the same auth filter (what XAccelFilter"
                + " costs on the hop) | small files, concurrency 8 | – | – | **0.91×** (0.90–0.93 over 2 rounds) |"
                + " ≥ 0.97×: **missed** |"), md);
        assertTrue(md.contains("| 8 | (12) nginx + bare X-Accel servlet, same auth as (3) | 9,900 (9,800–10,000) |"),
                md);
        assertTrue(md.contains("## Seed 001: the accept-filter article's shapes against Tomcat NIO"), md);
        assertTrue(md.contains("| LAN (1 ms pause), c=1 | acceptFilter=none | 510 (500–520) |"), md);
        assertTrue(md.contains("| LAN (1 ms pause), c=1 | 2.00× | **1.00×** (0.97–1.02 over 2 rounds) "
                + "⚠ min–max overlaps 1.00× |"), md);
        assertTrue(md.contains("| LAN (1 ms pause), c=1 | none | 40.0 | 1.00 |"), md);
        assertTrue(md.contains("## Virtual threads (Tomcat useVirtualThreads)"), md);
        assertTrue(md.contains("| 1000 slow clients, concurrency 64 | virtual | 7,600 |"), md);
        assertTrue(md.contains("| 1000 slow clients, concurrency 64 | **0.95×** (1 round) "
                + "⚠ one round: spread unknown |"), md);
    }
}
