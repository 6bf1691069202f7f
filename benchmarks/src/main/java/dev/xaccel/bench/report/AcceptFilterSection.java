package dev.xaccel.bench.report;

import java.util.List;
import java.util.Set;

/**
 * The accept-filter workload: normal clients against {@code acceptFilter=none} and {@code TCP_DEFER_ACCEPT}, without
 * and with misbehaving clients, and the rate of the one over the other.
 */
final class AcceptFilterSection {

    private AcceptFilterSection() {
    }

    static String markdown(Measurements data, Meta meta) {
        Set<String> ws = data.workloads("accept-");
        if (ws.isEmpty()) {
            return "";
        }
        StringBuilder md = new StringBuilder("## Accept filter (Linux TCP_DEFER_ACCEPT)\n\n")
                .append(meta.get("accept_note", ""))
                .append("\n\n| scenario | connector | req/s | p99 ms | max connectionCount | max busy threads |")
                .append(" flood connected | SYN-RECV (kernel) |\n|---|---|---:|---:|---:|---:|---:|---:|\n");
        for (String w : ws) {
            for (String s : List.of("plain", "defer")) {
                if (!data.setups(w).contains(s)) {
                    continue;
                }
                md.append("| ").append(meta.label(w)).append(" | ")
                        .append("plain".equals(s) ? "acceptFilter=none" : "TCP_DEFER_ACCEPT").append(" | ")
                        .append(data.cell(w, s, "rps", 0)).append(" | ").append(data.cell(w, s, "p99_ms", 2))
                        .append(" | ").append(data.cell(w, s, "maxConnectionCount", 0)).append(" | ")
                        .append(data.cell(w, s, "maxBusyThreads", 0)).append(" | ")
                        .append(data.cell(w, s, "flood_connected", 0)).append(" | ")
                        .append(data.cell(w, s, "syn_recv", 0)).append(" |\n");
            }
        }
        md.append("\n| scenario | req/s with / without TCP_DEFER_ACCEPT |\n|---|---:|\n");
        for (String w : ws) {
            md.append("| ").append(meta.label(w)).append(" | ").append(data.ratio(w, "rps", "defer", "plain"))
                    .append(" |\n");
        }
        return md.append('\n').toString();
    }
}
