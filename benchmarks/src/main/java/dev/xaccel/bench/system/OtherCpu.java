package dev.xaccel.bench.system;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.function.Supplier;

/**
 * The CPU time that processes other than the run's own used while it ran, from {@code /proc/<pid>/stat} at each
 * note: what tells a shared machine from a busy run. The load average cannot: it counts the run's own runnable
 * threads (Tomcat's workers and wrk's at c=64 put it at 5 to 8 on two CPUs). Kernel threads are left out (their
 * work is mostly the run's own network). A process that starts and ends between two notes is not seen.
 */
public final class OtherCpu {

    private static final Path PROC = Path.of("/proc");

    private final Supplier<Set<Long>> ours;
    /** utime+stime of every other process at the last note. */
    private Map<Long, Long> last;
    private long ticks;

    public OtherCpu(Supplier<Set<Long>> ours) {
        this.ours = ours;
        this.last = others();
    }

    /** Adds what the other processes used since the last note. */
    public void note() {
        Map<Long, Long> now = others();
        for (Map.Entry<Long, Long> e : now.entrySet()) {
            // a process new since the last note used all its time since then
            ticks += Math.max(0, e.getValue() - last.getOrDefault(e.getKey(), 0L));
        }
        last = now;
    }

    /** Clock ticks the other processes used between the first note and the last. */
    public long ticks() {
        return ticks;
    }

    private Map<Long, Long> others() {
        Set<Long> own = ours.get();
        Map<Long, Long> m = new HashMap<>();
        try (DirectoryStream<Path> procs = Files.newDirectoryStream(PROC, "[0-9]*")) {
            for (Path p : procs) {
                long pid = Long.parseLong(p.getFileName().toString());
                if (!own.contains(pid)) {
                    stat(p, pid, m);
                }
            }
        } catch (IOException e) {
            // no /proc: nothing is known, nothing is counted
        }
        return m;
    }

    private static void stat(Path proc, long pid, Map<Long, Long> into) {
        try {
            String stat = Files.readString(proc.resolve("stat"));
            if (!isKernelThread(stat, pid)) {
                into.put(pid, CpuTicks.parse(stat));
            }
        } catch (IOException | RuntimeException e) {
            // ended meanwhile
        }
    }

    /** kthreadd (PID 2) and its children, the kernel's threads. */
    static boolean isKernelThread(String stat, long pid) {
        return pid == 2 || "2".equals(CpuTicks.fields(stat)[1]);
    }
}
