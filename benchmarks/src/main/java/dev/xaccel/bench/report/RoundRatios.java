package dev.xaccel.bench.report;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;

/**
 * The ratio of two setups' measurements round by round: setup A's value of round r over setup B's value of the
 * same round, for every round that measured both. Both are measured within one round (order shuffled per round),
 * so their ratio is less exposed to drift between rounds than the ratio of their medians; the spread of the
 * per-round ratios shows how far to trust it. That spread is the interval of the median that holds whatever the
 * distribution of the rounds: the k-th smallest to the k-th largest round, k as large as keeps the median inside
 * with a probability of at least {@link #LEVEL} (the binomial tail of n rounds at ½). Up to 6 rounds that is the
 * whole min–max, of 7 to 9 the 2nd–(n−1)th, of 10 the 3rd–8th (89 %). A min–max only widens with more rounds,
 * this interval narrows.
 *
 * @param ratios the per-round ratios, in round order
 */
record RoundRatios(List<Double> ratios) {

    /** The least probability that the median lies within {@link #low()}–{@link #high()}. */
    static final double LEVEL = 0.85;

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

    /** The median's interval: the {@link #rank()}-th smallest round. */
    double low() {
        return sorted().get(rank() - 1);
    }

    /** The median's interval: the {@link #rank()}-th largest round. */
    double high() {
        List<Double> s = sorted();
        return s.get(s.size() - rank());
    }

    /**
     * The largest k ≥ 1 such that the k-th smallest to the k-th largest of the n rounds hold the median with a
     * probability of at least {@link #LEVEL}, that probability being 1 − 2·P(X ≤ k − 1) for X ~ Binomial(n, ½).
     */
    int rank() {
        return rank(ratios.size());
    }

    static int rank(int n) {
        int k = 1;
        while (k + 1 <= (n + 1) / 2 && coverage(n, k + 1) >= LEVEL) {
            k++;
        }
        return k;
    }

    /** P(the k-th smallest ≤ median ≤ the k-th largest of n) = 1 − 2·P(Binomial(n, ½) ≤ k − 1). */
    static double coverage(int n, int k) {
        double tail = 0;
        double choose = 1;
        for (int i = 0; i < k; i++) {
            tail += choose;
            choose = choose * (n - i) / (i + 1);
        }
        return 1 - 2 * tail / Math.pow(2, n);
    }

    /**
     * The median's interval straddles {@code line} (a target, or 1 for "A against B": its low end below it, its
     * high end at or above it): the rounds do not decide on which side of it the ratio lies. With one round
     * nothing is known about the spread: true. {@link Verdict} decides a target by it.
     */
    boolean overlaps(double line) {
        if (ratios.isEmpty()) {
            return false;
        }
        return ratios.size() < 2 || low() < line && line <= high();
    }

    /** {@link #cell()} with {@code ⚠} when the median's interval overlaps {@code line}. */
    String cell(double line) {
        return overlaps(line) ? cell() + " " + warning(line) : cell();
    }

    /** Why the rounds do not decide against {@code line}. */
    String warning(double line) {
        if (ratios.size() < 2) {
            return "⚠ one round: spread unknown";
        }
        return "⚠ " + (rank() == 1 ? "min–max overlaps " : span() + " overlap ") + Stats.fmt(line, 2) + "×";
    }

    /**
     * {@code **0.98×** (0.95–1.01 over 6 rounds)} while the interval is the min–max,
     * {@code **0.98×** (0.96–1.00, 3rd–8th of 10 rounds; all 0.91–1.05)} beyond, {@code **0.98×** (1 round)}, or
     * {@code –} without a round.
     */
    String cell() {
        if (ratios.isEmpty()) {
            return "–";
        }
        String median = "**" + Stats.fmt(Stats.median(ratios), 2) + "×**";
        if (ratios.size() == 1) {
            return median + " (1 round)";
        }
        String range = Stats.fmt(low(), 2) + "–" + Stats.fmt(high(), 2);
        if (rank() == 1) {
            return median + " (" + range + " over " + ratios.size() + " rounds)";
        }
        return median + " (" + range + ", " + span() + " rounds; all " + Stats.fmt(min(), 2) + "–"
                + Stats.fmt(max(), 2) + ")";
    }

    /** "3rd–8th of 10". */
    private String span() {
        int n = ratios.size();
        return ordinal(rank()) + "–" + ordinal(n + 1 - rank()) + " of " + n;
    }

    private static String ordinal(int i) {
        String suffix = i % 100 / 10 == 1 ? "th" : switch (i % 10) {
            case 1 -> "st";
            case 2 -> "nd";
            case 3 -> "rd";
            default -> "th";
        };
        return i + suffix;
    }

    private List<Double> sorted() {
        List<Double> s = new ArrayList<>(ratios);
        Collections.sort(s);
        return s;
    }
}
