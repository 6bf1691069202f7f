package dev.xaccel.bench;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** The filter's hot path without network or container: {@link FilterHotPathBenchmark} under JMH, CSV results. */
final class JmhWorkload implements Workload {

    private Path csv;

    Optional<Path> csv() {
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
        if (rig.processes().await(p) != 0) {
            Log.tail(log, 40);
            throw new BenchFailure("JMH failed");
        }
        csv = out;
    }
}
