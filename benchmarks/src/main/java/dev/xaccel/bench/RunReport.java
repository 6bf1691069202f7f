package dev.xaccel.bench;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.Optional;

import org.apache.catalina.startup.Tomcat;

import dev.xaccel.bench.report.Meta;
import dev.xaccel.bench.report.Report;
import dev.xaccel.bench.run.BenchFailure;
import dev.xaccel.bench.run.BenchOptions;
import dev.xaccel.bench.run.FileSet;
import dev.xaccel.bench.run.RunPlan;
import dev.xaccel.bench.run.SmallCase;
import dev.xaccel.bench.run.SmallPlan;
import dev.xaccel.bench.setup.BenchRig;
import dev.xaccel.bench.setup.BenchStats;
import dev.xaccel.bench.setup.TomcatServer;
import dev.xaccel.bench.system.Machine;
import dev.xaccel.bench.system.Processes;

/**
 * The end of a run: the facts of the machine and of the run for the report, the nginx configuration as run (less
 * the signed-link secret), then {@link Report} writes {@code <date>.md} and {@code .svg} into the output directory
 * and the raw measurements are copied next to them as {@code <date>.tsv}.
 */
final class RunReport {

    /** What the run measured and found out besides the raw measurements. */
    record Outcome(long startEpochSeconds, long measureStartSeconds, long measureEndSeconds, String acceptNote,
            Optional<Path> jmhCsv, Optional<Path> perfText, String threadsNote) {
    }

    private final BenchRig rig;
    private final Path root;
    private final String linkSecret;

    RunReport(BenchRig rig, Path root, String linkSecret) {
        this.rig = rig;
        this.root = root;
        this.linkSecret = linkSecret;
    }

    /** Writes the results and returns the path of the Markdown page. */
    Path write(Outcome outcome) {
        BenchOptions o = rig.options();
        ZonedDateTime now = ZonedDateTime.now();
        String date = now.format(DateTimeFormatter.ISO_LOCAL_DATE);
        String name = o.quick() ? date + "-quick" : date;
        if (Files.exists(o.outDir().resolve(name + ".md"))) {
            name = name + "-" + now.format(DateTimeFormatter.ofPattern("HHmmss"));
        }
        Path metaFile = rig.work().resolve("meta.env");
        meta(outcome, now).write(metaFile);
        Path shown = rig.work().resolve("nginx.conf.shown");
        Path md = o.outDir().resolve(name + ".md");
        try {
            Files.writeString(shown, Files.readString(rig.nginx().conf(), StandardCharsets.UTF_8)
                    .replace(linkSecret, "<the run's random 48-character secret>"), StandardCharsets.UTF_8);
            Report.write(rig.results().file(), metaFile, shown, outcome.jmhCsv().orElse(null),
                    outcome.perfText().orElse(null), md, o.outDir().resolve(name + ".svg"));
            Files.copy(rig.results().file(), o.outDir().resolve(name + ".tsv"), StandardCopyOption.REPLACE_EXISTING);
        } catch (IOException | RuntimeException e) {
            throw new BenchFailure("report generation failed: " + e, e);
        }
        return md;
    }

    private Meta meta(Outcome outcome, ZonedDateTime now) {
        BenchOptions o = rig.options();
        long end = outcome.measureEndSeconds();
        Meta m = new Meta();
        m.put("date", now.format(DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ssxx")));
        m.put("quick", o.quick() ? 1 : 0);
        m.put("command", "benchmarks/run" + (o.commandLine().isEmpty() ? "" : " " + o.commandLine()));
        m.put("rounds", o.runs());
        m.put("seed", o.seed());
        m.put("expected", RunPlan.describe(o));
        m.put("load_before", rig.load().before());
        m.put("load_after", Machine.loadAverages());
        m.put("load_note", rig.load().note(rig.clockTicks()));
        machine(m);
        m.put("param.size", o.size() + " (" + o.bigBytes() + " bytes)");
        m.put("param.small", o.smallCount() + " distinct files of " + o.smallSize() + (o.deepSets().isEmpty() ? ""
                : "; deep sets of " + o.smallCount() + " files of " + String.join(", ", o.deepSets().stream()
                        .map(FileSet::size).toList()) + " three directories below the root")
                + (o.spreadSets().isEmpty() ? "" : "; spread sets of " + String.join(", ", o.spreadSets().stream()
                        .map(f -> f.count() + " files of " + f.size()).toList()) + ", one per directory"));
        m.put("param.seed", o.seed() + " (--seed)");
        m.put("param.side-rounds", o.sideRuns() + " (accept filter, seed 001's shapes, virtual threads)");
        m.put("param.hop-blocks", o.hopBlocks() + " (the hop's setups measured back to back per round and "
                + "concurrency, each block a pair of the hop's ratios)");
        m.put("param.rounds", o.runs());
        m.put("param.pinning", rig.pinning().describe());
        m.put("param.sequential", o.seq() + " downloads per measurement");
        m.put("param.parallel", o.parallel() + " downloaders x " + o.parallelEach() + " download(s)");
        m.put("param.wrk", "concurrency " + words(o.concurrencies()) + ", " + o.wrkSeconds()
                + " s each, threads min(c, 2)");
        m.put("param.accept", "concurrency " + words(o.acceptConcurrencies()) + ", " + o.acceptSeconds()
                + " s each; flood " + o.floodIdle() + " idle + " + o.floodSlow() + " slow clients; TCP_DEFER_ACCEPT "
                + o.deferSeconds() + " s");
        m.put("param.jvm", String.join(" ", o.jvmOptions()));
        m.put("param.jmh", String.join(" ", o.jmhOptions()));
        m.put("param.time", "measurements " + (end - outcome.measureStartSeconds()) + " s, whole run "
                + (end - outcome.startEpochSeconds()) + " s");
        m.put("label.large-seq", "Large file, " + o.seq() + " sequential downloads");
        m.put("label.large-par", "Large file, " + o.parallel() + " parallel downloaders");
        for (SmallCase k : SmallPlan.cases(o)) {
            m.put("label." + k.workload(), o.smallSize().equals(k.files().size()) && !k.files().deep()
                    ? k.files().size() + " at the top, c=" + k.concurrency()
                    : k.files().spread() ? k.files().size() + " spread over " + k.files().count() + " directories, c="
                            + k.concurrency()
                    : k.files().size() + " three directories deep, c=" + k.concurrency());
        }
        for (String scenario : List.of("none", "flood")) {
            for (int c : o.acceptConcurrencies()) {
                m.put("label.accept-" + scenario + "-c" + c, (scenario.equals("none") ? "no slow clients"
                        : o.floodIdle() + " idle + " + o.floodSlow() + " slow clients") + ", concurrency " + c);
            }
        }
        m.put("accept_note", ACCEPT_NOTE + outcome.acceptNote());
        m.put("threads_note", outcome.threadsNote());
        BenchStats.Snapshot stats = rig.stats().read();
        // the hop's JVM's filters apart: /accel and /receipts run in both (the other JVM's answer the checks)
        m.put("filter_counters", stats.joined(e -> e.name().startsWith("filter") && !e.value().equals("0"), true)
                + "; the hop's JVM: " + rig.hopStats().read().joined(e -> e.name().startsWith("filter")
                        && !e.value().equals("0"), true));
        m.put("jmh_note", JMH_NOTE);
        m.put("hotpath_note", HOTPATH_NOTE);
        m.put("tomcat_setup", tomcatSetup(stats));
        return m;
    }

    private void machine(Meta m) {
        Processes p = rig.processes();
        m.put("machine.nproc", Machine.cores());
        m.put("machine.cpu", Machine.cpuModel());
        m.put("machine.memory", Machine.memory());
        m.put("machine.kernel", p.run(List.of("uname", "-srm")).output().trim());
        m.put("machine.os", Machine.os());
        m.put("machine.java", p.run(List.of(rig.java(), "-version")).output().replace('\n', ' ').trim());
        m.put("machine.nginx", rig.nginx().fullVersion());
        m.put("machine.wrk", firstWords(p.run(List.of("wrk", "-v")).output(), 2));
        m.put("machine.curl", firstWords(p.run(List.of("curl", "--version")).output(), 2));
        m.put("machine.git", git());
    }

    private String git() {
        Processes p = rig.processes();
        Processes.Result head = p.run(List.of("git", "-C", root.toString(), "rev-parse", "--short", "HEAD"));
        if (!head.ok()) {
            return "";
        }
        boolean modified = !p.run(List.of("git", "-C", root.toString(), "diff", "--quiet")).ok();
        return head.output().trim() + (modified ? " (modified)" : "");
    }

    private String tomcatSetup(BenchStats.Snapshot stats) {
        BenchOptions o = rig.options();
        String jvm = String.join(" ", o.jvmOptions());
        String plain = String.join(" ", TomcatServer.PLAIN_PROPS);
        String readBack = stats.joined(e -> e.name().equals("plain") && (e.key().equals("maxKeepAliveRequests")
                || e.key().equals("keepAliveTimeout")), false);
        int expires = rig.tomcat().cachedExpires();
        StringBuilder sb = new StringBuilder();
        sb.append("Two JVMs (").append(jvm).append(" each): the hop's, which only setups 3, 12, 13 and 16 reach ")
                .append("(its contexts /accel, /bare, /receipts; setup 13 by its Unix socket), and one for every ")
                .append("other setup; the same embedded Tomcat ").append(tomcatVersion())
                .append(", NIO connector on 127.0.0.1 tuned for a proxy as docs/small-files.md recommends "
                        + "and for direct ")
                .append("writes as docs/containers.md does: ")
                .append(plain).append(" (nginx's upstream keepalive_timeout is 60 s), otherwise defaults (maxThreads ")
                .append("200, connectionTimeout 20 s); direct clients of setups 5, 14 and 15 use the same connector, ")
                .append("setup 1 a second one of the xaccel protocol (").append(TomcatServer.acceptFilterProtocol())
                .append(", acceptFilter=none, the same properties), which can send the file the filter opened. Read ")
                .append("back from the connector: ").append(readBack).append(". Contexts: /stream = AuthFilter ")
                .append("(bearer token) + XAccelFilter mappings '/files/ => DATA', offload=never; /accel = the same ")
                .append("with the request wrapped, offload=auto, frontEnd=nginx, frontEndConfines=true and ")
                .append("symlinks=never (a request ")
                .append("without conditional or Range handed off by its names alone, no file-system call; /receipts ")
                .append("likewise); /cached = /stream with offload=auto, frontEnd=nginx, the locations entry option ")
                .append("expires=")
                .append(expires).append(" (X-Accel-Expires: ").append(expires).append(" and Vary: Cookie, ")
                .append("Authorization on offloaded answers) and signedLinkSecret/signedLinkPrefix=/s/media/ (the ")
                .append("SignedLinks that signed setup 7's links); /default = AuthFilter without the request wrapper ")
                .append("+ DefaultServlet on DATA (sendfile for files above 48 KiB); /bare = the same AuthFilter as ")
                .append("/accel + BareAccelServlet. The AuthFilter of /accel, /receipts, /cached and /bare wraps ")
                .append("the request like the sample application does; that of /stream and /sendfile, judged ")
                .append("against DefaultServlet, is /default's, unwrapped (since 2026-12-07 night; wrapped before). ")
                .append("Setup 1 sends the ")
                .append("file the filter opened (sendfile=false, the default: Tomcat's write(ByteBuffer) of a direct ")
                .append("buffer, body via direct-buffer); /sendfile (setup 14) is /stream with sendfile=true, which ")
                .append("hands files of 48 KiB and more to Tomcat's sendfile by name like DefaultServlet (the ")
                .append("attributes set on the container's own request, which the filter also finds behind a ")
                .append("wrapper). nginx reaches Tomcat through ")
                .append("'upstream { keepalive }' with proxy_http_version 1.1 and Connection \"\" in setups 2, 3 ")
                .append("(keepalive 64, the harness's own upstream) and 6 (keepalive 16, the template's upstream). ");
        String protocol = TomcatServer.acceptFilterProtocol();
        if (rig.tomcat().acceptFilterPort().isPresent() && protocol != null) {
            String effective = stats.joined(e -> e.name().equals("accept-filter")
                    && e.key().startsWith("acceptFilter"), false);
            sb.append("The accept-filter workload uses two connectors of its own (nothing else connects to them; ")
                    .append("Tomcat defaults otherwise): ").append(protocol).append(" with acceptFilter=none, and ")
                    .append("the same with acceptFilter=httpready (TCP_DEFER_ACCEPT on Linux), deferAcceptSeconds=")
                    .append(o.deferSeconds()).append(", acceptFilterFailOnError=true; acceptCount (listen backlog) ")
                    .append("100, the Tomcat default. Read back from the connector: ")
                    .append(effective.isEmpty() ? "n/a" : effective).append('.');
        }
        return sb.toString();
    }

    private static String tomcatVersion() {
        String v = Tomcat.class.getPackage().getImplementationVersion();
        return v == null ? "" : v;
    }

    private static String firstWords(String text, int n) {
        String first = text.lines().findFirst().orElse("").trim();
        String[] w = first.split(" ");
        return String.join(" ", List.of(w).subList(0, Math.min(n, w.length)));
    }

    private static String words(List<Integer> l) {
        return String.join(" ", l.stream().map(String::valueOf).toList());
    }

    private static final String ACCEPT_NOTE = "Normal clients (wrk, small files) against Tomcat directly (setup 1's "
            + "context) while misbehaving clients connect to the same connector: idle ones never send, slow ones send "
            + "one byte per second. 'max connectionCount' (Tomcat's count includes 1 for its acceptor) / 'max busy "
            + "threads' are the maxima sampled every 10 ms inside Tomcat during the wrk run; 'flood connected' = "
            + "misbehaving clients whose connect() succeeded; 'SYN-RECV' = connections the kernel still holds for "
            + "that port (/proc/net/tcp) at the end of the wrk run. ";

    private static final String HOTPATH_NOTE = "The JMH hot path in a plain loop "
            + "(dev.xaccel.bench.hotpath.HotPathLoop), "
            + "per call after 50,000 warm-up calls: the thread's CPU time, the bytes it allocated (the stub request "
            + "and response allocate nothing themselves), and the file-system system calls, counted with strace -f -c "
            + "as the difference of two runs; JMH ns/op: the same call under JMH (the table above). mapped/declared: "
            + "defaults; -confines: frontEndConfines=true; mapped-receipts: mapped with receipts=127.0.0.1:PORT (the "
            + "identifier and its waiting entry; no nginx answers, so past the bound each call also reports the "
            + "oldest unreceipted: an upper bound). The file lies three directories below the root (Some "
            + "Author/Some Book/cover 042.jpg).";
    private static final String JMH_NOTE = "The real filter called with stub request/response objects (no "
            + "container, no network); offloadMapped = mapped mode, offload=auto, marker header present, file resolved "
            + "on disk, headers built; untouched = a request under no mapping; baselineChain = the stub chain alone.";
}
