package dev.xaccel.bench.system;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Turns perf's text output into the summary lines of the report ({@code "  12.34%  what"}, largest first). */
public final class PerfSummary {

    private static final Pattern REPORT_LINE = Pattern.compile("^\\s*([0-9.]+)%\\s+(.*)$");

    private PerfSummary() {
    }

    /**
     * Samples by process from {@code perf script -F comm,pid} ({@code comm pid} per line): the Tomcat JVM split by
     * thread kind, nginx, wrk, idle, everything else.
     */
    public static List<String> byProcess(String perfScript, long jvmPid, Set<Long> nginxPids) {
        Map<String, Double> counts = new LinkedHashMap<>();
        int n = 0;
        for (String line : perfScript.lines().toList()) {
            String[] f = line.trim().split("\\s+");
            if (f.length < 2 || !f[f.length - 1].matches("[0-9]+")) {
                continue;
            }
            long pid = Long.parseLong(f[f.length - 1]);
            String comm = String.join(" ", List.of(f).subList(0, f.length - 1));
            counts.merge(kind(comm, pid, jvmPid, nginxPids), 1.0, Double::sum);
            n++;
        }
        int total = n;
        counts.replaceAll((k, v) -> 100 * v / total);
        return lines(counts);
    }

    private static String kind(String comm, long pid, long jvmPid, Set<Long> nginxPids) {
        if (pid == jvmPid) {
            if (comm.matches("^(http-nio|NioBlockingSel).*") || comm.contains("Poller") || comm.contains("Acceptor")
                    || comm.contains("exec-")) {
                return "Tomcat JVM: connector and request threads";
            }
            if (comm.matches("^C[12] CompilerThre.*")) {
                return "Tomcat JVM: JIT compiler threads";
            }
            if (comm.startsWith("GC Thread") || comm.startsWith("G1 ")) {
                return "Tomcat JVM: GC threads";
            }
            return "Tomcat JVM: other threads";
        }
        if (nginxPids.contains(pid)) {
            return "nginx (master + workers)";
        }
        if (comm.equals("wrk")) {
            return "wrk (the client)";
        }
        if (pid == 0) {
            return "idle";
        }
        return "other processes (incl. other builds on this machine)";
    }

    /**
     * Shares by binary from {@code perf report --stdio --sort dso,sym} ({@code pct dso [k|.] symbol} lines), with
     * JIT-compiled frames as one entry; entries of at least 0.5%, at most {@code limit}. perf's own
     * {@code --sort dso} drops the kernel here, hence the sum over symbols.
     */
    public static List<String> byBinary(String perfReport, int limit) {
        Map<String, Double> sums = new LinkedHashMap<>();
        for (String line : perfReport.lines().toList()) {
            Matcher m = REPORT_LINE.matcher(line);
            if (!m.matches()) {
                continue;
            }
            String dso = m.group(2).replaceFirst(" +\\[[k.]\\] .*", "").replaceFirst("^\\[JIT\\].*",
                    "[JIT] compiled Java");
            sums.merge(dso, Double.parseDouble(m.group(1)), Double::sum);
        }
        sums.values().removeIf(v -> v < 0.5);
        List<String> l = lines(sums);
        return l.subList(0, Math.min(limit, l.size()));
    }

    private static List<String> lines(Map<String, Double> shares) {
        List<Map.Entry<String, Double>> e = new ArrayList<>(shares.entrySet());
        e.sort(Map.Entry.<String, Double>comparingByValue(Comparator.reverseOrder())
                .thenComparing(Map.Entry.comparingByKey(Comparator.reverseOrder())));
        List<String> out = new ArrayList<>();
        for (Map.Entry<String, Double> x : e) {
            out.add(String.format(Locale.ROOT, "  %6.2f%%  %s", x.getValue(), x.getKey()));
        }
        return out;
    }
}
