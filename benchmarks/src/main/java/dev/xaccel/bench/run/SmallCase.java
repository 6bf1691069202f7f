package dev.xaccel.bench.run;

import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One measurement of the small-file workload per round: a file set at one wrk concurrency, for some setups (whose
 * order is shuffled per round). Its workload id in the raw results is {@code small-c8} for the top-level set (the
 * id of earlier runs), {@code small-8K-deep-c8} for a deep one, {@code small-8K-spread-c8} for a spread one and
 * {@code small-8K-onedir-c8} for a spread set's one-directory twin.
 *
 * @param files       the files wrk cycles through
 * @param concurrency wrk's connections
 * @param setups      the setups measured, in the order of {@link Setup}
 */
public record SmallCase(FileSet files, int concurrency, List<Setup> setups) {

    public static final String PREFIX = "small-";
    private static final Pattern ID = Pattern.compile("small-(?:([0-9]+[KMG]?)-(deep|spread|onedir)-)?c([0-9]+)");

    public SmallCase {
        setups = List.copyOf(setups);
    }

    public String workload() {
        return PREFIX + (files.deep() ? files.id() + "-" : "") + "c" + concurrency;
    }

    /**
     * Whether its ratios may judge a target: not at concurrency 1, where one connection measures wake-ups and
     * segment counts (the latency of a round trip), not how much work a request costs.
     */
    public boolean judged() {
        return judged(concurrency);
    }

    static boolean judged(int concurrency) {
        return concurrency != 1;
    }

    /**
     * The parts of a small-file workload id: its deep, spread or one-directory set's size (empty for the top-level
     * set), whether it is a spread set or a spread set's one-directory twin, and the concurrency.
     */
    public record Id(Optional<String> deepSize, boolean spread, boolean oneDirectory, int concurrency) {

        /** A top-level or deep set's id. */
        public Id(Optional<String> deepSize, int concurrency) {
            this(deepSize, false, false, concurrency);
        }

        /** A top-level, deep or spread set's id. */
        public Id(Optional<String> deepSize, boolean spread, int concurrency) {
            this(deepSize, spread, false, concurrency);
        }

        public boolean judged() {
            return SmallCase.judged(concurrency);
        }

        public boolean topLevel() {
            return deepSize.isEmpty();
        }
    }

    /**
     * The parts of {@code small-c8}, {@code small-8K-deep-c64}, {@code small-8K-spread-c8} or
     * {@code small-8K-onedir-c8}; else empty.
     */
    public static Optional<Id> parse(String workload) {
        Matcher m = ID.matcher(workload);
        if (!m.matches()) {
            return Optional.empty();
        }
        return Optional.of(new Id(Optional.ofNullable(m.group(1)), "spread".equals(m.group(2)),
                "onedir".equals(m.group(2)), Integer.parseInt(m.group(3))));
    }
}
