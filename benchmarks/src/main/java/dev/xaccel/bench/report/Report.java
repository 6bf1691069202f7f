package dev.xaccel.bench.report;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * The results page of a run and its chart, from the raw measurements ({@code .tsv}), the run's facts
 * ({@link Meta}), the nginx configuration as run, and, when measured, JMH's CSV and the perf summary. The page is
 * its sections in a fixed order; each section is left out when its workload was not measured.
 */
public final class Report {

    private final Measurements data;
    private final Meta meta;

    private Report(Measurements data, Meta meta) {
        this.data = data;
        this.meta = meta;
    }

    /**
     * Writes the results page {@code out} and its chart {@code svg}; {@code jmhCsv} and {@code perfText} may be
     * null or absent.
     */
    public static void write(Path raw, Path metaFile, Path nginxConfFile, Path jmhCsv, Path perfText, Path out,
            Path svg) throws IOException {
        Report r = new Report(Measurements.read(raw), Meta.read(metaFile));
        String nginxConf = Files.readString(nginxConfFile, StandardCharsets.UTF_8);
        String perf = perfText != null && Files.exists(perfText) ? Files.readString(perfText, StandardCharsets.UTF_8)
                : "";
        Files.writeString(svg, Chart.svg(r.data, r.meta), StandardCharsets.UTF_8);
        Files.writeString(out, r.markdown(nginxConf, HotPathSection.readJmh(jmhCsv), perf,
                svg.getFileName().toString()), StandardCharsets.UTF_8);
    }

    private String markdown(String nginxConf, List<String[]> jmh, String perf, String svgName) {
        StringBuilder md = new StringBuilder();
        md.append("# xaccel benchmark — ").append(meta.get("date", "?"));
        if ("1".equals(meta.get("quick"))) {
            md.append(" (--quick smoke run: sizes and durations too small for conclusions)");
        }
        md.append("\n\n");
        md.append("Command: `").append(meta.get("command", "benchmarks/run")).append("` — ")
                .append(meta.get("rounds", "?")).append(" rounds, setups alternated within each round ")
                .append(meta.get("seed") == null ? "(order rotated per round)" : "(order shuffled per round, seed "
                        + meta.get("seed") + ": `--seed " + meta.get("seed") + "` measures in the same order; each "
                        + "measurement's place in its round is the `order` metric of the .tsv)")
                .append(". Cells: median (min–max) over rounds.\n\n");
        if (meta.get("expected") != null) {
            md.append("Expected duration: ").append(meta.get("expected")).append("; actual: ")
                    .append(meta.get("param.time", "?")).append(".\n\n");
        }
        md.append("![chart](").append(svgName).append(")\n\n");
        String load = meta.get("load_before");
        if (load != null) {
            md.append("Load average before the run: ").append(load).append("; after: ")
                    .append(meta.get("load_after", "?")).append(". ").append(meta.get("load_note", ""))
                    .append("\n\n");
        }
        md.append(HeadlineRatios.markdown(data::roundRatios, data.setupsByWorkload(), meta.withPrefix("label.")))
                .append(LargeFileSection.markdown(data, meta))
                .append(SmallFileSection.markdown(data, meta))
                .append(ReceiptSection.markdown(data))
                .append(SpreadSection.markdown(data))
                .append(RemoteSection.markdown(data, meta));
        if (!perf.isBlank()) {
            md.append("### Where the time goes (perf, small files)\n\n")
                    .append("`perf record -e cpu-clock -F 499 -a` during one extra wrk run per setup (not part of the ")
                    .append("tables); percentages are of all samples on both cores, so they include the client ")
                    .append("(wrk) and any other process on the machine. JIT-compiled Java frames are named through ")
                    .append("`jcmd <pid> Compiler.perfmap`.\n\n```\n").append(perf.strip()).append("\n```\n\n");
        }
        md.append(AcceptFilterSection.markdown(data, meta))
                .append(AcceptShapesSection.markdown(data))
                .append(VirtualThreadsSection.markdown(data, meta.get("threads_note")))
                .append(HotPathSection.markdown(data, meta, jmh));
        table(md.append("## Machine\n\n| fact | value |\n|---|---|\n"), meta.withPrefix("machine."));
        table(md.append("\n## Parameters\n\n| parameter | value |\n|---|---|\n"), meta.withPrefix("param."));
        md.append("\n## Tomcat side\n\n").append(meta.get("tomcat_setup", "")).append("\n\n");
        if (!meta.get("filter_counters", "").isEmpty()) {
            md.append("XAccelFilter MBean counters at the end of the run (non-zero only): ")
                    .append(meta.get("filter_counters")).append(".\n\n");
        }
        md.append("## nginx configuration (exact)\n\n```nginx\n").append(nginxConf.strip()).append("\n```\n");
        return md.toString();
    }

    private static void table(StringBuilder md, Map<String, String> rows) {
        rows.forEach((k, v) -> md.append("| ").append(k).append(" | ").append(v.replace("|", "\\|")).append(" |\n"));
    }
}
