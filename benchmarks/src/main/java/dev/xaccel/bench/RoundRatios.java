package dev.xaccel.bench;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;

/**
 * The ratio of two setups' measurements round by round: setup A's value of round r over setup B's value of the
 * same round, for every round that measured both. Both are measured within one round (order rotated), so their
 * ratio is less exposed to drift between rounds than the ratio of their medians; the spread of the per-round ratios
 * shows how far to trust it.
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

    /** {@code **0.98×** (0.95–1.01 over 3 rounds)}, {@code **0.98×** (1 round)}, or {@code –} without a round. */
    String cell() {
        if (ratios.isEmpty()) {
            return "–";
        }
        String median = "**" + Report.fmt(Report.median(ratios), 2) + "×**";
        if (ratios.size() == 1) {
            return median + " (1 round)";
        }
        return median + " (" + Report.fmt(Collections.min(ratios), 2) + "–" + Report.fmt(Collections.max(ratios), 2)
                + " over " + ratios.size() + " rounds)";
    }
}
