package dev.xaccel.bench.report;

import java.util.Collections;
import java.util.List;
import java.util.Map;

import dev.xaccel.bench.workload.AcceptShapes;

/** The report's section of {@link AcceptShapes}: per shape, acceptFilter=none against TCP_DEFER_ACCEPT. */
final class AcceptShapesReport {

    private AcceptShapesReport() {
    }

    /**
     * @param data    workload → setup → metric → values in round order (the report's)
     * @param byRound workload → setup → metric → round → value
     * @return the section, or "" when the shapes were not measured
     */
    static String markdown(Map<String, Map<String, Map<String, List<Double>>>> data,
            Map<String, Map<String, Map<String, Map<Integer, Double>>>> byRound) {
        StringBuilder md = new StringBuilder();
        for (AcceptShapes.Shape s : AcceptShapes.SHAPES) {
            Map<String, Map<String, List<Double>>> w = data.get(s.workload());
            if (w == null) {
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
                        .append("| shape | connector | req/s | p99 ms | JVM CPU µs/req | wake-ups/req | failed connects |")
                        .append("\n|---|---|---:|---:|---:|---:|---:|\n");
            }
            for (String kind : List.of("plain", "defer")) {
                if (!w.containsKey(kind)) {
                    continue;
                }
                Map<String, List<Double>> m = w.get(kind);
                md.append("| ").append(s.label()).append(" | ")
                        .append(kind.equals("plain") ? "acceptFilter=none" : "TCP_DEFER_ACCEPT").append(" | ")
                        .append(cell(m.get("rps"), 0)).append(" | ").append(cell(m.get("p99_ms"), 2)).append(" | ")
                        .append(cell(m.get("jvm_us_per_req"), 1)).append(" | ")
                        .append(cell(m.get("wakeups_per_req"), 2)).append(" | ")
                        .append(cell(m.get("failures"), 0)).append(" |\n");
            }
        }
        if (md.length() == 0) {
            return "";
        }
        md.append("\n| shape | article (httpready, FreeBSD) | req/s defer ÷ none, round by round | JVM CPU per request ")
                .append("defer ÷ none | wake-ups per request defer ÷ none |\n|---|---:|---:|---:|---:|\n");
        for (AcceptShapes.Shape s : AcceptShapes.SHAPES) {
            Map<String, Map<String, Map<Integer, Double>>> w = byRound.get(s.workload());
            if (w == null || !w.containsKey("plain") || !w.containsKey("defer")) {
                continue;
            }
            md.append("| ").append(s.label()).append(" | ").append(Report.fmt(s.article(), 2)).append("× | ")
                    .append(ratios(w, "rps").cell(1.0)).append(" | ").append(ratios(w, "jvm_us_per_req").cell(1.0))
                    .append(" | ").append(ratios(w, "wakeups_per_req").cell(1.0)).append(" |\n");
        }
        String calls = calls(data);
        if (!calls.isEmpty()) {
            md.append("\nSystem calls of the Tomcat JVM per request (`strace -c -f -p`, one extra traced run of ")
                    .append(AcceptShapes.STRACE_SECONDS).append(" s per shape and connector; its rate is not used):\n\n")
                    .append(calls);
        }
        return md.append('\n').toString();
    }

    private static RoundRatios ratios(Map<String, Map<String, Map<Integer, Double>>> w, String metric) {
        Map<Integer, Double> a = new java.util.LinkedHashMap<>(w.get("defer").getOrDefault(metric, Map.of()));
        Map<Integer, Double> b = new java.util.LinkedHashMap<>(w.get("plain").getOrDefault(metric, Map.of()));
        a.remove(0); // round 0 is the traced run
        b.remove(0);
        return RoundRatios.of(a, b);
    }

    private static String calls(Map<String, Map<String, Map<String, List<Double>>>> data) {
        StringBuilder t = new StringBuilder();
        for (AcceptShapes.Shape s : AcceptShapes.SHAPES) {
            Map<String, Map<String, List<Double>>> w = data.get(s.workload());
            if (w == null) {
                continue;
            }
            for (String kind : List.of("plain", "defer")) {
                Map<String, List<Double>> m = w.get(kind);
                if (m == null || !m.containsKey("sc_all")) {
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
                        .append(Report.fmt(m.get("sc_all").get(0), 1)).append(" |");
                for (String c : AcceptShapes.CALLS) {
                    List<Double> v = m.get("sc_" + c);
                    t.append(' ').append(v == null ? "–" : Report.fmt(v.get(0), 2)).append(" |");
                }
                List<Double> o = m.get("sc_other");
                t.append(' ').append(o == null ? "–" : Report.fmt(o.get(0), 2)).append(" |\n");
            }
        }
        return t.toString();
    }

    /** "median (min–max)", "median" for one value, "–" for none. */
    private static String cell(List<Double> v, int decimals) {
        if (v == null || v.isEmpty()) {
            return "–";
        }
        String m = Report.fmt(Report.median(v), decimals);
        return v.size() == 1 ? m : m + " (" + Report.fmt(Collections.min(v), decimals) + "–"
                + Report.fmt(Collections.max(v), decimals) + ")";
    }
}
