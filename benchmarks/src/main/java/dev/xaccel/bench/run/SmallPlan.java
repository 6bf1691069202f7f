package dev.xaccel.bench.run;

import java.util.ArrayList;
import java.util.List;

/**
 * What the small-file workload measures in every round, chosen for the time budget ({@link RunPlan}): the top-level
 * set at every concurrency, with every setup at 8 and 64 but at concurrency 1 only the setups of the headline
 * ratios (reported there, not judged); and every deep set (8, 50 and 512 KiB three directories below the root) at
 * every concurrency above 1 for the setups that serve the file from Tomcat, where the size (sendfile from 48 KiB)
 * and the depth (a walk per request) decide. {@code --quick} measures the deep sets with setup 1 only.
 */
public final class SmallPlan {

    /** Measured at concurrency 1: the setups of the headline ratios. */
    public static final List<Setup> AT_C1 = List.of(Setup.TOMCAT, Setup.TOMCAT_NIO, Setup.DEFAULT, Setup.SENDFILE,
            Setup.XACCEL, Setup.BARE, Setup.STATIC);
    /** Measured with the deep sets: the file served from Tomcat, with and without the xaccel connector. */
    public static final List<Setup> DEEP = List.of(Setup.TOMCAT, Setup.TOMCAT_NIO, Setup.DEFAULT, Setup.SENDFILE);
    /** {@code --quick}'s deep-set setup: the xaccel connector (the others go through the same paths at the top). */
    static final List<Setup> DEEP_QUICK = List.of(Setup.TOMCAT);

    private SmallPlan() {
    }

    /** The cases of one round, in their order (each case's setups are shuffled per round by the workload). */
    public static List<SmallCase> cases(BenchOptions o) {
        List<SmallCase> cases = new ArrayList<>();
        for (int c : o.concurrencies()) {
            add(cases, new SmallCase(o.mainSet(), c, SmallCase.judged(c) ? o.setups().stream().sorted().toList()
                    : among(o, AT_C1)));
            if (!SmallCase.judged(c)) {
                continue;
            }
            for (FileSet f : o.deepSets()) {
                add(cases, new SmallCase(f, c, among(o, o.quick() ? DEEP_QUICK : DEEP)));
            }
        }
        return cases;
    }

    /** Every (case, setup) measurement of one round. */
    public static int measurementsPerRound(BenchOptions o) {
        return cases(o).stream().mapToInt(c -> c.setups().size()).sum();
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
