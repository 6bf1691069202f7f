package dev.xaccel.bench.run;

import java.util.ArrayList;
import java.util.List;

/**
 * What the small-file workload measures in every round, chosen for the time budget ({@link RunPlan}): the top-level
 * set at every concurrency, with every setup at the highest (the chart's, the profile's) but at the others only the
 * setups of the headline ratios ({@link #HEADLINE}; at concurrency 1, when asked for, {@link #AT_C1}: reported, not
 * judged); and every deep set (8, 50 and 512 KiB three directories below the root) at every concurrency above 1
 * for the setups that serve the file from Tomcat ({@link #DEEP}), where the size (sendfile from 48 KiB) and the
 * depth (a walk per request) decide. {@code --quick} measures the deep sets with setup 1 only. Each spread
 * set (the same depth, one file per directory in thousands of directories) follows its one-directory twin (as many
 * files of its size, all in one directory), the twin measured with the direct path and the offload check
 * ({@link #ONEDIR}), the spread set with those and DefaultServlet ({@link #SPREAD}), so that the report can set one
 * layout against the other round by round with the same files.
 */
public final class SmallPlan {

    /** Measured at concurrency 1: the setups of the headline ratios. */
    public static final List<Setup> AT_C1 = List.of(Setup.TOMCAT, Setup.TOMCAT_NIO, Setup.DEFAULT, Setup.SENDFILE,
            Setup.XACCEL, Setup.BARE, Setup.STATIC);
    /** Measured at every judged concurrency: the setups of the headline ratios (A and B of each). */
    public static final List<Setup> HEADLINE = List.of(Setup.TOMCAT, Setup.TOMCAT_NIO, Setup.DEFAULT, Setup.SENDFILE,
            Setup.XACCEL, Setup.BARE, Setup.STATIC, Setup.UDS, Setup.CACHED, Setup.SIGNED, Setup.RECEIPTS);
    /**
     * Measured with the deep sets: the file served from Tomcat by the filter (checked file, and sendfile by name) and
     * by DefaultServlet. Stock NIO (setup 15, no target) is measured at the top only since issue 34: its deep
     * measurements went to the rounds of the judged ratios.
     */
    public static final List<Setup> DEEP = List.of(Setup.TOMCAT, Setup.DEFAULT, Setup.SENDFILE);
    /** {@code --quick}'s deep-set setup: the xaccel connector (the others go through the same paths at the top). */
    static final List<Setup> DEEP_QUICK = List.of(Setup.TOMCAT);
    /**
     * Measured with a spread set: the direct path and the offload check (set against the twin), and DefaultServlet
     * (the headline's direct ÷ DefaultServlet on the spread layout).
     */
    public static final List<Setup> SPREAD = List.of(Setup.TOMCAT, Setup.XACCEL, Setup.DEFAULT);
    /**
     * Measured with a spread set's one-directory twin: the two setups whose directory handling issue 34 judges
     * (DefaultServlet's layout cost is not the filter's: left out for the time budget).
     */
    public static final List<Setup> ONEDIR = List.of(Setup.TOMCAT, Setup.XACCEL);
    /** {@code --quick}'s, for the spread set (its twin is not measured there): the direct path. */
    static final List<Setup> SPREAD_QUICK = List.of(Setup.TOMCAT);

    /**
     * The hop's neighbourhood: the bare servlet and the filter without and with receipts, in the hop's JVM.
     * Measured {@code --hop-blocks} times per round at the top (the only ratios whose target is within the
     * rounds' scatter).
     */
    public static final List<Setup> HOP = List.of(Setup.BARE, Setup.XACCEL, Setup.RECEIPTS);

    /**
     * Measured next to each other in every round ({@code Shuffle}): each list's baseline first, then the setups
     * judged against it, those with a target first. The hop (xaccel and receipts beside the bare servlet), the
     * direct path (the filter and sendfile beside DefaultServlet) and nginx's own answers (cached decisions and
     * signed links beside nginx static). The headline ratios with a target are these pairs (HeadlineRatiosTest).
     */
    public static final List<List<Setup>> NEIGHBOURHOODS = List.of(
            HOP,
            List.of(Setup.DEFAULT, Setup.TOMCAT, Setup.SENDFILE, Setup.TOMCAT_NIO),
            List.of(Setup.STATIC, Setup.SIGNED, Setup.CACHED, Setup.CONFINED));

    private SmallPlan() {
    }

    /** The cases of one round, in their order (each case's setups are shuffled per round by the workload). */
    public static List<SmallCase> cases(BenchOptions o) {
        List<SmallCase> cases = new ArrayList<>();
        for (int c : o.concurrencies()) {
            List<Setup> top = !SmallCase.judged(c) ? AT_C1 : c == o.highestConcurrency() ? List.of(Setup.values())
                    : HEADLINE;
            add(cases, new SmallCase(o.mainSet(), c, among(o, top)));
            if (!SmallCase.judged(c)) {
                continue;
            }
            for (FileSet f : o.deepSets()) {
                add(cases, new SmallCase(f, c, among(o, o.quick() ? DEEP_QUICK : DEEP)));
            }
            for (FileSet f : o.spreadSets()) {
                if (!o.quick()) {
                    // --quick keeps under a minute: the spread set alone, with setup 1
                    add(cases, new SmallCase(f.oneDirectoryTwin(), c, among(o, ONEDIR)));
                }
                add(cases, new SmallCase(f, c, among(o, o.quick() ? SPREAD_QUICK : SPREAD)));
            }
        }
        return cases;
    }

    /** Every (case, setup) measurement of one round, the hop's further blocks included. */
    public static int measurementsPerRound(BenchOptions o) {
        return cases(o).stream().mapToInt(c -> c.setups().size() + (o.hopBlocks() - 1) * hopBlock(c).size()).sum();
    }

    /** Measurements of setup 16 (receipts) in one round, the hop's further blocks included. */
    public static int receiptMeasurementsPerRound(BenchOptions o) {
        return cases(o).stream().mapToInt(c -> (c.setups().contains(Setup.RECEIPTS) ? 1 : 0)
                + (hopBlock(c).contains(Setup.RECEIPTS) ? o.hopBlocks() - 1 : 0)).sum();
    }

    /**
     * The setups of {@code k} that each further block of a round measures again ({@code --hop-blocks}): the hop's,
     * at the top of a judged concurrency, where the hop's ratios are taken; none elsewhere.
     */
    public static List<Setup> hopBlock(SmallCase k) {
        List<Setup> hop = k.setups().stream().filter(HOP::contains).toList();
        return hop.size() < 2 || k.files().deep() || !k.judged() ? List.of() : hop;
    }

    private static void add(List<SmallCase> cases, SmallCase c) {
        if (!c.setups().isEmpty()) {
            cases.add(c);
        }
    }

    /** The setups of {@code wanted} that the command line asked for, in {@link Setup}'s order. */
    private static List<Setup> among(BenchOptions o, List<Setup> wanted) {
        return o.setups().stream().filter(wanted::contains).sorted().toList();
    }
}
