package dev.xaccel.bench.report;

import java.util.List;
import java.util.Map;

import dev.xaccel.bench.workload.AcceptShapes;

/** Seed 001's shapes ({@link AcceptShapes}): per shape, acceptFilter=none against TCP_DEFER_ACCEPT. */
final class AcceptShapesSection {

    private static final List<String> KINDS = List.of("plain", "defer");

    private AcceptShapesSection() {
    }

    /** The section, or "" when the shapes were not measured. */
    static String markdown(Measurements data) {
        StringBuilder md = new StringBuilder();
        for (AcceptShapes.Shape s : AcceptShapes.SHAPES) {
            String w = s.workload();
            if (data.setups(w).isEmpty()) {
                continue;
            }
            if (md.length() == 0) {
                md.append("## Seed 001: the accept-filter article's shapes against Tomcat NIO\n\n")
                        .append("One request per connection (like `ab` without `-k`), closed loop, the bare servlet's ")
                        .append("empty 200 on the two accept-filter connectors (`acceptFilter=none` and `httpready` = ")
                        .append("`TCP_DEFER_ACCEPT`). A LAN client is emulated by a ")
                        .append(AcceptShapes.LAN_PAUSE_US).append(" µs pause between its established connection and ")
                        .append("its request. CPU = the Tomcat JVM's utime+stime per request; wake-ups = context ")
                        .append("switches of all its threads per request (`/proc/<pid>/task/*/status`). ")
                        .append("Cells: median (min–max) over rounds.\n\n")
                        .append("| shape | connector | req/s | p99 ms | JVM CPU µs/req | wake-ups/req "
                                + "| failed connects |")
                        .append("\n|---|---|---:|---:|---:|---:|---:|\n");
            }
            for (String kind : KINDS) {
                if (!data.setups(w).contains(kind)) {
                    continue;
                }
                md.append("| ").append(s.label()).append(" | ")
                        .append(kind.equals("plain") ? "acceptFilter=none" : "TCP_DEFER_ACCEPT").append(" | ")
                        .append(data.cell(w, kind, "rps", 0)).append(" | ").append(data.cell(w, kind, "p99_ms", 2))
                        .append(" | ").append(data.cell(w, kind, "jvm_us_per_req", 1)).append(" | ")
                        .append(data.cell(w, kind, "wakeups_per_req", 2)).append(" | ")
                        .append(data.cell(w, kind, "failures", 0)).append(" |\n");
            }
        }
        if (md.length() == 0) {
            return "";
        }
        md.append("\n| shape | article (httpready, FreeBSD) | req/s defer ÷ none, round by round "
                + "| JVM CPU per request ")
                .append("defer ÷ none | wake-ups per request defer ÷ none |\n|---|---:|---:|---:|---:|\n");
        for (AcceptShapes.Shape s : AcceptShapes.SHAPES) {
            if (!data.setups(s.workload()).containsAll(KINDS)) {
                continue;
            }
            md.append("| ").append(s.label()).append(" | ").append(Stats.fmt(s.article(), 2)).append("× | ")
                    .append(ratios(data, s.workload(), "rps").cell(1.0)).append(" | ")
                    .append(ratios(data, s.workload(), "jvm_us_per_req").cell(1.0)).append(" | ")
                    .append(ratios(data, s.workload(), "wakeups_per_req").cell(1.0)).append(" |\n");
        }
        String calls = calls(data);
        if (!calls.isEmpty()) {
            md.append("\nSystem calls of the Tomcat JVM per request (`strace -c -f -p`, one extra traced run of ")
                    .append(AcceptShapes.STRACE_SECONDS)
                    .append(" s per shape and connector; its rate is not used):\n\n")
                    .append(calls);
        }
        return md.append('\n').toString();
    }

    /** defer over plain, round by round, without round 0 (the traced run). */
    private static RoundRatios ratios(Measurements data, String workload, String metric) {
        Map<Integer, Double> a = data.byRound(workload, "defer", metric);
        Map<Integer, Double> b = data.byRound(workload, "plain", metric);
        a.remove(0);
        b.remove(0);
        return RoundRatios.of(a, b);
    }

    private static String calls(Measurements data) {
        StringBuilder t = new StringBuilder();
        for (AcceptShapes.Shape s : AcceptShapes.SHAPES) {
            for (String kind : KINDS) {
                List<Double> all = data.values(s.workload(), kind, "sc_all");
                if (all.isEmpty()) {
                    continue;
                }
                if (t.length() == 0) {
                    t.append("| shape | connector | all |");
                    AcceptShapes.CALLS.forEach(c -> t.append(' ').append(c).append(" |"));
                    t.append(" other |\n|---|---|---:|").append("---:|".repeat(AcceptShapes.CALLS.size() + 1))
                            .append('\n');
                }
                t.append("| ").append(s.label()).append(" | ")
                        .append(kind.equals("plain") ? "none" : "TCP_DEFER_ACCEPT").append(" | ")
                        .append(Stats.fmt(all.get(0), 1)).append(" |");
                for (String c : AcceptShapes.CALLS) {
                    t.append(' ').append(first(data.values(s.workload(), kind, "sc_" + c))).append(" |");
                }
                t.append(' ').append(first(data.values(s.workload(), kind, "sc_other"))).append(" |\n");
            }
        }
        return t.toString();
    }

    private static String first(List<Double> v) {
        return v.isEmpty() ? "–" : Stats.fmt(v.get(0), 2);
    }
}
