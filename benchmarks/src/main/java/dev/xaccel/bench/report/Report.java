package dev.xaccel.bench.report;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

import dev.xaccel.bench.BenchDriver;
import dev.xaccel.bench.workload.HotPathCounts;

/**
 * Turns the raw measurements of benchmarks/run ({@link BenchDriver}) into the results page and its SVG chart.
 * <p>
 * Input {@code --raw}: tab-separated {@code workload setup round metric value}; {@code --meta}: {@code key=value}
 * lines (machine facts, parameters); {@code --nginx-conf}: the exact nginx configuration; {@code --jmh}: JMH's CSV
 * output (optional). Output: {@code --out} (Markdown) and {@code --svg}.
 */
public final class Report {

    static final Map<String, String> SETUPS = new LinkedHashMap<>();

    static {
        SETUPS.put("tomcat", "(1) Tomcat serves it (filter, offload=never)");
        SETUPS.put("proxied", "(2) nginx proxy_pass → (1), default buffering");
        SETUPS.put("xaccel", "(3) xaccel: nginx + filter, X-Accel-Redirect");
        SETUPS.put("static", "(4) nginx static, no auth");
        SETUPS.put("default", "(5) Tomcat DefaultServlet (sendfile)");
        SETUPS.put("cached", "(6) cached decisions (auth_request + cache)");
        SETUPS.put("signed", "(7) signed links (nginx secure_link)");
        SETUPS.put("confined", "(8) nginx static + disable_symlinks, no auth");
        SETUPS.put("remote-offload", "(9) S3 object: nginx + filter, X-Accel-Redirect to the store");
        SETUPS.put("remote-direct", "(10) S3 object streamed by the filter (Tomcat direct)");
        SETUPS.put("store", "(11) S3 object: presigned GET through nginx, no app");
        SETUPS.put("bare", "(12) nginx + bare X-Accel servlet, no auth");
        SETUPS.put("uds", "(13) xaccel over a Unix domain socket");
        SETUPS.put("sendfile", "(14) (1) with sendfile=true (Tomcat re-opens by name)");
    }

    static final String[] SHORT = {"tomcat", "proxied", "xaccel", "static", "default", "cached", "signed",
        "confined", "remote-offload", "remote-direct", "store", "bare", "uds", "sendfile"};

    /** What the confinement ratio lines call setup 8 over setup 4. */
    private static final String CONFINEMENT = "nginx static with `disable_symlinks on from=` / nginx static";

    /** workload → setup → metric → values in round order. */
    private final Map<String, Map<String, Map<String, List<Double>>>> data = new LinkedHashMap<>();
    /** workload → setup → metric → round → value. */
    private final Map<String, Map<String, Map<String, Map<Integer, Double>>>> byRound = new LinkedHashMap<>();
    private final Map<String, String> meta = new LinkedHashMap<>();

    private Report() {
    }

    public static void main(String[] args) throws IOException {
        Map<String, String> opts = new LinkedHashMap<>();
        for (int i = 0; i + 1 < args.length; i += 2) {
            opts.put(args[i].replaceFirst("^--", ""), args[i + 1]);
        }
        write(Path.of(opts.get("raw")), Path.of(opts.get("meta")), Path.of(opts.get("nginx-conf")),
                opts.containsKey("jmh") ? Path.of(opts.get("jmh")) : null,
                opts.containsKey("perf") ? Path.of(opts.get("perf")) : null, Path.of(opts.get("out")),
                Path.of(opts.get("svg")));
    }

    /**
     * Writes the results page {@code out} and its chart {@code svg} from the raw measurements, the meta data and
     * the nginx configuration; {@code jmh} (JMH's CSV) and {@code perf} (the perf summary) may be null or absent.
     */
    public static void write(Path raw, Path metaFile, Path nginxConfFile, Path jmhCsv, Path perfText, Path out,
            Path svg) throws IOException {
        Report r = new Report();
        r.readRaw(raw);
        r.readMeta(metaFile);
        String nginxConf = Files.readString(nginxConfFile, StandardCharsets.UTF_8);
        List<String[]> jmh = jmhCsv != null && Files.exists(jmhCsv) ? readCsv(jmhCsv) : List.of();
        String perf = perfText != null && Files.exists(perfText) ? Files.readString(perfText, StandardCharsets.UTF_8)
                : "";
        Files.writeString(svg, r.svg(), StandardCharsets.UTF_8);
        Files.writeString(out, r.markdown(nginxConf, jmh, perf, svg.getFileName().toString()), StandardCharsets.UTF_8);
    }

    private void readRaw(Path raw) throws IOException {
        for (String line : Files.readAllLines(raw, StandardCharsets.UTF_8)) {
            if (line.isBlank() || line.startsWith("#")) {
                continue;
            }
            String[] f = line.split("\t");
            if (f.length != 5) {
                throw new IllegalArgumentException("bad raw line: " + line);
            }
            double value = Double.parseDouble(f[4]);
            data.computeIfAbsent(f[0], k -> new LinkedHashMap<>()).computeIfAbsent(f[1], k -> new LinkedHashMap<>())
                    .computeIfAbsent(f[3], k -> new ArrayList<>()).add(value);
            byRound.computeIfAbsent(f[0], k -> new LinkedHashMap<>()).computeIfAbsent(f[1], k -> new LinkedHashMap<>())
                    .computeIfAbsent(f[3], k -> new LinkedHashMap<>()).put(Integer.parseInt(f[2]), value);
        }
    }

    private void readMeta(Path file) throws IOException {
        for (String line : Files.readAllLines(file, StandardCharsets.UTF_8)) {
            int eq = line.indexOf('=');
            if (eq > 0) {
                meta.put(line.substring(0, eq), line.substring(eq + 1));
            }
        }
    }

    private static List<String[]> readCsv(Path file) throws IOException {
        List<String[]> rows = new ArrayList<>();
        for (String line : Files.readAllLines(file, StandardCharsets.UTF_8)) {
            List<String> cells = new ArrayList<>();
            StringBuilder cell = new StringBuilder();
            boolean quoted = false;
            for (char c : line.toCharArray()) {
                if (c == '"') {
                    quoted = !quoted;
                } else if (c == ',' && !quoted) {
                    cells.add(cell.toString());
                    cell.setLength(0);
                } else {
                    cell.append(c);
                }
            }
            cells.add(cell.toString());
            rows.add(cells.toArray(new String[0]));
        }
        return rows;
    }

    // ---------------------------------------------------------------- statistics

    private List<Double> values(String workload, String setup, String metric) {
        return data.getOrDefault(workload, Map.of()).getOrDefault(setup, Map.of()).getOrDefault(metric, List.of());
    }

    static double median(List<Double> v) {
        if (v.isEmpty()) {
            return Double.NaN;
        }
        List<Double> s = new ArrayList<>(v);
        Collections.sort(s);
        int n = s.size();
        return n % 2 == 1 ? s.get(n / 2) : (s.get(n / 2 - 1) + s.get(n / 2)) / 2;
    }

    private double med(String workload, String setup, String metric) {
        return median(values(workload, setup, metric));
    }

    /** "median (min–max)" or "median" when there is one value, "–" when none. */
    private String cell(String workload, String setup, String metric, int decimals) {
        List<Double> v = values(workload, setup, metric);
        if (v.isEmpty()) {
            return "–";
        }
        String m = fmt(median(v), decimals);
        if (v.size() == 1) {
            return m;
        }
        return m + " (" + fmt(Collections.min(v), decimals) + "–" + fmt(Collections.max(v), decimals) + ")";
    }

    static String fmt(double d, int decimals) {
        if (Double.isNaN(d)) {
            return "–";
        }
        return String.format(Locale.ROOT, "%,." + decimals + "f", d);
    }

    private String ratio(String workload, String metric, String a, String b) {
        double x = med(workload, a, metric);
        double y = med(workload, b, metric);
        if (Double.isNaN(x) || Double.isNaN(y) || y == 0) {
            return "–";
        }
        return fmt(x / y, 2) + "×";
    }

    /** Setup a's value over setup b's, round by round. */
    private RoundRatios roundRatios(String workload, String metric, String a, String b) {
        Map<String, Map<String, Map<Integer, Double>>> w = byRound.getOrDefault(workload, Map.of());
        return RoundRatios.of(w.getOrDefault(a, Map.of()).getOrDefault(metric, Map.of()),
                w.getOrDefault(b, Map.of()).getOrDefault(metric, Map.of()));
    }

    /** sum(num) / sum(den) over all rounds: CPU seconds per GB with the resolution of the whole run. */
    private double aggregate(String workload, String setup, String num, String den) {
        double n = 0;
        double d = 0;
        for (double v : values(workload, setup, num)) {
            n += v;
        }
        for (double v : values(workload, setup, den)) {
            d += v;
        }
        return d > 0 && !values(workload, setup, num).isEmpty() ? n / d : Double.NaN;
    }

    private double jvmPerGB(String workload, String setup) {
        return aggregate(workload, setup, "jvm_s", "GB");
    }

    /** workload → the setups measured in it. */
    private Map<String, Set<String>> measuredSetups() {
        Map<String, Set<String>> m = new LinkedHashMap<>();
        data.forEach((w, setups) -> m.put(w, setups.keySet()));
        return m;
    }

    /** workload → its label from the meta data. */
    private Map<String, String> labels() {
        Map<String, String> m = new LinkedHashMap<>();
        meta.forEach((k, v) -> {
            if (k.startsWith("label.")) {
                m.put(k.substring("label.".length()), v);
            }
        });
        return m;
    }

    private Set<String> workloads(String prefix) {
        Set<String> s = new LinkedHashSet<>();
        for (String w : data.keySet()) {
            if (w.startsWith(prefix)) {
                s.add(w);
            }
        }
        return s;
    }

    private List<String> setupsIn(String workload) {
        List<String> s = new ArrayList<>();
        for (String id : SHORT) {
            if (data.getOrDefault(workload, Map.of()).containsKey(id)) {
                s.add(id);
            }
        }
        return s;
    }

    // ---------------------------------------------------------------- markdown

    private String markdown(String nginxConf, List<String[]> jmh, String perf, String svgName) {
        StringBuilder md = new StringBuilder();
        md.append("# xaccel benchmark — ").append(meta.getOrDefault("date", "?"));
        if ("1".equals(meta.get("quick"))) {
            md.append(" (--quick smoke run: sizes and durations too small for conclusions)");
        }
        md.append("\n\n");
        md.append("Command: `").append(meta.getOrDefault("command", "benchmarks/run")).append("` — ")
                .append(meta.getOrDefault("rounds", "?")).append(" rounds, setups alternated within each round ")
                .append("(order rotated per round). Cells: median (min–max) over rounds.\n\n");
        md.append("![chart](").append(svgName).append(")\n\n");
        String load = meta.get("load_before");
        if (load != null) {
            md.append("Load average before the run: ").append(load).append("; after: ")
                    .append(meta.getOrDefault("load_after", "?")).append(". ")
                    .append(meta.getOrDefault("load_note", "")).append("\n\n");
        }

        md.append(HeadlineRatios.markdown(this::roundRatios, measuredSetups(), labels()));
        largeSection(md);
        smallSection(md);
        remoteSection(md);
        if (!perf.isBlank()) {
            md.append("### Where the time goes (perf, small files)\n\n")
                    .append("`perf record -e cpu-clock -F 499 -a` during one extra wrk run per setup (not part of the ")
                    .append("tables); percentages are of all samples on both cores, so they include the client ")
                    .append("(wrk) and any other process on the machine. JIT-compiled Java frames are named through ")
                    .append("`jcmd <pid> Compiler.perfmap`.\n\n```\n").append(perf.strip()).append("\n```\n\n");
        }
        acceptSection(md);
        md.append(AcceptShapesReport.markdown(data, byRound));
        md.append(VirtualThreadsReport.markdown(data, byRound, meta.get("threads_note")));
        jmhSection(md, jmh);
        hotPathSection(md);

        md.append("## Machine\n\n| fact | value |\n|---|---|\n");
        for (Map.Entry<String, String> e : meta.entrySet()) {
            if (e.getKey().startsWith("machine.")) {
                md.append("| ").append(e.getKey().substring("machine.".length())).append(" | ")
                        .append(e.getValue().replace("|", "\\|")).append(" |\n");
            }
        }
        md.append("\n## Parameters\n\n| parameter | value |\n|---|---|\n");
        for (Map.Entry<String, String> e : meta.entrySet()) {
            if (e.getKey().startsWith("param.")) {
                md.append("| ").append(e.getKey().substring("param.".length())).append(" | ")
                        .append(e.getValue().replace("|", "\\|")).append(" |\n");
            }
        }
        md.append("\n## Tomcat side\n\n").append(meta.getOrDefault("tomcat_setup", "")).append("\n\n");
        if (!meta.getOrDefault("filter_counters", "").isEmpty()) {
            md.append("XAccelFilter MBean counters at the end of the run (non-zero only): ")
                    .append(meta.get("filter_counters")).append(".\n\n");
        }
        md.append("## nginx configuration (exact)\n\n```nginx\n").append(nginxConf.strip()).append("\n```\n");
        return md.toString();
    }

    private void largeSection(StringBuilder md) {
        Set<String> ws = workloads("large-");
        if (ws.isEmpty()) {
            return;
        }
        md.append("## Large file (").append(meta.getOrDefault("param.size", "?")).append(")\n\n");
        md.append("Throughput = bytes delivered / wall time of the batch (MB = 10⁶ bytes; Mbit/s = MB/s × 8). ")
                .append("CPU = utime+stime from /proc/<pid>/stat of the JVM and of nginx (master + workers), ")
                .append("seconds per GB (10⁹ bytes) delivered, summed over all rounds (the counters tick every ")
                .append("10 ms, so one round alone is too coarse for the offloaded setup), with the JVM's total ")
                .append("seconds in brackets; curl's CPU is not counted.\n\n");
        for (String w : ws) {
            md.append("### ").append(meta.getOrDefault("label." + w, w)).append("\n\n");
            md.append("| setup | MB/s | Mbit/s | JVM CPU s/GB | nginx CPU s/GB |\n|---|---:|---:|---:|---:|\n");
            for (String s : setupsIn(w)) {
                md.append("| ").append(SETUPS.get(s)).append(" | ").append(cell(w, s, "MBps", 0)).append(" | ")
                        .append(fmt(med(w, s, "MBps") * 8, 0)).append(" | ")
                        .append(cpuCell(w, s, "jvm_s")).append(" | ").append(cpuCell(w, s, "nginx_s"))
                        .append(" |\n");
            }
            md.append("\nRatios of medians: xaccel / nginx static = **").append(ratio(w, "MBps", "xaccel", "static"))
                    .append("**, xaccel / nginx-proxied streaming = **").append(ratio(w, "MBps", "xaccel", "proxied"))
                    .append("**, xaccel / Tomcat direct = ").append(ratio(w, "MBps", "xaccel", "tomcat"))
                    .append(", Tomcat direct / nginx-proxied = ").append(ratio(w, "MBps", "tomcat", "proxied"));
            double jx = jvmPerGB(w, "xaccel");
            double jp = jvmPerGB(w, "proxied");
            if (!Double.isNaN(jx) && !Double.isNaN(jp) && jp > 0) {
                md.append(", JVM CPU per GB xaccel / proxied streaming = **").append(fmt(100 * jx / jp, 2))
                        .append("%**");
            }
            md.append(".\n\n");
            if (setupsIn(w).containsAll(List.of("confined", "static"))) {
                md.append("Open-time confinement, MB/s round by round (median, min–max): ").append(CONFINEMENT)
                        .append(" = ").append(roundRatios(w, "MBps", "confined", "static").cell()).append(".\n\n");
            }
        }
        md.append(targets());
    }

    private String cpuCell(String w, String s, String metric) {
        double perGB = aggregate(w, s, metric, "GB");
        if (Double.isNaN(perGB)) {
            return "–";
        }
        double total = 0;
        for (double v : values(w, s, metric)) {
            total += v;
        }
        return fmt(perGB, 3) + " (" + fmt(total, 2) + " s)";
    }

    private String targets() {
        StringBuilder t = new StringBuilder("Targets (reported, not asserted):\n\n");
        for (String w : workloads("large-")) {
            double xs = med(w, "xaccel", "MBps") / med(w, "static", "MBps");
            double xp = med(w, "xaccel", "MBps") / med(w, "proxied", "MBps");
            double cpu = jvmPerGB(w, "xaccel") / jvmPerGB(w, "proxied");
            String label = meta.getOrDefault("label." + w, w);
            t.append("- ").append(label).append(": xaccel ≥ 0.9× nginx static: ").append(verdict(xs, 0.9, true))
                    .append("; ≥ 2× nginx-proxied streaming: ").append(verdict(xp, 2.0, true))
                    .append("; JVM CPU per GB < 2% of streaming: ").append(verdict(cpu, 0.02, false)).append('\n');
        }
        return t.append('\n').toString();
    }

    private static String verdict(double v, double target, boolean atLeast) {
        if (Double.isNaN(v) || Double.isInfinite(v)) {
            return "n/a";
        }
        boolean ok = atLeast ? v >= target : v < target;
        String shown = target < 0.1 ? fmt(100 * v, 2) + "%" : fmt(v, 2) + "×";
        return (ok ? "met (" : "**missed** (") + shown + ")";
    }

    private void smallSection(StringBuilder md) {
        Set<String> ws = workloads("small-");
        if (ws.isEmpty()) {
            return;
        }
        md.append("## Small files (").append(meta.getOrDefault("param.small", "?")).append(")\n\n");
        md.append("`wrk --latency` with a Lua script that cycles through the files; every request carries the ")
                .append("token (nginx static and signed links ignore it; signed links cycle through 100 signed URLs). CPU per request from /proc like above, in µs.\n\n");
        md.append("| concurrency | setup | req/s | p50 ms | p99 ms | JVM CPU µs/req | nginx CPU µs/req |\n")
                .append("|---:|---|---:|---:|---:|---:|---:|\n");
        for (String w : ws) {
            String c = w.substring(w.lastIndexOf('c') + 1);
            for (String s : setupsIn(w)) {
                md.append("| ").append(c).append(" | ").append(SETUPS.get(s)).append(" | ")
                        .append(cell(w, s, "rps", 0)).append(" | ").append(cell(w, s, "p50_ms", 2)).append(" | ")
                        .append(cell(w, s, "p99_ms", 2)).append(" | ").append(cell(w, s, "jvm_us_per_req", 1))
                        .append(" | ").append(cell(w, s, "nginx_us_per_req", 1)).append(" |\n");
            }
        }
        List<String> others = new ArrayList<>();
        for (String w : ws) {
            for (String s : setupsIn(w)) {
                if (!s.equals("static") && !others.contains(s)) {
                    others.add(s);
                }
            }
        }
        others.sort((a, b) -> Integer.compare(SMALL_ORDER.indexOf(a), SMALL_ORDER.indexOf(b)));
        md.append("\nRequests/s as ratios to nginx static (medians):\n\n| concurrency |");
        for (String s : others) {
            md.append(' ').append(SMALL_NAMES.getOrDefault(s, s)).append(" |");
        }
        md.append(" xaccel / nginx-proxied streaming | xaccel / Tomcat direct |\n|---:|");
        md.append("---:|".repeat(others.size() + 2)).append('\n');
        for (String w : ws) {
            md.append("| ").append(w.substring(w.lastIndexOf('c') + 1)).append(" |");
            for (String s : others) {
                md.append(' ').append(ratio(w, "rps", s, "static")).append(" |");
            }
            md.append(' ').append(ratio(w, "rps", "xaccel", "proxied")).append(" | ")
                    .append(ratio(w, "rps", "xaccel", "tomcat")).append(" |\n");
        }
        if (others.contains("confined")) {
            md.append("\nOpen-time confinement, requests/s round by round (median, min–max): ").append(CONFINEMENT)
                    .append(" =");
            String sep = " ";
            for (String w : ws) {
                md.append(sep).append("concurrency ").append(w.substring(w.lastIndexOf('c') + 1)).append(' ')
                        .append(roundRatios(w, "rps", "confined", "static").cell());
                sep = "; ";
            }
            md.append(".\n");
        }
        boolean cached = others.contains("cached");
        if (cached) {
            md.append("\nCached decisions: requests that reached the application (the `/cached` filter MBean's `Offloaded` ")
                    .append("counter, read before and after each measurement) per client request.\n\n")
                    .append("| concurrency | client requests | backend requests | share |\n|---:|---:|---:|---:|\n");
            for (String w : ws) {
                double client = sum(w, "cached", "requests");
                double backend = sum(w, "cached", "backend_requests");
                md.append("| ").append(w.substring(w.lastIndexOf('c') + 1)).append(" | ").append(fmt(client, 0))
                        .append(" | ").append(fmt(backend, 0)).append(" | ")
                        .append(client > 0 ? fmt(100 * backend / client, 3) + "%" : "–").append(" |\n");
            }
        }
        if (cached || others.contains("signed")) {
            md.append("\nTargets of issue 6 (reported, not asserted):\n\n");
            for (String w : ws) {
                String c = w.substring(w.lastIndexOf('c') + 1);
                md.append("- concurrency ").append(c).append(':');
                if (cached) {
                    md.append(" cached decisions ≥ 0.7× nginx static: ")
                            .append(verdict(med(w, "cached", "rps") / med(w, "static", "rps"), 0.7, true));
                }
                if (others.contains("signed")) {
                    md.append(cached ? ";" : "").append(" signed links ≥ 0.85× nginx static: ")
                            .append(verdict(med(w, "signed", "rps") / med(w, "static", "rps"), 0.85, true));
                }
                md.append('\n');
            }
        }
        md.append('\n');
    }

    private double sum(String workload, String setup, String metric) {
        double t = 0;
        for (double v : values(workload, setup, metric)) {
            t += v;
        }
        return t;
    }

    /** Order of the small-file ratio columns and their names. */
    static final List<String> SMALL_ORDER = List.of("xaccel", "cached", "signed", "proxied", "tomcat", "default",
            "confined", "remote-offload", "remote-direct", "store", "bare", "uds", "sendfile");
    static final Map<String, String> SMALL_NAMES = Map.of("xaccel", "xaccel offload, no caching",
            "cached", "cached decisions", "signed", "signed links", "proxied", "nginx-proxied streaming",
            "tomcat", "Tomcat alone", "default", "Tomcat DefaultServlet", "confined", "nginx static confined",
            "bare", "bare X-Accel servlet", "uds", "xaccel over a Unix socket",
            "sendfile", "filter direct, sendfile=true");

    /**
     * The remote setups (9)–(11), round by round: offload over its limit (the same presigned GET through the same
     * nginx location without the application) and the filter's own streaming over offload, for every workload
     * that measured them.
     */
    private void remoteSection(StringBuilder md) {
        List<String[]> rows = new ArrayList<>();     // label, workload, metric
        for (String w : workloads("large-")) {
            rows.add(new String[] {meta.getOrDefault("label." + w, w) + ", MB/s", w, "MBps"});
        }
        for (String w : workloads("small-")) {
            rows.add(new String[] {"Small files, concurrency " + w.substring(w.lastIndexOf('c') + 1) + ", requests/s",
                w, "rps"});
        }
        rows.removeIf(r -> !setupsIn(r[1]).contains("remote-offload"));
        if (rows.isEmpty()) {
            return;
        }
        md.append("## Remote objects (S3 store)\n\n").append(REMOTE_NOTE).append("\n\n")
                .append("| workload | remote-offload / store | remote-direct / remote-offload |\n|---|---:|---:|\n");
        for (String[] r : rows) {
            md.append("| ").append(r[0]).append(" | ").append(roundRatios(r[1], r[2], "remote-offload", "store").cell())
                    .append(" | ").append(roundRatios(r[1], r[2], "remote-direct", "remote-offload").cell())
                    .append(" |\n");
        }
        md.append('\n');
    }

    private static final String REMOTE_NOTE = "The same files as objects of an S3-compatible store (s3proxy 2.6.0, "
            + "jclouds' filesystem backend, V4 signatures, a JVM of its own on loopback, uploaded by presigned PUTs). "
            + "(9) remote-offload: nginx → the application (token check, a GET presigned for 10 s per request) → "
            + "`X-Accel-Redirect: /_xaccel/remote/…` → nginx fetches the object from the store through the internal "
            + "location of `docs/nginx/xaccel-remote.conf.template` (verbatim); (10) remote-direct: a client talking to "
            + "Tomcat, the filter streams the object from the store itself; (11) store: the limit of (9), a GET "
            + "presigned once for the run sent through the very same nginx location (a `rewrite` into it), without "
            + "the application: what nginx proxying the store costs, so (9) / (11) is the price of the authorization "
            + "round trip and the presign. Ratios of the two setups' values round by round (median, min–max). The "
            + "store itself, not nginx or the filter, bounds all three on one machine: its CPU competes with theirs.";

    private void acceptSection(StringBuilder md) {
        Set<String> ws = workloads("accept-");
        if (ws.isEmpty()) {
            return;
        }
        md.append("## Accept filter (Linux TCP_DEFER_ACCEPT)\n\n").append(meta.getOrDefault("accept_note", ""))
                .append("\n\n| scenario | connector | req/s | p99 ms | max connectionCount | max busy threads |")
                .append(" flood connected | SYN-RECV (kernel) |\n|---|---|---:|---:|---:|---:|---:|---:|\n");
        for (String w : ws) {
            for (String s : new String[] {"plain", "defer"}) {
                if (!data.get(w).containsKey(s)) {
                    continue;
                }
                md.append("| ").append(meta.getOrDefault("label." + w, w)).append(" | ")
                        .append("plain".equals(s) ? "acceptFilter=none" : "TCP_DEFER_ACCEPT").append(" | ")
                        .append(cell(w, s, "rps", 0)).append(" | ").append(cell(w, s, "p99_ms", 2)).append(" | ")
                        .append(cell(w, s, "maxConnectionCount", 0)).append(" | ")
                        .append(cell(w, s, "maxBusyThreads", 0)).append(" | ")
                        .append(cell(w, s, "flood_connected", 0)).append(" | ")
                        .append(cell(w, s, "syn_recv", 0)).append(" |\n");
            }
        }
        md.append("\n| scenario | req/s with / without TCP_DEFER_ACCEPT |\n|---|---:|\n");
        for (String w : ws) {
            md.append("| ").append(meta.getOrDefault("label." + w, w)).append(" | ")
                    .append(ratio(w, "rps", "defer", "plain")).append(" |\n");
        }
        md.append('\n');
    }

    private void jmhSection(StringBuilder md, List<String[]> jmh) {
        if (jmh.size() < 2) {
            return;
        }
        md.append("## Filter hot path (JMH)\n\n").append(meta.getOrDefault("jmh_note", ""))
                .append("\n\n| benchmark | ns/op | ± (99.9%) |\n|---|---:|---:|\n");
        for (String[] row : jmh.subList(1, jmh.size())) {
            if (row.length < 7) {
                continue;
            }
            String name = row[0].substring(row[0].lastIndexOf('.') + 1);
            md.append("| ").append(name).append(" | ").append(fmt(Double.parseDouble(row[4]), 1)).append(" | ")
                    .append(row[5].equals("NaN") ? "–" : fmt(Double.parseDouble(row[5]), 1)).append(" |\n");
        }
        md.append('\n');
    }

    /** Targets of issue 15 for one offloaded request: CPU ns, allocated bytes, file-system calls. */
    static final double HOT_PATH_CPU_NS = 5000;
    static final double HOT_PATH_BYTES = 1024;
    static final double HOT_PATH_FS_CALLS = 2;

    /** {@link HotPathCounts}' rows: what one offloaded request costs the filter, per mode, against the targets. */
    private void hotPathSection(StringBuilder md) {
        Map<String, Map<String, List<Double>>> rows = data.getOrDefault("hotpath", Map.of());
        if (rows.isEmpty()) {
            return;
        }
        md.append("## Filter cost per offloaded request\n\n").append(meta.getOrDefault("hotpath_note", ""))
                .append("\n\n| mode | CPU ns | allocated bytes | file-system calls | calls by name |\n")
                .append("|---|---:|---:|---:|---|\n");
        for (Map.Entry<String, Map<String, List<Double>>> row : rows.entrySet()) {
            String mode = row.getKey();
            StringBuilder names = new StringBuilder();
            for (Map.Entry<String, List<Double>> m : row.getValue().entrySet()) {
                if (m.getKey().startsWith("sys_")) {
                    names.append(names.length() == 0 ? "" : ", ").append(m.getKey().substring(4)).append(' ')
                            .append(fmt(median(m.getValue()), 2));
                }
            }
            md.append("| ").append(mode)
                    .append(" | ").append(target(med("hotpath", mode, "cpu_ns"), HOT_PATH_CPU_NS, 0))
                    .append(" | ").append(target(med("hotpath", mode, "alloc_bytes"), HOT_PATH_BYTES, 0))
                    .append(" | ").append(target(med("hotpath", mode, "fs_calls"), HOT_PATH_FS_CALLS, 2))
                    .append(" | ").append(names.length() == 0 ? "–" : names).append(" |\n");
        }
        md.append("\nTargets: ≤ ").append(fmt(HOT_PATH_CPU_NS, 0)).append(" ns CPU, ≤ ")
                .append(fmt(HOT_PATH_BYTES, 0)).append(" bytes, ≤ ").append(fmt(HOT_PATH_FS_CALLS, 0))
                .append(" file-system calls per request; ✗ marks a missed one.\n\n");
    }

    /** The value, with ✗ when above its target. */
    private static String target(double value, double max, int decimals) {
        if (Double.isNaN(value)) {
            return "–";
        }
        return fmt(value, decimals) + (value > max ? " ✗" : "");
    }

    // ---------------------------------------------------------------- SVG

    private String svg() {
        List<String[]> panels = new ArrayList<>(); // title, workload, metric, unit
        for (String w : workloads("large-")) {
            panels.add(new String[] {meta.getOrDefault("label." + w, w) + " — MB/s", w, "MBps"});
        }
        List<String> small = new ArrayList<>(workloads("small-"));
        if (!small.isEmpty()) {
            String w = small.get(small.size() - 1);
            panels.add(new String[] {"Small files, concurrency " + w.substring(w.lastIndexOf('c') + 1)
                    + " — requests/s", w, "rps"});
        }
        List<String> large = new ArrayList<>(workloads("large-"));
        if (!large.isEmpty()) {
            String w = large.get(0);
            panels.add(new String[] {meta.getOrDefault("label." + w, w)
                    + " — CPU seconds per GB: JVM (colour) + nginx (grey)", w, "jvm_s", "nginx_s"});
        }
        int width = 860;
        int labelW = 330;
        int barH = 16;
        int gap = 6;
        int y = 40;
        StringBuilder body = new StringBuilder();
        String[] colors = {"#8c8c8c", "#c0504d", "#2e75b6", "#70ad47", "#b48ade", "#f0a030", "#2aa198", "#3b8a3b",
            "#1f4e79", "#9e480e", "#7f7f7f", "#7f6000", "#bf9000", "#5b9bd5"};
        for (String[] p : panels) {
            List<String> setups = setupsIn(p[1]);
            String stackedMetric = p.length > 3 ? p[3] : null;
            double max = 0;
            for (String s : setups) {
                if (stackedMetric != null) {
                    max = Math.max(max, nz(aggregate(p[1], s, p[2], "GB")) + nz(aggregate(p[1], s, stackedMetric, "GB")));
                } else {
                    for (double v : values(p[1], s, p[2])) {
                        max = Math.max(max, v);
                    }
                }
            }
            if (max <= 0) {
                max = 1;
            }
            body.append(text(10, y, esc(p[0]), "bold", 14));
            y += 10;
            for (String s : setups) {
                List<Double> v = values(p[1], s, p[2]);
                double m = stackedMetric != null ? nz(aggregate(p[1], s, p[2], "GB")) : median(v);
                double scale = (width - labelW - 130) / max;
                int idx = java.util.Arrays.asList(SHORT).indexOf(s);
                body.append(text(10, y + barH - 4, esc(SETUPS.get(s)), "normal", 12));
                body.append(String.format(Locale.ROOT,
                        "<rect x=\"%d\" y=\"%d\" width=\"%.1f\" height=\"%d\" fill=\"%s\"/>%n", labelW, y,
                        Math.max(0.5, m * scale), barH, colors[idx]));
                double end = m;
                if (stackedMetric != null) {
                    double n = nz(aggregate(p[1], s, stackedMetric, "GB"));
                    body.append(String.format(Locale.ROOT,
                            "<rect x=\"%.1f\" y=\"%d\" width=\"%.1f\" height=\"%d\" fill=\"#bbbbbb\"/>%n",
                            labelW + m * scale, y, n * scale, barH));
                    end = m + n;
                    body.append(text((int) (labelW + end * scale + 6), y + barH - 4,
                            fmt(m, 3) + " + " + fmt(n, 3), "normal", 12));
                } else {
                    if (v.size() > 1) {
                        double lo = Collections.min(v) * scale + labelW;
                        double hi = Collections.max(v) * scale + labelW;
                        int cy = y + barH / 2;
                        body.append(String.format(Locale.ROOT,
                                "<path d=\"M%.1f %dH%.1fM%.1f %dV%dM%.1f %dV%d\" stroke=\"#222\" fill=\"none\"/>%n",
                                lo, cy, hi, lo, cy - 4, cy + 4, hi, cy - 4, cy + 4));
                        end = Collections.max(v);
                    }
                    body.append(text((int) (labelW + end * scale + 6), y + barH - 4, fmt(m, m < 10 ? 2 : 0),
                            "normal", 12));
                }
                y += barH + gap;
            }
            y += 26;
        }
        String title = "xaccel benchmark " + meta.getOrDefault("date", "") + ("1".equals(meta.get("quick"))
                ? " (quick smoke run)" : "") + " — median, whiskers min–max; " + meta.getOrDefault("machine.nproc", "?")
                + " cores shared by clients and servers, loopback";
        return "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" + width + "\" height=\"" + (y + 10)
                + "\" viewBox=\"0 0 " + width + " " + (y + 10) + "\" font-family=\"sans-serif\">\n"
                + "<rect width=\"100%\" height=\"100%\" fill=\"#fff\"/>\n" + text(10, 20, esc(title), "normal", 12)
                + body + "</svg>\n";
    }

    private static double nz(double d) {
        return Double.isNaN(d) ? 0 : d;
    }

    private static String text(int x, int y, String s, String weight, int size) {
        return "<text x=\"" + x + "\" y=\"" + y + "\" font-size=\"" + size + "\" font-weight=\"" + weight + "\">" + s
                + "</text>\n";
    }

    private static String esc(String s) {
        return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;");
    }
}
