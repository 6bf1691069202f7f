package dev.xaccel.bench.report;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The headline ratios of issue 15 in one table, each measured round by round ({@link RoundRatios}: setup A's
 * value over setup B's of the same round) and judged against its target; a ratio whose min–max over the rounds
 * includes its target (or 1× where two setups are compared without one) is flagged with ⚠: the rounds do not
 * decide it, so run more ({@code --runs}) or longer ({@code --duration}). Rows whose setups were not both
 * measured are left out. Written into the report by {@link Report}.
 */
final class HeadlineRatios {

    /** Round-by-round ratios of {@code a} over {@code b} in a workload, from the report's data. */
    @FunctionalInterface
    interface Source {
        RoundRatios of(String workload, String metric, String a, String b);
    }

    /**
     * One headline: {@code a / b} should reach {@code target} ({@code atLeast}), or, with {@code target} 1 and
     * {@code versus} set, is a comparison of two setups (faster or not). {@code metric} null: the workload's rate
     * (requests/s, MB/s); else that metric, e.g. the servers' CPU per request.
     */
    record Line(String name, String a, String b, double target, boolean atLeast, boolean versus, String metric) {

        Line(String name, String a, String b, double target, boolean atLeast, boolean versus) {
            this(name, a, b, target, atLeast, versus, null);
        }
    }

    /** The servers' CPU time (JVM + nginx, utime+stime) per request: lower is better. */
    static final String SERVER_CPU = "server_us_per_req";

    /** Both open the file again by name after the check: the same guarantee, the same zero-copy path. */
    static final String SENDFILE_LINE = "filter with sendfile=true ÷ Tomcat DefaultServlet (both sendfile by name)";

    /** The small-file headlines, in the table's order. */
    static final List<Line> SMALL = List.of(
            new Line("xaccel ÷ bare X-Accel servlet (what the auth filter and XAccelFilter cost on the hop)",
                    "xaccel", "bare", 0.97, true, false),
            new Line("xaccel over a Unix socket ÷ xaccel over loopback TCP (the hop)", "uds", "xaccel", 1.0, true,
                    true),
            new Line("server CPU per request (JVM + nginx): xaccel ÷ bare X-Accel servlet", "xaccel", "bare", 1.0,
                    false, true, SERVER_CPU),
            new Line("server CPU per request (JVM + nginx): Unix socket ÷ loopback TCP", "uds", "xaccel", 1.0,
                    false, true, SERVER_CPU),
            new Line("filter serving directly ÷ Tomcat DefaultServlet", "tomcat", "default", 1.0, true, false),
            new Line(SENDFILE_LINE, "sendfile", "default", 1.0, true, false),
            new Line("cached decisions ÷ nginx static", "cached", "static", 0.85, true, false),
            new Line("signed links ÷ nginx static", "signed", "static", 0.95, true, false));

    /** The large-file headlines. */
    static final List<Line> LARGE = List.of(
            new Line("xaccel ÷ nginx static", "xaccel", "static", 0.97, true, false),
            new Line("filter serving directly ÷ Tomcat DefaultServlet", "tomcat", "default", 1.0, true, false),
            new Line(SENDFILE_LINE, "sendfile", "default", 1.0, true, false));

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
            boolean small = w.startsWith("small-");
            boolean large = w.startsWith("large-");
            if (!small && !large) {
                return;
            }
            String metric = small ? "rps" : "MBps";
            String where = small ? "small files, concurrency " + w.substring(w.lastIndexOf('c') + 1)
                    : labels.getOrDefault(w, w);
            for (Line l : small ? SMALL : LARGE) {
                if (!measured.contains(l.a()) || !measured.contains(l.b())) {
                    continue;
                }
                RoundRatios r = source.of(w, l.metric() != null ? l.metric() : metric, l.a(), l.b());
                if (r.isEmpty()) {
                    continue;
                }
                rows.add("| " + l.name() + " | " + where + " | " + target(l) + " | " + r.cell() + " | "
                        + verdict(l, r) + " |");
            }
        });
        if (rows.isEmpty()) {
            return "";
        }
        return "## Headline ratios (issue 15)\n\nEach ratio is setup A's " + "requests/s (MB/s for large files; "
                + "the servers' CPU time per request where it says so) over setup B's in the same round, median "
                + "(min–max) over the rounds. **⚠** marks a ratio whose "
                + "min–max includes its target (or 1× where two setups are compared): the rounds do not decide it — "
                + "run more rounds (`--runs`) or longer ones (`--duration`) before concluding.\n\n"
                + "| ratio | where | target | round by round | verdict |\n|---|---|---:|---:|---|\n"
                + String.join("\n", rows) + "\n\n";
    }

    static String target(Line l) {
        if (l.versus()) {
            return l.atLeast() ? "> 1× (faster)" : "< 1× (cheaper)";
        }
        return (l.atLeast() ? "≥ " : "< ") + Stats.fmt(l.target(), 2) + "×";
    }

    static String verdict(Line l, RoundRatios r) {
        if (!l.versus()) {
            return r.verdict(l.target(), l.atLeast());
        }
        String side = r.median() > 1 ? "faster" : r.median() < 1 ? "slower" : "equal";
        if (!l.atLeast()) {
            side = r.median() < 1 ? "cheaper" : r.median() > 1 ? "dearer" : "equal";
        }
        return r.overlaps(1.0) ? side + " by the median, " + r.warning(1.0) + ": undecided" : "**" + side + "**";
    }
}
