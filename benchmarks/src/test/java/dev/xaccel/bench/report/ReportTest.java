package dev.xaccel.bench.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ReportTest {

    @Test
    void medianOfOddAndEvenCounts() {
        assertEquals(2.0, Stats.median(List.of(3.0, 1.0, 2.0)));
        assertEquals(2.5, Stats.median(List.of(4.0, 1.0, 2.0, 3.0)));
        assertTrue(Double.isNaN(Stats.median(List.of())));
    }

    @Test
    void writesMediansRangesRatiosAndChart(@TempDir Path dir) throws Exception {
        Path raw = dir.resolve("raw.tsv");
        Files.writeString(raw, String.join("\n",
                "large-seq\tstatic\t1\tMBps\t1000", "large-seq\tstatic\t2\tMBps\t1200",
                "large-seq\tstatic\t3\tMBps\t1100",
                "large-seq\txaccel\t1\tMBps\t990", "large-seq\txaccel\t2\tMBps\t1045",
                "large-seq\txaccel\t3\tMBps\t1020",
                "large-seq\tproxied\t1\tMBps\t400", "large-seq\tproxied\t2\tMBps\t500",
                "large-seq\tproxied\t3\tMBps\t450",
                "large-seq\tconfined\t1\tMBps\t900", "large-seq\tconfined\t2\tMBps\t1140",
                "large-seq\tconfined\t3\tMBps\t1100",
                "large-seq\txaccel\t1\tjvm_s\t0.01", "large-seq\txaccel\t1\tGB\t2",
                "large-seq\txaccel\t2\tjvm_s\t0.00", "large-seq\txaccel\t2\tGB\t2",
                "large-seq\tproxied\t1\tjvm_s\t1.0", "large-seq\tproxied\t1\tGB\t2",
                "large-seq\tproxied\t2\tjvm_s\t1.5", "large-seq\tproxied\t2\tGB\t2",
                "small-c8\txaccel\t1\trps\t2000", "small-c8\tstatic\t1\trps\t10000",
                "small-c8\tcached\t1\trps\t6000", "small-c8\tcached\t1\trequests\t24000",
                "small-c8\tcached\t1\tbackend_requests\t24", "small-c8\tsigned\t1\trps\t9000",
                "small-c8\tconfined\t1\trps\t9500", "small-c1\tstatic\t1\trps\t3000",
                "small-c1\tstatic\t2\trps\t2000", "small-c1\tconfined\t2\trps\t1800",
                "small-c1\tconfined\t1\trps\t2400",
                "hotpath\tmapped\t1\tcpu_ns\t2900.5", "hotpath\tmapped\t1\talloc_bytes\t1900",
                "hotpath\tmapped\t1\tfs_calls\t4", "hotpath\tmapped\t1\tsys_statx\t3",
                "hotpath\tmapped\t1\tsys_access\t1",
                "hotpath\tmapped-confines\t1\tcpu_ns\t1800", "hotpath\tmapped-confines\t1\talloc_bytes\t900",
                "hotpath\tmapped-confines\t1\tfs_calls\t2", ""),
                StandardCharsets.UTF_8);
        Path meta = dir.resolve("meta.env");
        Files.writeString(meta, "date=2026-01-01\nmachine.nproc=2\nparam.size=1G\n", StandardCharsets.UTF_8);
        Path conf = dir.resolve("nginx.conf");
        Files.writeString(conf, "events {}\n", StandardCharsets.UTF_8);
        Path out = dir.resolve("r.md");
        Path svg = dir.resolve("r.svg");

        Report.write(raw, meta, conf, null, null, out, svg);

        String md = Files.readString(out, StandardCharsets.UTF_8);
        assertTrue(md.contains("| (3) xaccel: nginx + filter, X-Accel-Redirect | 1,020 (990–1,045) | 8,160 |"), md);
        assertTrue(md.contains("xaccel / nginx static = **0.93×**"), md);
        assertTrue(md.contains("xaccel / nginx-proxied streaming = **2.27×**"), md);
        assertTrue(md.contains("JVM CPU per GB xaccel / proxied streaming = **0.40%**"), md);
        assertTrue(md.contains("| 0.003 (0.01 s) | –"), md);
        assertTrue(md.contains("| 0.625 (2.50 s) | –"), md);
        assertTrue(md.contains("| 8 | 0.20× | 0.60× | 0.90× | 0.95× | – |"), md);
        // per round: 900/1000, 1140/1200, 1100/1100 (not the ratio of the medians, 1100/1100)
        assertTrue(md.contains("Open-time confinement, MB/s round by round (median, min–max): nginx static with "
                + "`disable_symlinks on from=` / nginx static = **0.95×** (0.90–1.00 over 3 rounds)."), md);
        // rounds paired by number, whatever the order of the lines: 2400/3000, 1800/2000
        assertTrue(md.contains("Open-time confinement, requests/s round by round (median, min–max): nginx static "
                + "with `disable_symlinks on from=` / nginx static = concurrency 8 **0.95×** (1 round); concurrency 1 "
                + "(not judged) **0.85×** (0.80–0.90 over 2 rounds)."), md);
        assertTrue(md.contains("| (8) nginx static + disable_symlinks, no auth | 1,100 (900–1,140) |"), md);
        assertTrue(md.contains("| 8 | 24,000 | 24 | 0.100% |"), md);
        assertTrue(md.contains("cached decisions ≥ 0.7× nginx static: **missed** (0.60×); signed links ≥ 0.85× nginx "
                + "static: met (0.90×)"), md);
        assertTrue(md.contains("```nginx\nevents {}\n```"), md);
        assertTrue(md.contains("| mapped | 2,901 | – | 1,900 ✗ | 4.00 ✗ | statx 3.00, access 1.00 |"), md);
        assertTrue(md.contains("| mapped-confines | 1,800 | – | 900 | 2.00 | – |"), md);
        String chart = Files.readString(svg, StandardCharsets.UTF_8);
        assertTrue(chart.startsWith("<svg xmlns=\"http://www.w3.org/2000/svg\""), chart);
        assertTrue(chart.contains(">1,020</text>"), chart);
    }

    @Test
    void deepSetsHaveTheirTableAndEverySizeItsHeadlineWithCpuConcurrencyOneNotJudged(@TempDir Path dir)
            throws Exception {
        Path raw = dir.resolve("raw.tsv");
        Files.writeString(raw, String.join("\n",
                "small-c1\ttomcat\t1\trps\t5000", "small-c1\tdefault\t1\trps\t4000",
                "small-c1\ttomcat\t1\tserver_us_per_req\t80", "small-c1\ttomcat-nio\t1\trps\t4500",
                "small-c1\tdefault\t1\tserver_us_per_req\t100",
                "small-8K-deep-c8\ttomcat\t1\torder\t2", "small-8K-deep-c8\ttomcat\t1\trps\t12000",
                "small-8K-deep-c8\ttomcat\t1\tp50_ms\t0.5", "small-8K-deep-c8\ttomcat\t1\tp99_ms\t2",
                "small-8K-deep-c8\ttomcat\t1\tserver_us_per_req\t60",
                "small-8K-deep-c8\ttomcat-nio\t1\trps\t9000",
                "small-8K-deep-c8\ttomcat-nio\t1\tserver_us_per_req\t90",
                "small-8K-deep-c8\tdefault\t1\torder\t1", "small-8K-deep-c8\tdefault\t1\trps\t10000",
                "small-8K-deep-c8\tdefault\t1\tserver_us_per_req\t75", ""), StandardCharsets.UTF_8);
        Path meta = dir.resolve("meta.env");
        Files.writeString(meta, "date=2026-12-02\nrounds=1\nseed=99\nlabel.small-8K-deep-c8=8K three directories "
                + "deep, c=8\n", StandardCharsets.UTF_8);
        Path conf = dir.resolve("nginx.conf");
        Files.writeString(conf, "events {}\n", StandardCharsets.UTF_8);
        Path out = dir.resolve("r.md");
        Report.write(raw, meta, conf, null, null, out, dir.resolve("r.svg"));
        String md = Files.readString(out, StandardCharsets.UTF_8);
        assertTrue(md.contains("(order shuffled per round, seed 99: `--seed 99` measures in the same order;"), md);
        assertTrue(md.contains("### 8K files three directories below the root"), md);
        assertTrue(md.contains("| 8 | (1) Tomcat serves it (filter, offload=never, xaccel connector) | 12,000 | 0.50 |"
                + " 2.00 | 60.0 |"), md);
        assertTrue(md.contains("| 8 | (15) (1) on stock NIO (without the xaccel connector) | 9,000 | – | – | 90.0 |"),
                md);
        // 12000/10000 faster, CPU 75/60 = 1.25: the filter direct needs less than DefaultServlet
        // server CPU first, throughput beside it; one round decides nothing
        assertTrue(md.contains("| " + HeadlineRatios.DIRECT_LINE + " | 8K three directories deep, c=8 | **1.25×** (1"
                + " round) | ≥ 1.00×: undecided ⚠ one round: spread unknown | **1.20×** (1 round) | ≥ 1.00×:"
                + " undecided ⚠ one round: spread unknown |"), md);
        assertTrue(md.contains("| " + HeadlineRatios.NIO_LINE + " | 8K three directories deep, c=8 | **0.83×**"), md);
        assertTrue(md.contains("| " + HeadlineRatios.DIRECT_LINE + " | small files, concurrency 1 | **1.25×** (1 round)"
                + " | ≥ 1.00×: reported, not judged (c=1) | **1.25×** (1 round) | ≥ 1.00×: reported, not judged (c=1)"
                + " |"), md);
        assertTrue(md.contains("| 1 (not judged) | (1) Tomcat serves it"), md);
        // the chart: the files at the top, every setup (the 15th too)
        String chart = Files.readString(dir.resolve("r.svg"), StandardCharsets.UTF_8);
        assertTrue(chart.contains(">4,500</text>"), chart);
        assertFalse(chart.contains(">12,000</text>"), "the deep sets are not in the chart");
    }
}
