package dev.xaccel.bench.report;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;

/**
 * The ratio of two setups' measurements round by round: setup A's value of round r over setup B's value of the
 * same round, for every round that measured both. Both are measured within one round (order shuffled per round),
 * so their ratio is less exposed to drift between rounds than the ratio of their medians; the spread of the
 * per-round ratios shows how far to trust it.
 *
 * @param ratios the per-round ratios, in round order
 */
record RoundRatios(List<Double> ratios) {

    RoundRatios {
        ratios = List.copyOf(ratios);
    }

    /** From round → value of A and of B; rounds missing in either, or where B is 0, are left out. */
    static RoundRatios of(Map<Integer, Double> a, Map<Integer, Double> b) {
        List<Double> r = new ArrayList<>();
        a.keySet().stream().sorted().forEach(round -> {
            Double y = b.get(round);
            if (y != null && y != 0) {
                r.add(a.get(round) / y);
            }
        });
        return new RoundRatios(r);
    }

    boolean isEmpty() {
        return ratios.isEmpty();
    }

    double median() {
        return Stats.median(ratios);
    }

    double min() {
        return ratios.isEmpty() ? Double.NaN : Collections.min(ratios);
    }

    double max() {
        return ratios.isEmpty() ? Double.NaN : Collections.max(ratios);
    }

    /**
     * The min–max of the rounds straddles {@code line} (a target, or 1 for "A against B": some round below it, some
     * at or above it): the rounds do not decide on which side of it the ratio lies. With one round nothing is known
     * about the spread: true. {@link Verdict} decides a target by it.
     */
    boolean overlaps(double line) {
        if (ratios.isEmpty()) {
            return false;
        }
        return ratios.size() < 2 || min() < line && line <= max();
    }

    /** {@link #cell()} with {@code ⚠} when the min–max overlaps {@code line}. */
    String cell(double line) {
        return overlaps(line) ? cell() + " " + warning(line) : cell();
    }

    /** Why the rounds do not decide against {@code line}. */
    String warning(double line) {
        return ratios.size() < 2 ? "⚠ one round: spread unknown"
                : "⚠ min–max overlaps " + Stats.fmt(line, 2) + "×";
    }

    /** {@code **0.98×** (0.95–1.01 over 3 rounds)}, {@code **0.98×** (1 round)}, or {@code –} without a round. */
    String cell() {
        if (ratios.isEmpty()) {
            return "–";
        }
        String median = "**" + Stats.fmt(Stats.median(ratios), 2) + "×**";
        if (ratios.size() == 1) {
            return median + " (1 round)";
        }
        return median + " (" + Stats.fmt(Collections.min(ratios), 2) + "–" + Stats.fmt(Collections.max(ratios), 2)
                + " over " + ratios.size() + " rounds)";
    }
}
