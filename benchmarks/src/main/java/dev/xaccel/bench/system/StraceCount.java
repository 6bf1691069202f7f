package dev.xaccel.bench.system;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import dev.xaccel.bench.run.BenchFailure;
import dev.xaccel.bench.run.Sleep;

/**
 * {@code strace -c -f -p <pid>} around one measurement: the system calls of every thread of the process, counted
 * by the kernel's tracing of each call (it slows the process down a lot, so the measurement it wraps is for the
 * counts, never for a rate). {@link #stop()} ends strace (SIGTERM: it detaches and writes its summary).
 */
public final class StraceCount {

    private final Processes processes;
    private final Process strace;
    private final Path out;

    private StraceCount(Processes processes, Process strace, Path out) {
        this.processes = processes;
        this.strace = strace;
        this.out = out;
    }

    /** strace is installed and may trace here (ptrace allowed). */
    public static boolean usable(Processes processes) {
        try {
            return processes.run(List.of("strace", "-c", "-o", "/dev/null", "true")).exitCode() == 0;
        } catch (RuntimeException e) {
            return false;
        }
    }

    /** Attaches to {@code pid} and its threads; returns once strace has attached (about half a second). */
    public static StraceCount attach(Processes processes, long pid, Path out) {
        try {
            Files.deleteIfExists(out);
        } catch (IOException e) {
            throw new BenchFailure("cannot remove " + out + ": " + e, e);
        }
        Process p = processes.start(List.of("strace", "-c", "-f", "-q", "-o", out.toString(), "-p",
                Long.toString(pid)), Map.of(), out.resolveSibling(out.getFileName() + ".log"));
        Sleep.millis(800);
        if (!p.isAlive()) {
            throw new BenchFailure("strace did not attach to " + pid + " (see " + out + ".log)");
        }
        return new StraceCount(processes, p, out);
    }

    /** Detaches and returns the calls per system call name. */
    public Map<String, Long> stop() {
        processes.stop(strace);
        for (int i = 0; i < 50 && !Files.exists(out); i++) {
            Sleep.millis(100);
        }
        try {
            return parse(Files.exists(out) ? Files.readString(out) : "");
        } catch (IOException e) {
            throw new BenchFailure("cannot read " + out + ": " + e, e);
        }
    }

    /**
     * The {@code calls} column of {@code strace -c}'s table by system call name: rows are
     * {@code % time, seconds, usecs/call, calls, [errors], syscall}; the header, rulers and the total are skipped.
     */
    public static Map<String, Long> parse(String text) {
        Map<String, Long> calls = new LinkedHashMap<>();
        for (String line : text.lines().toList()) {
            String[] f = line.trim().split("\\s+");
            if (f.length < 5 || f.length > 6 || !f[0].matches("[0-9.]+") || f[f.length - 1].equals("total")) {
                continue;
            }
            try {
                calls.merge(f[f.length - 1], Long.parseLong(f[3]), Long::sum);
            } catch (NumberFormatException e) {
                // not a row of the table
            }
        }
        return calls;
    }
}
