package dev.xaccel.bench.run;

import static dev.xaccel.bench.run.OptionValues.atLeast;
import static dev.xaccel.bench.run.OptionValues.bytes;
import static dev.xaccel.bench.run.OptionValues.count;
import static dev.xaccel.bench.run.OptionValues.positive;
import static dev.xaccel.bench.run.OptionValues.positives;
import static dev.xaccel.bench.run.OptionValues.seed;
import static dev.xaccel.bench.run.OptionValues.setups;
import static dev.xaccel.bench.run.OptionValues.sizes;
import static dev.xaccel.bench.run.OptionValues.words;
import static dev.xaccel.bench.run.OptionValues.workloads;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

/** benchmarks/run's options by name: whether each takes a value, and what it sets ({@link BenchOptions#parse}). */
final class OptionTable {

    private OptionTable() {
    }

    @FunctionalInterface
    interface Handler {
        void apply(OptionDefaults b, String option, String value) throws UsageException;
    }

    record Option(boolean takesValue, Handler handler) {
    }

    static final Map<String, Option> OPTIONS = new LinkedHashMap<>();

    private static void flag(String name, Handler h) {
        OPTIONS.put(name, new Option(false, h));
    }

    private static void valued(String name, Handler h) {
        OPTIONS.put(name, new Option(true, h));
    }

    static {
        flag("--quick", (b, o, v) -> { }); // applied before all others
        flag("--profile", (b, o, v) -> b.profile = BenchOptions.Profile.ON);
        flag("--no-profile", (b, o, v) -> b.profile = BenchOptions.Profile.OFF);
        flag("--offline", (b, o, v) -> b.offline = true);
        flag("--help", (b, o, v) -> b.help = true);
        flag("-h", (b, o, v) -> b.help = true);
        valued("--size", (b, o, v) -> {
            b.bigBytes = bytes(o, v);
            b.size = v;
        });
        valued("--runs", (b, o, v) -> b.runs = positive(o, v));
        valued("--seed", (b, o, v) -> b.seed = seed(o, v));
        valued("--side-rounds", (b, o, v) -> b.sideRounds = positive(o, v));
        valued("--hop-blocks", (b, o, v) -> b.hopBlocks = positive(o, v));
        valued("--deep-sizes", (b, o, v) -> b.deepSizes = sizes(o, v));
        valued("--spread-sizes", (b, o, v) -> b.spreadSizes = sizes(o, v));
        valued("--spread-dirs", (b, o, v) -> b.spreadDirs = atLeast(o, v, FileSet.TITLES));
        flag("--no-pin", (b, o, v) -> b.pin = false);
        valued("--seq", (b, o, v) -> b.seq = positive(o, v));
        valued("--parallel", (b, o, v) -> b.parallel = positive(o, v));
        valued("--parallel-each", (b, o, v) -> b.parallelEach = positive(o, v));
        valued("--concurrency", (b, o, v) -> b.concurrencies = positives(o, v));
        valued("--duration", (b, o, v) -> {
            b.wrkSeconds = positive(o, v);
            b.acceptSeconds = b.wrkSeconds;
        });
        valued("--flood", (b, o, v) -> {
            String[] p = v.split(",", -1);
            if (p.length != 2) {
                throw new UsageException(o + ": expected IDLE,SLOW (two counts), got '" + v + "'");
            }
            b.floodIdle = count(o, p[0], v);
            b.floodSlow = count(o, p[1], v);
        });
        valued("--defer", (b, o, v) -> b.deferSeconds = positive(o, v));
        valued("--only", (b, o, v) -> b.workloads = workloads(o, v));
        valued("--setups", (b, o, v) -> b.setups = setups(o, v));
        valued("--jmh", (b, o, v) -> b.jmhOptions = words(v));
        valued("--jvm", (b, o, v) -> b.jvmOptions = words(v));
        valued("--out", (b, o, v) -> {
            if (v.isBlank()) {
                throw new UsageException(o + ": expected a directory, got ''");
            }
            b.outDir = Path.of(v);
        });
    }
}
