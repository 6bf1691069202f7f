package dev.xaccel.bench.report;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import dev.xaccel.bench.run.RawResults;
import dev.xaccel.bench.run.Setup;

/**
 * The raw measurements of a run as {@link RawResults} wrote them ({@code workload setup round metric value}),
 * in the order they were taken, and what the report asks of them: the values over the rounds, their median, the
 * ratio of two setups round by round, sums and CPU per GB.
 */
final class Measurements {

    /** One measured value and its round. */
    private record Value(int round, double value) {
    }

    /** workload → setup → metric → values in file order. */
    private final Map<String, Map<String, Map<String, List<Value>>>> data = new LinkedHashMap<>();

    static Measurements read(Path raw) throws IOException {
        Measurements m = new Measurements();
        for (String line : Files.readAllLines(raw, StandardCharsets.UTF_8)) {
            if (line.isBlank() || line.startsWith("#")) {
                continue;
            }
            String[] f = line.split("\t");
            if (f.length != 5) {
                throw new IllegalArgumentException("bad raw line: " + line);
            }
            m.data.computeIfAbsent(f[0], k -> new LinkedHashMap<>()).computeIfAbsent(f[1], k -> new LinkedHashMap<>())
                    .computeIfAbsent(f[3], k -> new ArrayList<>())
                    .add(new Value(Integer.parseInt(f[2]), Double.parseDouble(f[4])));
        }
        return m;
    }

    /** The workloads whose id starts with {@code prefix}, in the order they were measured. */
    Set<String> workloads(String prefix) {
        Set<String> s = new LinkedHashSet<>();
        for (String w : data.keySet()) {
            if (w.startsWith(prefix)) {
                s.add(w);
            }
        }
        return s;
    }

    /** workload → the setups (or connectors, modes) measured in it. */
    Map<String, Set<String>> setupsByWorkload() {
        Map<String, Set<String>> m = new LinkedHashMap<>();
        data.forEach((w, setups) -> m.put(w, setups.keySet()));
        return m;
    }

    /** The setups (or connectors, modes) measured in a workload, in the order they were measured. */
    Set<String> setups(String workload) {
        return data.getOrDefault(workload, Map.of()).keySet();
    }

    /** The benchmark's setups measured in a workload, in {@link Setup}'s order. */
    List<Setup> setupsIn(String workload) {
        List<Setup> s = new ArrayList<>();
        for (Setup setup : Setup.values()) {
            if (setups(workload).contains(setup.id())) {
                s.add(setup);
            }
        }
        return s;
    }

    /** The metrics of one setup in a workload, in the order they were first measured. */
    Set<String> metrics(String workload, String setup) {
        return data.getOrDefault(workload, Map.of()).getOrDefault(setup, Map.of()).keySet();
    }

    List<Double> values(String workload, String setup, String metric) {
        return series(workload, setup, metric).stream().map(Value::value).toList();
    }

    /** round → value; of two values of one round, the later. */
    Map<Integer, Double> byRound(String workload, String setup, String metric) {
        Map<Integer, Double> m = new LinkedHashMap<>();
        series(workload, setup, metric).forEach(v -> m.put(v.round(), v.value()));
        return m;
    }

    double median(String workload, String setup, String metric) {
        return Stats.median(values(workload, setup, metric));
    }

    /** "median (min–max)" over the rounds, "median" when there is one value, "–" when none. */
    String cell(String workload, String setup, String metric, int decimals) {
        return Stats.cell(values(workload, setup, metric), decimals);
    }

    /** The ratio of the medians of two setups, "–" when either is missing. */
    String ratio(String workload, String metric, String a, String b) {
        double x = median(workload, a, metric);
        double y = median(workload, b, metric);
        if (Double.isNaN(x) || Double.isNaN(y) || y == 0) {
            return "–";
        }
        return Stats.fmt(x / y, 2) + "×";
    }

    /** Setup a's value over setup b's, round by round. */
    RoundRatios roundRatios(String workload, String metric, String a, String b) {
        return RoundRatios.of(byRound(workload, a, metric), byRound(workload, b, metric));
    }

    double sum(String workload, String setup, String metric) {
        double t = 0;
        for (double v : values(workload, setup, metric)) {
            t += v;
        }
        return t;
    }

    /** sum(metric) / sum(GB) over all rounds: CPU seconds per GB with the resolution of the whole run. */
    double perGB(String workload, String setup, String metric) {
        double gb = sum(workload, setup, "GB");
        return gb > 0 && !values(workload, setup, metric).isEmpty() ? sum(workload, setup, metric) / gb : Double.NaN;
    }

    private List<Value> series(String workload, String setup, String metric) {
        return data.getOrDefault(workload, Map.of()).getOrDefault(setup, Map.of()).getOrDefault(metric, List.of());
    }
}
