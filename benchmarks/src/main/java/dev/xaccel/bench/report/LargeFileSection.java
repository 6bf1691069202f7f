package dev.xaccel.bench.report;

import java.util.Set;

import dev.xaccel.bench.run.Setup;

/**
 * The large-file tables: MB/s and the servers' CPU per GB per setup, the ratios of issue 5 and their targets, and
 * what the open-time confinement costs (setup 8 over setup 4, round by round).
 */
final class LargeFileSection {

    /** What the confinement ratio lines call setup 8 over setup 4. */
    static final String CONFINEMENT = "nginx static with `disable_symlinks on from=` / nginx static";

    private LargeFileSection() {
    }

    static String markdown(Measurements data, Meta meta) {
        Set<String> ws = data.workloads("large-");
        if (ws.isEmpty()) {
            return "";
        }
        StringBuilder md = new StringBuilder();
        md.append("## Large file (").append(meta.get("param.size", "?")).append(")\n\n");
        md.append("Throughput = bytes delivered / wall time of the batch (MB = 10⁶ bytes; Mbit/s = MB/s × 8). ")
                .append("CPU = utime+stime from /proc/<pid>/stat of the JVM and of nginx (master + workers), ")
                .append("seconds per GB (10⁹ bytes) delivered, summed over all rounds (the counters tick every ")
                .append("10 ms, so one round alone is too coarse for the offloaded setup), with the JVM's total ")
                .append("seconds in brackets; curl's CPU is not counted.\n\n");
        for (String w : ws) {
            md.append("### ").append(meta.label(w)).append("\n\n");
            md.append("| setup | MB/s | Mbit/s | JVM CPU s/GB | nginx CPU s/GB |\n|---|---:|---:|---:|---:|\n");
            for (Setup s : data.setupsIn(w)) {
                md.append("| ").append(s.label()).append(" | ").append(data.cell(w, s.id(), "MBps", 0)).append(" | ")
                        .append(Stats.fmt(data.median(w, s.id(), "MBps") * 8, 0)).append(" | ")
                        .append(cpuCell(data, w, s.id(), "jvm_s")).append(" | ")
                        .append(cpuCell(data, w, s.id(), "nginx_s")).append(" |\n");
            }
            md.append("\nRatios of medians: xaccel / nginx static = **")
                    .append(data.ratio(w, "MBps", "xaccel", "static"))
                    .append("**, xaccel / nginx-proxied streaming = **")
                    .append(data.ratio(w, "MBps", "xaccel", "proxied"))
                    .append("**, xaccel / Tomcat direct = ").append(data.ratio(w, "MBps", "xaccel", "tomcat"))
                    .append(", Tomcat direct / nginx-proxied = ").append(data.ratio(w, "MBps", "tomcat", "proxied"));
            double jx = data.perGB(w, "xaccel", "jvm_s");
            double jp = data.perGB(w, "proxied", "jvm_s");
            if (!Double.isNaN(jx) && !Double.isNaN(jp) && jp > 0) {
                md.append(", JVM CPU per GB xaccel / proxied streaming = **").append(Stats.fmt(100 * jx / jp, 2))
                        .append("%**");
            }
            md.append(".\n\n");
            if (data.setups(w).containsAll(Set.of("confined", "static"))) {
                md.append("Open-time confinement, MB/s round by round (median, min–max): ").append(CONFINEMENT)
                        .append(" = ").append(data.roundRatios(w, "MBps", "confined", "static").cell())
                        .append(".\n\n");
            }
        }
        md.append("Targets (reported, not asserted):\n\n");
        for (String w : ws) {
            double xs = data.median(w, "xaccel", "MBps") / data.median(w, "static", "MBps");
            double xp = data.median(w, "xaccel", "MBps") / data.median(w, "proxied", "MBps");
            double cpu = data.perGB(w, "xaccel", "jvm_s") / data.perGB(w, "proxied", "jvm_s");
            md.append("- ").append(meta.label(w)).append(": xaccel ≥ 0.9× nginx static: ")
                    .append(Stats.verdict(xs, 0.9, true)).append("; ≥ 2× nginx-proxied streaming: ")
                    .append(Stats.verdict(xp, 2.0, true)).append("; JVM CPU per GB < 2% of streaming: ")
                    .append(Stats.verdict(cpu, 0.02, false)).append('\n');
        }
        return md.append('\n').toString();
    }

    /** CPU seconds per GB over all rounds, with the total seconds. */
    private static String cpuCell(Measurements data, String w, String s, String metric) {
        double perGB = data.perGB(w, s, metric);
        if (Double.isNaN(perGB)) {
            return "–";
        }
        return Stats.fmt(perGB, 3) + " (" + Stats.fmt(data.sum(w, s, metric), 2) + " s)";
    }
}
