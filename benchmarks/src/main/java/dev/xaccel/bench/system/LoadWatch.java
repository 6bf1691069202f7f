package dev.xaccel.bench.system;

import java.util.Locale;

/** The highest 1-minute load average seen during the run, noted after every measurement. */
public final class LoadWatch {

    private final String before;
    private double max;

    public LoadWatch(String before) {
        this.before = before;
        this.max = Machine.load1();
    }

    public void note() {
        double l = Machine.load1();
        if (l > max) {
            max = l;
        }
    }

    public String before() {
        return before;
    }

    double max() {
        return max;
    }

    /** The sentence of the report on the load: flags other processes when the load was not our own. */
    public String note(int cores) {
        double first = Double.parseDouble(before.split(" ")[0].replace("?", "NaN"));
        String seen = "Highest 1-minute load seen during the run: " + String.format(Locale.ROOT, "%.2f", max)
                + " (our own client and servers account for up to about " + cores + ").";
        if (first > 0.5 || max > cores + 0.5) {
            return seen + " **Other processes were running on this machine during the run**: absolute numbers are "
                    + "lower and noisier than on an idle machine; ratios from the alternated runs are the more robust "
                    + "result.";
        }
        return seen;
    }
}
