package dev.xaccel.bench.workload;

import java.io.IOException;
import java.lang.reflect.Method;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import org.openjdk.jmh.annotations.Benchmark;

import dev.xaccel.bench.hotpath.FilterHotPathBenchmark;
import dev.xaccel.bench.run.BenchFailure;
import dev.xaccel.bench.run.Log;
import dev.xaccel.bench.setup.BenchRig;

/**
 * The filter's hot path without network or container: {@link FilterHotPathBenchmark} under JMH (CSV results), then
 * {@link HotPathCounts} (CPU time, allocation and file-system calls per offloaded request).
 */
public final class JmhWorkload implements Workload {

    private Path csv;

    public Optional<Path> csv() {
        return Optional.ofNullable(csv);
    }

    @Override
    public void run(BenchRig rig) {
        List<String> opts = rig.options().jmhOptions();
        Log.info("JMH: FilterHotPathBenchmark (" + String.join(" ", opts) + ")");
        Path out = rig.work().resolve("jmh.csv");
        Path log = rig.work().resolve("jmh.log");
        List<String> cmd = new ArrayList<>(List.of(rig.java(), "-cp", rig.classPath(), "org.openjdk.jmh.Main",
                FilterHotPathBenchmark.class.getName()));
        cmd.addAll(opts);
        cmd.addAll(List.of("-bm", "avgt", "-tu", "ns", "-rf", "csv", "-rff", out.toString(), "-jvmArgs",
                "-Xmx256m"));
        Process p = rig.processes().start(cmd, Map.of(), log);
        if (rig.processes().await(p) != 0 || !hasEveryBenchmark(out)) {
            // JMH exits 0 when a benchmark method throws: the CSV then lacks its row
            Log.tail(log, 40);
            throw new BenchFailure("JMH failed (see " + log + ")");
        }
        csv = out;
        HotPathCounts.forRun(rig.options().quick()).run(rig);
    }

    /** Whether the CSV has a result row for every {@code @Benchmark} method. */
    private static boolean hasEveryBenchmark(Path csv) {
        try {
            String text = Files.exists(csv) ? Files.readString(csv) : "";
            for (Method m : FilterHotPathBenchmark.class.getMethods()) {
                if (m.isAnnotationPresent(Benchmark.class)
                        && !text.contains(FilterHotPathBenchmark.class.getName() + "." + m.getName() + "\"")) {
                    return false;
                }
            }
            return true;
        } catch (IOException e) {
            return false;
        }
    }
}
