package dev.xaccel.bench.report;

/**
 * The verdict on a ratio measured round by round ({@link RoundRatios}) against its target: decided only by the
 * whole min–max over the rounds, never by the median, so that a verdict does not move from one run to the next
 * with noise the rounds already show. One round says nothing about the spread: undecided.
 */
enum Verdict {
    /** Every round reached the target (min ≥ target). */
    MET,
    /** No round reached it (max &lt; target). */
    MISSED,
    /** The rounds lie on both sides of the target, or there is only one round. */
    UNDECIDED,
    /** Nothing measured. */
    NONE;

    static Verdict of(RoundRatios r, double target) {
        if (r.isEmpty()) {
            return NONE;
        }
        if (r.overlaps(target)) {
            return UNDECIDED;
        }
        return r.min() >= target ? MET : MISSED;
    }

    /** Against a limit the ratio should stay at or below: met when max ≤ limit, missed when min &gt; limit. */
    static Verdict atMost(RoundRatios r, double limit) {
        if (r.isEmpty()) {
            return NONE;
        }
        if (r.ratios().size() < 2 || r.min() <= limit && limit < r.max()) {
            return UNDECIDED;
        }
        return r.max() <= limit ? MET : MISSED;
    }

    /** {@link #atMost}'s verdict as text, like {@link #text}. */
    static String textAtMost(RoundRatios r, double limit) {
        return switch (atMost(r, limit)) {
            case MET -> "**met**";
            case MISSED -> "**missed**";
            case UNDECIDED -> "undecided " + r.warning(limit);
            case NONE -> "–";
        };
    }

    /** "**met**", "**missed**", "undecided ⚠ …" saying why, or "–". */
    static String text(RoundRatios r, double target) {
        return switch (of(r, target)) {
            case MET -> "**met**";
            case MISSED -> "**missed**";
            case UNDECIDED -> "undecided " + r.warning(target);
            case NONE -> "–";
        };
    }
}
