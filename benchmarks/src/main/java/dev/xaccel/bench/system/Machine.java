package dev.xaccel.bench.system;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/** Facts about this machine from /proc and /etc: load, cores, CPU, memory, clock ticks. */
public final class Machine {

    private Machine() {
    }

    public static boolean isLinux() {
        return System.getProperty("os.name", "").toLowerCase(Locale.ROOT).startsWith("linux");
    }

    public static int cores() {
        return Runtime.getRuntime().availableProcessors();
    }

    /** The three load averages of /proc/loadavg, e.g. {@code 1.18 2.18 3.53}; {@code ?} when unknown. */
    public static String loadAverages() {
        return read("/proc/loadavg").map(s -> String.join(" ", List.of(s.trim().split("\\s+")).subList(0, 3)))
                .orElse("?");
    }

    /** The 1-minute load average, NaN when unknown. */
    static double load1() {
        return read("/proc/loadavg").map(s -> Double.parseDouble(s.trim().split("\\s+")[0])).orElse(Double.NaN);
    }

    public static String cpuModel() {
        return read("/proc/cpuinfo").flatMap(s -> s.lines().filter(l -> l.startsWith("model name"))
                .map(l -> l.substring(l.indexOf(':') + 1).trim()).findFirst()).orElse("?");
    }

    public static String memory() {
        return read("/proc/meminfo").flatMap(s -> s.lines().filter(l -> l.startsWith("MemTotal:"))
                .map(l -> String.format(Locale.ROOT, "%.1f GiB",
                        Long.parseLong(l.replaceAll("[^0-9]", "")) / 1048576.0))
                .findFirst()).orElse("?");
    }

    public static String os() {
        return read("/etc/os-release").flatMap(s -> s.lines().filter(l -> l.startsWith("PRETTY_NAME="))
                .map(l -> l.substring("PRETTY_NAME=".length()).replaceAll("^\"|\"$", "")).findFirst()).orElse("");
    }

    /** Clock ticks per second of /proc/<pid>/stat ({@code getconf CLK_TCK}; 100 on every Linux we know). */
    public static int clockTicks(Processes processes) {
        try {
            Processes.Result r = processes.run(List.of("getconf", "CLK_TCK"));
            return r.ok() ? Integer.parseInt(r.output().trim()) : 100;
        } catch (RuntimeException e) {
            return 100;
        }
    }

    private static Optional<String> read(String file) {
        try {
            return Optional.of(Files.readString(Path.of(file)));
        } catch (IOException | RuntimeException e) {
            return Optional.empty();
        }
    }
}
