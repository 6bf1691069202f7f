package dev.xaccel.bench.report;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;

/** The numbers in the report's cells: medians, min–max, thousands separators, verdicts; "–" for none. */
final class Stats {

    private Stats() {
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

    static String fmt(double d, int decimals) {
        if (Double.isNaN(d)) {
            return "–";
        }
        return String.format(Locale.ROOT, "%,." + decimals + "f", d);
    }

    /** "median (min–max)", "median" for one value, "–" for none. */
    static String cell(List<Double> v, int decimals) {
        if (v == null || v.isEmpty()) {
            return "–";
        }
        String m = fmt(median(v), decimals);
        return v.size() == 1 ? m : m + " (" + fmt(Collections.min(v), decimals) + "–"
                + fmt(Collections.max(v), decimals) + ")";
    }

    /** Against a target to reach ({@code atLeast}) or stay below; below 0.1 the value is shown as a percentage. */
    static String verdict(double v, double target, boolean atLeast) {
        if (Double.isNaN(v) || Double.isInfinite(v)) {
            return "n/a";
        }
        boolean ok = atLeast ? v >= target : v < target;
        String shown = target < 0.1 ? fmt(100 * v, 2) + "%" : fmt(v, 2) + "×";
        return (ok ? "met (" : "**missed** (") + shown + ")";
    }
}
