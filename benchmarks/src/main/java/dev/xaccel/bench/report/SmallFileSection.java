package dev.xaccel.bench.report;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import dev.xaccel.bench.run.Setup;
import dev.xaccel.bench.run.SmallCase;

/**
 * The small-file tables: for the files at the top of the root, requests/s, latency and CPU per request per
 * concurrency and setup, every setup's rate over nginx static's, the cost of the open-time confinement, and for
 * cached decisions the share of requests that reached the application and the targets of issue 6; then one table
 * per deep, spread and one-directory set (files three directories below the root). Concurrency 1 is marked:
 * reported, not judged.
 */
final class SmallFileSection {

    /** Order of the ratio columns and their names (a setup without a name is shown by its id). */
    private static final List<String> ORDER = List.of("xaccel", "receipts", "cached", "signed", "proxied", "tomcat",
            "tomcat-nio", "default", "confined", "remote-offload", "remote-direct", "store", "bare", "uds", "sendfile");
    private static final Map<String, String> NAMES = Map.ofEntries(Map.entry("xaccel", "xaccel offload, no caching"),
            Map.entry("cached", "cached decisions"), Map.entry("signed", "signed links"),
            Map.entry("proxied", "nginx-proxied streaming"), Map.entry("tomcat", "Tomcat alone, xaccel connector"),
            Map.entry("tomcat-nio", "Tomcat alone, stock NIO"), Map.entry("default", "Tomcat DefaultServlet"),
            Map.entry("confined", "nginx static confined"), Map.entry("bare", "bare X-Accel servlet"),
            Map.entry("uds", "xaccel over a Unix socket"), Map.entry("sendfile", "filter direct, sendfile=true"),
            Map.entry("receipts", "xaccel with receipts"));

    private SmallFileSection() {
    }

    /** {@code small-c64} → "64"; concurrency 1 → "1 (not judged)". */
    static String concurrency(String workload) {
        return SmallCase.parse(workload).map(id -> id.concurrency() + (id.judged() ? "" : " (not judged)"))
                .orElse(workload);
    }

    static String markdown(Measurements data, Meta meta) {
        Set<String> ws = new LinkedHashSet<>();
        Map<String, List<String>> deep = new LinkedHashMap<>();
        for (String w : data.workloads("small-")) {
            SmallCase.parse(w).ifPresent(id -> {
                if (id.topLevel()) {
                    ws.add(w);
                } else if (id.spread()) {
                    deep.computeIfAbsent(id.deepSize().get() + " spread", k -> new ArrayList<>()).add(w);
                } else if (id.oneDirectory()) {
                    deep.computeIfAbsent(id.deepSize().get() + " onedir", k -> new ArrayList<>()).add(w);
                } else {
                    deep.computeIfAbsent(id.deepSize().get(), k -> new ArrayList<>()).add(w);
                }
            });
        }
        if (ws.isEmpty() && deep.isEmpty()) {
            return "";
        }
        return (ws.isEmpty() ? "" : topLevel(data, meta, ws)) + deep(data, deep);
    }

    /** One table per deep set: the setups that serve the file from Tomcat, and the servers' CPU per request. */
    private static String deep(Measurements data, Map<String, List<String>> deep) {
        StringBuilder md = new StringBuilder();
        deep.forEach((key, ws) -> {
            String size = key.replace(" spread", "").replace(" onedir", "");
            if (key.endsWith(" onedir")) {
                md.append("### ").append(size).append(" files three directories below the root, all in one ")
                        .append("directory\n\n`onedir-").append(size).append("/Author/Title/chapter-NNNN.bin`: the ")
                        .append("spread set's files, as many, in one directory. Server CPU = JVM + nginx.\n\n");
            } else if (key.endsWith(" spread")) {
                md.append("### ").append(size).append(" files three directories below the root, one per directory\n\n")
                        .append("`spread-").append(size).append("/AuthorNNN/TitleNN/chapter.bin`: as deep, but ")
                        .append("every file in a directory of its own. Server CPU = JVM + nginx.\n\n");
            } else {
                md.append("### ").append(size).append(" files three directories below the root\n\n")
                        .append("`deep/").append(size).append("/files/file-NNN.bin`: the filter resolves three ")
                        .append("directories per request, DefaultServlet answers from its resource cache. Server ")
                        .append("CPU = JVM + nginx.\n\n");
            }
            md.append("| concurrency | setup | req/s | p50 ms | p99 ms | server CPU µs/req ")
                    .append("| JIT compilers µs/req (not counted) |\n|---:|---|---:|---:|---:|---:|---:|\n");
            for (String w : ws) {
                for (Setup setup : data.setupsIn(w)) {
                    md.append(row(data, w, setup, "server_us_per_req", "jit_us_per_req"));
                }
            }
            md.append('\n');
        });
        return md.toString();
    }

    /** A setup's row: concurrency, label, req/s, p50, p99, then the CPU metrics (µs per request, one decimal). */
    private static String row(Measurements data, String w, Setup setup, String... cpuMetrics) {
        String s = setup.id();
        StringBuilder row = new StringBuilder("| ").append(concurrency(w)).append(" | ").append(setup.label())
                .append(" | ").append(data.cell(w, s, "rps", 0)).append(" | ").append(data.cell(w, s, "p50_ms", 2))
                .append(" | ").append(data.cell(w, s, "p99_ms", 2));
        for (String metric : cpuMetrics) {
            row.append(" | ").append(data.cell(w, s, metric, 1));
        }
        return row.append(" |\n").toString();
    }

    private static String topLevel(Measurements data, Meta meta, Set<String> ws) {
        StringBuilder md = new StringBuilder();
        md.append("## Small files (").append(meta.get("param.small", "?")).append(")\n\n");
        md.append("`wrk --latency` with a Lua script that cycles through the files; every request carries the ")
                .append("token (nginx static and signed links ignore it; signed links cycle through 100 signed URLs). ")
                .append("CPU per request from /proc like above, in µs; the JVM's without its JIT compiler threads, ")
                .append("shown apart (they compile in whichever setup's seconds their queue reaches). Setups 3, 12, ")
                .append("13 and 16 run in a JVM of their own (the hop as one application pays for it); the CPU of ")
                .append("both JVMs counts for every setup.\n\n");
        md.append("| concurrency | setup | req/s | p50 ms | p99 ms | JVM CPU µs/req | nginx CPU µs/req | ")
                .append("JIT compilers µs/req (not counted) |\n|---:|---|---:|---:|---:|---:|---:|---:|\n");
        List<String> others = new ArrayList<>();
        for (String w : ws) {
            for (Setup setup : data.setupsIn(w)) {
                String s = setup.id();
                md.append(row(data, w, setup, "jvm_us_per_req", "nginx_us_per_req", "jit_us_per_req"));
                if (setup != Setup.STATIC && !others.contains(s)) {
                    others.add(s);
                }
            }
        }
        others.sort((a, b) -> Integer.compare(ORDER.indexOf(a), ORDER.indexOf(b)));
        md.append("\nRequests/s as ratios to nginx static (medians):\n\n| concurrency |");
        for (String s : others) {
            md.append(' ').append(NAMES.getOrDefault(s, s)).append(" |");
        }
        md.append(" xaccel / nginx-proxied streaming | xaccel / Tomcat direct |\n|---:|");
        md.append("---:|".repeat(others.size() + 2)).append('\n');
        for (String w : ws) {
            md.append("| ").append(concurrency(w)).append(" |");
            for (String s : others) {
                md.append(' ').append(data.ratio(w, "rps", s, "static")).append(" |");
            }
            md.append(' ').append(data.ratio(w, "rps", "xaccel", "proxied")).append(" | ")
                    .append(data.ratio(w, "rps", "xaccel", "tomcat")).append(" |\n");
        }
        if (others.contains("confined")) {
            md.append("\nOpen-time confinement, requests/s round by round (median, min–max): ")
                    .append(LargeFileSection.CONFINEMENT).append(" =");
            String sep = " ";
            for (String w : ws) {
                md.append(sep).append("concurrency ").append(concurrency(w)).append(' ')
                        .append(data.roundRatios(w, "rps", "confined", "static").cell());
                sep = "; ";
            }
            md.append(".\n");
        }
        boolean cached = others.contains("cached");
        boolean signed = others.contains("signed");
        if (cached) {
            md.append("\nCached decisions: requests that reached the application (the `/cached` filter MBean's ")
                    .append("`Offloaded` counter, read before and after each measurement) per client request.\n\n")
                    .append("| concurrency | client requests | backend requests | share |\n|---:|---:|---:|---:|\n");
            for (String w : ws) {
                double client = data.sum(w, "cached", "requests");
                double backend = data.sum(w, "cached", "backend_requests");
                md.append("| ").append(concurrency(w)).append(" | ").append(Stats.fmt(client, 0)).append(" | ")
                        .append(Stats.fmt(backend, 0)).append(" | ")
                        .append(client > 0 ? Stats.fmt(100 * backend / client, 3) + "%" : "–").append(" |\n");
            }
        }
        if (cached || signed) {
            md.append("\nTargets of issue 6 (reported, not asserted):\n\n");
            for (String w : ws) {
                double rate = data.median(w, "static", "rps");
                md.append("- concurrency ").append(concurrency(w)).append(':');
                if (cached) {
                    md.append(" cached decisions ≥ 0.7× nginx static: ")
                            .append(Stats.verdict(data.median(w, "cached", "rps") / rate, 0.7, true));
                }
                if (signed) {
                    md.append(cached ? ";" : "").append(" signed links ≥ 0.85× nginx static: ")
                            .append(Stats.verdict(data.median(w, "signed", "rps") / rate, 0.85, true));
                }
                md.append('\n');
            }
        }
        return md.append('\n').toString();
    }
}
