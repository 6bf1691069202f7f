package dev.xaccel.bench.report;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import dev.xaccel.bench.run.SmallCase;

/**
 * The headline ratios of issues 15, 23, 32 and 34 in one table, each measured round by round ({@link RoundRatios}:
 * setup A's value over setup B's of the same round) and judged against its target: first the servers' CPU per request
 * (JVM + nginx, per GB for the large file) as B's ÷ A's, so that ≥ 1× reads "A needs no more CPU than B", and beside
 * it the throughput ratio — the client shares the cores, which pulls throughput ratios towards 1, the servers' CPU is
 * what each setup costs. The verdict is {@link Verdict}'s: met or missed only when the median's interval over the
 * rounds ({@link RoundRatios}) lies on one side of the target (or of 1× where two setups are compared without one),
 * undecided ⚠ otherwise.
 * Concurrency 1 is reported but never judged (it measures wake-ups and segment counts, the latency of one
 * connection, not what a request costs). Rows whose setups were not both measured are left out. Written into
 * the report by {@link Report}.
 */
final class HeadlineRatios {

    /** Round-by-round ratios of {@code a} over {@code b} in a workload, from the report's data. */
    @FunctionalInterface
    interface Source {
        RoundRatios of(String workload, String metric, String a, String b);
    }

    /** No target: the two setups are compared (faster or slower, cheaper or dearer). */
    static final double NONE = Double.NaN;

    /**
     * One headline: {@code a / b}'s throughput should reach {@code rate} and B's CPU ÷ A's should reach {@code cpu}
     * (each {@link #NONE}: compared, no target).
     */
    record Line(String name, String a, String b, double rate, double cpu) {
    }

    /**
     * The servers' CPU time (JVM without its JIT compiler threads + nginx, utime+stime) per request: lower is
     * better.
     */
    static final String SERVER_CPU = "server_us_per_req";
    /** The same per GB of the large file. */
    static final String SERVER_CPU_GB = "server_s_per_GB";

    /** Both open the file again by name after the check: the same guarantee, the same zero-copy path. */
    static final String SENDFILE_LINE = "filter with sendfile=true ÷ Tomcat DefaultServlet (both sendfile by name)";
    static final String DIRECT_LINE = "filter serving directly, xaccel connector ÷ Tomcat DefaultServlet";
    static final String NIO_LINE = "filter serving directly, stock NIO (without the xaccel connector) ÷ Tomcat "
            + "DefaultServlet";

    /** Issue 32's target: the offload with receipts on within 3 % of the bare servlet's server CPU. */
    static final String RECEIPTS_BARE_LINE = "xaccel with receipts ÷ bare X-Accel servlet (issue 32: the hop with "
            + "receipts on)";
    /** No target: what the receipt path alone costs (identifier, header, nginx's log line, the filter's match). */
    static final String RECEIPTS_LINE = "xaccel with receipts ÷ xaccel (the receipt path's own cost)";

    /** The small-file headlines, in the table's order. */
    static final List<Line> SMALL = List.of(
            new Line("xaccel ÷ bare X-Accel servlet, both behind the same auth filter (what XAccelFilter costs on "
                    + "the hop)", "xaccel", "bare", 0.97, 0.97),
            new Line(RECEIPTS_BARE_LINE, "receipts", "bare", 0.97, 0.97),
            new Line(RECEIPTS_LINE, "receipts", "xaccel", NONE, NONE),
            new Line("xaccel over a Unix socket ÷ xaccel over loopback TCP (the hop)", "uds", "xaccel", NONE, NONE),
            new Line(DIRECT_LINE, "tomcat", "default", 1.0, 1.0),
            new Line(NIO_LINE, "tomcat-nio", "default", NONE, NONE),
            new Line(SENDFILE_LINE, "sendfile", "default", 1.0, NONE),
            new Line("cached decisions ÷ nginx static", "cached", "static", 0.85, NONE),
            new Line("signed links ÷ nginx static", "signed", "static", 0.95, NONE));

    /** The large-file headlines. */
    static final List<Line> LARGE = List.of(
            new Line("xaccel ÷ nginx static", "xaccel", "static", 0.97, NONE),
            new Line(DIRECT_LINE, "tomcat", "default", 1.0, 1.0),
            new Line(NIO_LINE, "tomcat-nio", "default", NONE, NONE),
            new Line(SENDFILE_LINE, "sendfile", "default", 1.0, NONE));

    private HeadlineRatios() {
    }

    /**
     * The section, or "" when no headline was measured.
     *
     * @param setups   workload → the setups measured in it
     * @param labels   workload → its label (e.g. "Large file, 4 parallel downloaders"); else its id
     */
    static String markdown(Source source, Map<String, Set<String>> setups, Map<String, String> labels) {
        List<String> rows = new ArrayList<>();
        setups.forEach((w, measured) -> {
            Optional<SmallCase.Id> small = SmallCase.parse(w);
            boolean large = w.startsWith("large-");
            if (small.isEmpty() && !large) {
                return;
            }
            boolean judged = small.map(SmallCase.Id::judged).orElse(true);
            String metric = large ? "MBps" : "rps";
            String cpuMetric = large ? SERVER_CPU_GB : SERVER_CPU;
            String where = labels.getOrDefault(w, small.map(id -> "small files, concurrency " + id.concurrency())
                    .orElse(w));
            for (Line l : large ? LARGE : SMALL) {
                if (!measured.contains(l.a()) || !measured.contains(l.b())) {
                    continue;
                }
                RoundRatios rate = source.of(w, metric, l.a(), l.b());
                if (rate.isEmpty()) {
                    continue;
                }
                // B's CPU over A's: ≥ 1× when A needs no more; judged first, throughput beside it
                RoundRatios cpu = source.of(w, cpuMetric, l.b(), l.a());
                rows.add("| " + l.name() + " | " + where + " | " + cpu.cell() + " | "
                        + (cpu.isEmpty() ? "–" : verdict(l.cpu(), cpu, judged, "cheaper", "dearer")) + " | "
                        + rate.cell() + " | " + verdict(l.rate(), rate, judged, "faster", "slower") + " |");
            }
        });
        if (rows.isEmpty()) {
            return "";
        }
        return "## Headline ratios (issues 15, 23, 32 and 34)\n\nEach ratio is taken round by round. First the "
                + "servers' "
                + "CPU time (JVM + nginx, utime+stime; for small files the JVM's without its JIT compiler threads) "
                + "per request (per GB for large files) as **B's ÷ A's**: ≥ 1× "
                + "means A needs no more server CPU than B — what each setup costs, and the verdict that counts; "
                + "beside it setup A's requests/s (MB/s for large files) over setup B's, which the client pulls "
                + "towards 1× where it shares the cores. The median over the rounds, then the median's interval: "
                + "the k-th smallest to the k-th largest round, k as large as keeps the median inside with a "
                + "probability of at least " + Math.round(100 * RoundRatios.LEVEL) + " % whatever the rounds' "
                + "distribution (the whole min–max up to 6 rounds, "
                + "the 3rd–8th of 10, shown with the min–max beside it). A verdict is decided by that interval, "
                + "never by the median alone: **met** when it lies at or above the target, **missed** when it lies "
                + "below, **undecided** ⚠ otherwise (and with one round: spread unknown) — run more rounds "
                + "(`--runs`) before concluding. The hop's three setups (bare servlet, xaccel, receipts) are "
                + "measured `--hop-blocks` times per round at the top, back to back, and the ratios among them take "
                + "each block as a round (of 10 rounds × 3 blocks, the 11th–20th of 30). Without a target the "
                + "same rule says "
                + "cheaper/dearer or faster/slower against 1×. Concurrency 1 is reported, **not judged**: one "
                + "connection measures wake-ups and segment counts, not what a request costs.\n\n"
                + "| ratio (A ÷ B) | where | server CPU B ÷ A | target: verdict | throughput A ÷ B | target: verdict "
                + "|\n|---|---|---:|---|---:|---|\n"
                + String.join("\n", rows) + "\n\n";
    }

    /** "≥ 0.97×: **met**", "no target: **faster**", "… undecided ⚠ …", or at c=1 "reported, not judged (c=1)". */
    static String verdict(double target, RoundRatios r, boolean judged, String above, String below) {
        if (!judged) {
            return (Double.isNaN(target) ? "no target" : "≥ " + Stats.fmt(target, 2) + "×")
                    + ": reported, not judged (c=1)";
        }
        if (!Double.isNaN(target)) {
            return "≥ " + Stats.fmt(target, 2) + "×: " + Verdict.text(r, target);
        }
        return "no target: " + switch (Verdict.of(r, 1.0)) {
            case MET -> "**" + above + "**";
            case MISSED -> "**" + below + "**";
            case UNDECIDED -> "undecided " + r.warning(1.0);
            case NONE -> "–";
        };
    }
}
