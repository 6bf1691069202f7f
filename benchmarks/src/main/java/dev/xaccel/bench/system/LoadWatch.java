package dev.xaccel.bench.system;

import java.util.Locale;

/**
 * What else ran on the machine during the run, noted after every measurement: the CPU time of other processes
 * ({@link OtherCpu}), and beside it the highest 1-minute load average (which counts the run's own threads too).
 */
public final class LoadWatch {

    /** Other processes' average share of one CPU above which the report says the machine was shared. */
    static final double SHARED = 0.05;

    private final String before;
    private final OtherCpu others;
    private final long startNanos = System.nanoTime();
    private double max;

    public LoadWatch(String before, OtherCpu others) {
        this.before = before;
        this.others = others;
        this.max = Machine.load1();
    }

    public void note() {
        double l = Machine.load1();
        if (l > max) {
            max = l;
        }
        others.note();
    }

    public String before() {
        return before;
    }

    double max() {
        return max;
    }

    /** The report's sentence on the machine: flags a shared one when other processes used CPU meanwhile. */
    public String note(int clockTicks) {
        double seconds = (double) others.ticks() / clockTicks;
        double share = seconds / Math.max(1e-9, (System.nanoTime() - startNanos) / 1e9);
        return sentence(max, seconds, share);
    }

    static String sentence(double maxLoad, double otherSeconds, double share) {
        String seen = String.format(Locale.ROOT, "Other processes used %.1f s of CPU during the run (%.1f %% of one "
                + "CPU on average; the run's own processes and the kernel's threads left out). Highest 1-minute load "
                + "average: %.2f (it counts the run's own threads: Tomcat's and wrk's at c=64 make it several).",
                otherSeconds, share * 100, maxLoad);
        if (share > SHARED) {
            return seen + " **The machine was shared during the run**: absolute numbers are lower and noisier than "
                    + "on an idle machine; ratios from the alternated runs are the more robust result.";
        }
        return seen;
    }
}
