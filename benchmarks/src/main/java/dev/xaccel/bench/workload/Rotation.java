package dev.xaccel.bench.workload;

import java.util.ArrayList;
import java.util.List;

/**
 * The order of the setups in a round: round r (from 1) starts r-1 places further into the list, so that drift
 * (page cache, JIT, other load) spreads over all setups.
 */
final class Rotation {

    private Rotation() {
    }

    static <T> List<T> forRound(List<T> list, int round) {
        return rotate(list, round - 1);
    }

    static <T> List<T> rotate(List<T> list, int k) {
        int n = list.size();
        List<T> out = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            out.add(list.get((i + k) % n));
        }
        return out;
    }
}
