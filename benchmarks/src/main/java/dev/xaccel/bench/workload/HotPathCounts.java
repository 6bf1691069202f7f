package dev.xaccel.bench.workload;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

import dev.xaccel.bench.hotpath.HotPathLoop;
import dev.xaccel.bench.run.BenchFailure;
import dev.xaccel.bench.run.Log;
import dev.xaccel.bench.setup.BenchRig;
import dev.xaccel.bench.system.Processes;
import dev.xaccel.bench.system.StraceCount;

/**
 * What one offloaded request costs the filter, per {@link HotPathLoop} mode: the thread's CPU nanoseconds and
 * allocated bytes per call, and, when {@code strace} runs here, its file-system system calls per call (the
 * difference between two traced runs that differ only in the number of calls, so the JVM's own calls cancel out).
 * Recorded as workload {@code hotpath}, setup = mode, metrics {@code cpu_ns}, {@code alloc_bytes},
 * {@code fs_calls} and one {@code sys_<name>} per system call seen.
 */
public final class HotPathCounts {

    /** The calls that touch the file system by name (what resolving a path costs). */
    static final Set<String> FS_CALLS = Set.of("stat", "lstat", "newfstatat", "fstatat64", "statx", "access",
            "faccessat", "faccessat2", "readlink", "readlinkat", "open", "openat", "openat2", "getdents64");

    private final List<String> modes;
    private final int calls;
    private final int tracedCalls;

    /**
     * @param modes       the {@link HotPathLoop#MODES} to measure
     * @param calls       calls per measured run
     * @param tracedCalls the extra calls of the second traced run; 0: no system call counts
     */
    HotPathCounts(List<String> modes, int calls, int tracedCalls) {
        this.modes = List.copyOf(modes);
        this.calls = calls;
        this.tracedCalls = tracedCalls;
    }

    /** All modes with their system calls, or (quick) one mode without. */
    static HotPathCounts forRun(boolean quick) {
        return quick ? new HotPathCounts(List.of("mapped"), 20_000, 0)
                : new HotPathCounts(HotPathLoop.MODES, 300_000, 20_000);
    }

    void run(BenchRig rig) {
        boolean strace = tracedCalls > 0 && rig.processes().run(List.of("strace", "-V")).ok();
        if (tracedCalls > 0 && !strace) {
            Log.info("hot path: strace does not run here, no system call counts");
        }
        for (String mode : modes) {
            double[] r = measure(rig, mode, calls, List.of());
            rig.results().value("hotpath", mode, 1, "cpu_ns", r[1]);
            rig.results().value("hotpath", mode, 1, "alloc_bytes", r[2]);
            if (strace) {
                Map<String, Double> perCall = syscallsPerCall(rig, mode);
                double fs = 0;
                for (Map.Entry<String, Double> e : perCall.entrySet()) {
                    if (FS_CALLS.contains(e.getKey())) {
                        fs += e.getValue();
                        rig.results().value("hotpath", mode, 1, "sys_" + e.getKey(), e.getValue());
                    }
                }
                rig.results().value("hotpath", mode, 1, "fs_calls", fs);
            }
            Log.info(String.format(Locale.ROOT, "hot path %s: %.0f ns CPU, %.0f B per call", mode, r[1],
                    r[2]));
        }
    }

    /** @return wall ns, cpu ns and bytes per call */
    private double[] measure(BenchRig rig, String mode, int n, List<String> prefix) {
        List<String> cmd = new ArrayList<>(prefix);
        cmd.addAll(List.of(rig.java(), "-Xmx256m", "-cp", rig.classPath(), HotPathLoop.class.getName(), mode,
                Integer.toString(n)));
        Processes.Result res = rig.processes().run(cmd);
        if (!res.ok()) {
            throw new BenchFailure("HotPathLoop " + mode + " failed: " + res.output());
        }
        return parse(res.output());
    }

    /** The {@link HotPathLoop#RESULT} line's numbers. */
    static double[] parse(String output) {
        for (String line : output.split("\n")) {
            String[] f = line.trim().split(" ");
            if (f.length == 5 && f[0].equals(HotPathLoop.RESULT)) {
                return new double[] {Double.parseDouble(f[2]), Double.parseDouble(f[3]), Double.parseDouble(f[4])};
            }
        }
        throw new BenchFailure("no '" + HotPathLoop.RESULT + "' line in HotPathLoop's output");
    }

    private Map<String, Double> syscallsPerCall(BenchRig rig, String mode) {
        Map<String, Long> few = traced(rig, mode, 10);
        Map<String, Long> many = traced(rig, mode, 10 + tracedCalls);
        Map<String, Double> perCall = new HashMap<>();
        many.forEach((name, count) -> {
            double d = (count - few.getOrDefault(name, 0L)) / (double) tracedCalls;
            if (d >= 0.05) {
                perCall.put(name, Math.round(d * 100) / 100.0);
            }
        });
        return perCall;
    }

    private Map<String, Long> traced(BenchRig rig, String mode, int n) {
        Path out = rig.work().resolve("strace-" + mode + "-" + n + ".txt");
        measure(rig, mode, n, List.of("strace", "-f", "-c", "-o", out.toString()));
        try {
            return StraceCount.parse(Files.readString(out));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
