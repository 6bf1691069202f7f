package dev.xaccel.bench.report;

import java.util.Collections;
import java.util.List;
import java.util.Map;

import dev.xaccel.bench.workload.VirtualThreadsWorkload;

/** The report's section of {@link VirtualThreadsWorkload}: platform against virtual threads, direct serving. */
final class VirtualThreadsReport {

    private VirtualThreadsReport() {
    }

    /**
     * @param data    workload → setup → metric → values in round order
     * @param byRound workload → setup → metric → round → value
     * @param note    what the workload said (the JDK, or why it was skipped)
     */
    static String markdown(Map<String, Map<String, Map<String, List<Double>>>> data,
            Map<String, Map<String, Map<String, Map<Integer, Double>>>> byRound, String note) {
        List<String> ws = data.keySet().stream().filter(w -> w.startsWith(VirtualThreadsWorkload.PREFIX)).toList();
        if (ws.isEmpty()) {
            return note == null || note.isBlank() ? "" : "## Virtual threads (Tomcat useVirtualThreads)\n\n" + note
                    + "\n\n";
        }
        StringBuilder md = new StringBuilder("## Virtual threads (Tomcat useVirtualThreads)\n\n")
                .append("A second Tomcat JVM with two NIO connectors on the same contexts: the default pool of 200 ")
                .append("platform threads, and `useVirtualThreads=true`. wrk fetches the small files from `/stream/` ")
                .append("(XAccelFilter serving them itself), alone and while ").append(VirtualThreadsWorkload.SLOW_CLIENTS)
                .append(" slow clients hold connections (half idle, half sending one byte per second). ")
                .append(note == null ? "" : note).append(" Cells: median (min–max) over rounds.\n\n")
                .append("| scenario | threads | req/s | p99 ms | JVM CPU µs/req | JVM threads | RSS MiB |\n")
                .append("|---|---|---:|---:|---:|---:|---:|\n");
        for (String w : ws) {
            for (String kind : List.of(VirtualThreadsWorkload.PLATFORM, VirtualThreadsWorkload.VIRTUAL)) {
                Map<String, List<Double>> m = data.get(w).get(kind);
                if (m == null) {
                    continue;
                }
                md.append("| ").append(label(w)).append(" | ").append(kind).append(" | ")
                        .append(cell(m.get("rps"), 0)).append(" | ").append(cell(m.get("p99_ms"), 2)).append(" | ")
                        .append(cell(m.get("jvm_us_per_req"), 1)).append(" | ").append(cell(m.get("threads"), 0))
                        .append(" | ").append(cell(m.get("rss_mib"), 0)).append(" |\n");
            }
        }
        md.append("\n| scenario | req/s virtual ÷ platform, round by round | JVM CPU per request virtual ÷ platform |\n")
                .append("|---|---:|---:|\n");
        for (String w : ws) {
            Map<String, Map<String, Map<Integer, Double>>> r = byRound.get(w);
            if (r == null || !r.containsKey(VirtualThreadsWorkload.PLATFORM)
                    || !r.containsKey(VirtualThreadsWorkload.VIRTUAL)) {
                continue;
            }
            md.append("| ").append(label(w)).append(" | ").append(ratio(r, "rps").cell(1.0)).append(" | ")
                    .append(ratio(r, "jvm_us_per_req").cell(1.0)).append(" |\n");
        }
        return md.append('\n').toString();
    }

    private static RoundRatios ratio(Map<String, Map<String, Map<Integer, Double>>> r, String metric) {
        return RoundRatios.of(r.get(VirtualThreadsWorkload.VIRTUAL).getOrDefault(metric, Map.of()),
                r.get(VirtualThreadsWorkload.PLATFORM).getOrDefault(metric, Map.of()));
    }

    /** {@code threads-slow-c64} → "1000 slow clients, concurrency 64". */
    static String label(String workload) {
        String rest = workload.substring(VirtualThreadsWorkload.PREFIX.length());
        int dash = rest.lastIndexOf("-c");
        String scenario = dash < 0 ? rest : rest.substring(0, dash);
        String c = dash < 0 ? "?" : rest.substring(dash + 2);
        return (scenario.equals("slow") ? VirtualThreadsWorkload.SLOW_CLIENTS + " slow clients" : "no slow clients")
                + ", concurrency " + c;
    }

    private static String cell(List<Double> v, int decimals) {
        if (v == null || v.isEmpty()) {
            return "–";
        }
        String m = Report.fmt(Report.median(v), decimals);
        return v.size() == 1 ? m : m + " (" + Report.fmt(Collections.min(v), decimals) + "–"
                + Report.fmt(Collections.max(v), decimals) + ")";
    }
}
