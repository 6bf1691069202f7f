package dev.xaccel.bench.workload;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import dev.xaccel.bench.run.BenchFailure;
import dev.xaccel.bench.run.Log;
import dev.xaccel.bench.run.Setup;
import dev.xaccel.bench.setup.BenchRig;
import dev.xaccel.bench.system.PerfSummary;
import dev.xaccel.bench.system.Processes;

/**
 * Where the time goes: one extra small-file run per setup at the highest concurrency under
 * {@code perf record -e cpu-clock -F 499 -a} (not part of the tables), summarized by process and thread kind and by
 * binary. JIT-compiled frames are named through {@code jcmd <pid> Compiler.perfmap}. Needs a working perf.
 */
public final class PerfProfile implements Workload {

    private Path text;

    /** The summary for the report, when a profile was taken. */
    public Optional<Path> text() {
        return Optional.ofNullable(text);
    }

    /** True when {@code perf record} works here (installed, and allowed by perf_event_paranoid). */
    public static boolean usable(Processes processes, Path work) {
        try {
            return processes.run(List.of("perf", "record", "-q", "-e", "cpu-clock", "-o",
                    work.resolve("perf-probe.data").toString(), "--", "true")).ok();
        } catch (BenchFailure e) {
            return false;
        }
    }

    @Override
    public void run(BenchRig rig) {
        Path out = rig.work().resolve("perf.txt");
        int c = rig.options().highestConcurrency();
        int secs = rig.options().wrkSeconds();
        perfMap(rig);
        StringBuilder sb = new StringBuilder();
        for (Setup s : rig.options().setups()) {
            Log.info("perf profile: " + s.id() + ", concurrency " + c + " (not recorded in the tables)");
            Path data = rig.work().resolve("perf-" + s.id() + ".data");
            Process perf = rig.processes().start(List.of("perf", "record", "-q", "-e", "cpu-clock", "-F", "499",
                    "-a", "-o", data.toString(), "--", "sleep", Integer.toString(secs)), Map.of(),
                    rig.work().resolve("perf-" + s.id() + ".log"));
            rig.wrk(s, c, secs);
            rig.processes().await(perf);
            perfMap(rig);
            sb.append(section(rig, s, c, data));
        }
        write(out, sb.toString());
        text = out;
    }

    private static String section(BenchRig rig, Setup s, int c, Path data) {
        Processes p = rig.processes();
        String f = data.toString();
        long jvm = rig.server(s).pid();
        StringBuilder sb = new StringBuilder();
        sb.append("== setup ").append(s.id()).append(", wrk concurrency ").append(c)
                .append(": share of all CPU samples (both cores)\n");
        lines(sb, PerfSummary.byProcess(p.stdout(List.of("perf", "script", "-i", f, "-F", "comm,pid")), jvm,
                new HashSet<>(rig.nginx().pids())));
        sb.append("-- its Tomcat JVM by binary (kernel = system calls, network, page cache; [JIT] = compiled Java)\n");
        lines(sb, PerfSummary.byBinary(p.stdout(List.of("perf", "report", "-i", f, "--stdio", "--pid",
                Long.toString(jvm), "--sort", "dso,sym")), 6));
        sb.append("-- nginx by binary\n");
        lines(sb, PerfSummary.byBinary(p.stdout(List.of("perf", "report", "-i", f, "--stdio", "--comms", "nginx",
                "--sort", "dso,sym")), 4));
        return sb.append('\n').toString();
    }

    private static void lines(StringBuilder sb, List<String> lines) {
        lines.forEach(l -> sb.append(l).append('\n'));
    }

    /** JIT symbols for perf (JDK 17+); without them compiled frames stay anonymous, which is no reason to stop. */
    private static void perfMap(BenchRig rig) {
        for (long pid : List.of(rig.tomcat().pid(), rig.hop().pid())) {
            try {
                rig.processes().run(List.of(Path.of(rig.java()).resolveSibling("jcmd").toString(),
                        Long.toString(pid), "Compiler.perfmap"));
            } catch (BenchFailure e) {
                Log.info("jcmd Compiler.perfmap failed: " + e.getMessage());
            }
        }
    }

    private static void write(Path file, String text) {
        try {
            Files.writeString(file, text, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
