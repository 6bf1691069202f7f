package dev.xaccel.bench.workload;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.SplittableRandom;

/**
 * The order of the setups in a round: shuffled per round and per workload from the run's seed, so that no setup
 * always follows the same one (a rotation keeps every neighbour) and drift (page cache, JIT, other load) falls on
 * the setups at random, not on the same ones every round. The same seed gives the same orders again
 * ({@code --seed}). Chosen over ABBA pairs because it protects every ratio of a round, not only the headline pairs,
 * at no extra measurement.
 */
public final class Shuffle {

    private final long seed;

    public Shuffle(long seed) {
        this.seed = seed;
    }

    /** {@code list} in the order of {@code round} (from 1) of {@code workload}: each element once. */
    public <T> List<T> order(List<T> list, String workload, int round) {
        List<T> out = new ArrayList<>(list);
        // java.util.Random's sequence is specified: the same seed gives the same order on every JVM
        Collections.shuffle(out, new Random(mix(workload, round)));
        return out;
    }

    /** The seed of one round of one workload: the run's seed, the workload's name and the round, mixed. */
    private long mix(String workload, int round) {
        long h = seed;
        for (byte b : workload.getBytes(StandardCharsets.UTF_8)) {
            h = h * 31 + b;
        }
        return new SplittableRandom(h * 1_000_003L + round).nextLong();
    }
}
