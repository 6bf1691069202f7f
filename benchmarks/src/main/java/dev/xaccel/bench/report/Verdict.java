package dev.xaccel.bench.report;

/**
 * The verdict on a ratio measured round by round ({@link RoundRatios}) against its target: decided only by the
 * median's interval over the rounds ({@link RoundRatios#low()}–{@link RoundRatios#high()}: the min–max up to 6
 * rounds, the 3rd–8th of 10), never by the median alone, so that a verdict does not move from one run to the next
 * with noise the rounds already show. One round says nothing about the spread: undecided.
 */
enum Verdict {
    /** The median's interval lies at or above the target (low ≥ target). */
    MET,
    /** It lies below it (high &lt; target). */
    MISSED,
    /** The interval straddles the target, or there is only one round. */
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
        return r.low() >= target ? MET : MISSED;
    }

    /** Against a limit the ratio should stay at or below: met when high ≤ limit, missed when low &gt; limit. */
    static Verdict atMost(RoundRatios r, double limit) {
        if (r.isEmpty()) {
            return NONE;
        }
        if (r.ratios().size() < 2 || r.low() <= limit && limit < r.high()) {
            return UNDECIDED;
        }
        return r.high() <= limit ? MET : MISSED;
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
