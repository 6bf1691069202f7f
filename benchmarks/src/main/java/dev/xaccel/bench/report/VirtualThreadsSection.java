package dev.xaccel.bench.report;

import java.util.List;
import java.util.Set;

import dev.xaccel.bench.workload.VirtualThreadsWorkload;

/** The section of {@link VirtualThreadsWorkload}: platform against virtual threads, direct serving. */
final class VirtualThreadsSection {

    private static final List<String> KINDS = List.of(VirtualThreadsWorkload.PLATFORM, VirtualThreadsWorkload.VIRTUAL);

    private VirtualThreadsSection() {
    }

    /** @param note what the workload said (the JDK, or why it was skipped) */
    static String markdown(Measurements data, String note) {
        Set<String> ws = data.workloads(VirtualThreadsWorkload.PREFIX);
        if (ws.isEmpty()) {
            return note == null || note.isBlank() ? "" : "## Virtual threads (Tomcat useVirtualThreads)\n\n" + note
                    + "\n\n";
        }
        StringBuilder md = new StringBuilder("## Virtual threads (Tomcat useVirtualThreads)\n\n")
                .append("A second Tomcat JVM with two NIO connectors on the same contexts: the default pool of 200 ")
                .append("platform threads, and `useVirtualThreads=true`. wrk fetches the small files from `/stream/` ")
                .append("(XAccelFilter serving them itself), alone and while ")
                .append(VirtualThreadsWorkload.SLOW_CLIENTS)
                .append(" slow clients hold connections (half idle, half sending one byte per second). ")
                .append(note == null ? "" : note).append(" Cells: median (min–max) over rounds.\n\n")
                .append("| scenario | threads | req/s | p99 ms | JVM CPU µs/req | JVM threads | RSS MiB |\n")
                .append("|---|---|---:|---:|---:|---:|---:|\n");
        for (String w : ws) {
            for (String kind : KINDS) {
                if (!data.setups(w).contains(kind)) {
                    continue;
                }
                md.append("| ").append(label(w)).append(" | ").append(kind).append(" | ")
                        .append(data.cell(w, kind, "rps", 0)).append(" | ").append(data.cell(w, kind, "p99_ms", 2))
                        .append(" | ").append(data.cell(w, kind, "jvm_us_per_req", 1)).append(" | ")
                        .append(data.cell(w, kind, "threads", 0)).append(" | ").append(data.cell(w, kind, "rss_mib", 0))
                        .append(" |\n");
            }
        }
        md.append("\n| scenario | req/s virtual ÷ platform, round by round "
                + "| JVM CPU per request virtual ÷ platform |\n")
                .append("|---|---:|---:|\n");
        for (String w : ws) {
            if (!data.setups(w).containsAll(KINDS)) {
                continue;
            }
            md.append("| ").append(label(w)).append(" | ").append(ratio(data, w, "rps").cell(1.0)).append(" | ")
                    .append(ratio(data, w, "jvm_us_per_req").cell(1.0)).append(" |\n");
        }
        return md.append('\n').toString();
    }

    private static RoundRatios ratio(Measurements data, String workload, String metric) {
        return data.roundRatios(workload, metric, VirtualThreadsWorkload.VIRTUAL, VirtualThreadsWorkload.PLATFORM);
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
}
