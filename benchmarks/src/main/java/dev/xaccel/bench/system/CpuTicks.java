package dev.xaccel.bench.system;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collection;
import java.util.function.Predicate;
import java.util.stream.Stream;

/** CPU time of processes from {@code /proc/<pid>/stat}: utime + stime in clock ticks. */
public final class CpuTicks {

    private CpuTicks() {
    }

    /** utime+stime summed over the pids; a pid that is gone counts 0. */
    public static long of(Collection<Long> pids) {
        long total = 0;
        for (long pid : pids) {
            try {
                total += parse(Files.readString(Path.of("/proc", Long.toString(pid), "stat")));
            } catch (IOException e) {
                // the process has ended: nothing to add
            }
        }
        return total;
    }

    /**
     * utime+stime summed over the threads of {@code pid} whose name ({@code /proc/<pid>/task/<tid>/comm}, at most 15
     * characters) {@code name} accepts; 0 for a process that is gone. A thread that ends while they are read counts
     * 0 (so a sum may go back by an ended thread's time: the callers' threads live as long as the process).
     */
    public static long ofThreads(long pid, Predicate<String> name) {
        Path tasks = Path.of("/proc", Long.toString(pid), "task");
        long total = 0;
        try (Stream<Path> threads = Files.list(tasks)) {
            for (Path t : (Iterable<Path>) threads::iterator) {
                try {
                    if (name.test(Files.readString(t.resolve("comm")).strip())) {
                        total += parse(Files.readString(t.resolve("stat")));
                    }
                } catch (IOException e) {
                    // the thread has ended: nothing to add
                }
            }
        } catch (IOException e) {
            return 0;
        }
        return total;
    }

    /**
     * utime+stime of one {@code stat} line. The command name (field 2) is in parentheses and may contain blanks
     * and parentheses, so the fields are counted from the last {@code ") "}: utime and stime are fields 14 and 15.
     */
    static long parse(String stat) {
        String[] f = fields(stat);
        return Long.parseLong(f[11]) + Long.parseLong(f[12]);
    }

    /** The fields of a {@code stat} line after the command name: field 3 (state) first, field 4 (ppid) next. */
    static String[] fields(String stat) {
        int close = stat.lastIndexOf(") ");
        if (close < 0) {
            throw new IllegalArgumentException("not a /proc/<pid>/stat line: " + stat);
        }
        return stat.substring(close + 2).trim().split(" +");
    }
}
