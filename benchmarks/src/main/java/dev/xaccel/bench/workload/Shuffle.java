package dev.xaccel.bench.workload;

import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Deque;
import java.util.List;
import java.util.Random;
import java.util.SplittableRandom;

/**
 * The order of the setups in a round: shuffled per round and per workload from the run's seed, so that no setup
 * always follows the same one (a rotation keeps every neighbour) and drift (page cache, JIT, other load) falls on
 * the setups at random, not on the same ones every round. The same seed gives the same orders again
 * ({@code --seed}).
 * <p>
 * With {@linkplain #order(List, List, String, int) neighbourhoods} the judged pairs are measured next to each
 * other: the machine's speed drifts over a round (up to 16 setups of 3 s each), and a pair measured tens of seconds
 * apart takes that drift into its ratio. In the runs of 2026-12-06 20:08 and 20:58, xaccel ÷ bare at c=64 was
 * 0.94–1.01 in the rounds that measured the two next to each other and 0.62–1.43 in those with 8–13 setups between
 * them. Still no extra measurement: the neighbourhoods and the setups outside them are shuffled as units, and each
 * partner's side of its baseline is drawn too.
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

    /**
     * {@code list} in the order of {@code round}, each element once, with each neighbourhood's members of
     * {@code list} kept together: its first element (a baseline) in the middle, its other elements (the setups
     * judged against it, in priority order) placed alternately on either side of it, the first partner's side
     * drawn; so the baseline sits next to its first two partners. An element belongs to at most one neighbourhood
     * (the first that names it).
     */
    public <T> List<T> order(List<T> list, List<List<T>> neighbourhoods, String workload, int round) {
        Random random = new Random(mix(workload, round));
        List<List<T>> units = new ArrayList<>();
        List<T> placed = new ArrayList<>();
        for (List<T> n : neighbourhoods) {
            List<T> members = n.stream().filter(list::contains).filter(e -> !placed.contains(e)).toList();
            if (!members.isEmpty()) {
                placed.addAll(members);
                units.add(members);
            }
        }
        for (T e : list) {
            if (!placed.contains(e)) {
                units.add(List.of(e));
            }
        }
        Collections.shuffle(units, random);
        List<T> out = new ArrayList<>(list.size());
        for (List<T> unit : units) {
            Deque<T> row = new ArrayDeque<>(List.of(unit.get(0)));
            boolean first = random.nextBoolean();
            for (int i = 1; i < unit.size(); i++) {
                if (first == (i % 2 == 1)) {
                    row.addFirst(unit.get(i));
                } else {
                    row.addLast(unit.get(i));
                }
            }
            out.addAll(row);
        }
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
