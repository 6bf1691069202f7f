package dev.xaccel.bench.hotpath;

import java.lang.management.ManagementFactory;
import java.util.List;
import java.util.Locale;

/**
 * Runs one offloaded hot path of {@link FilterHotPathBenchmark} in a plain loop, for counting its system calls
 * ({@code strace -f -c java ... HotPathLoop mapped 100000}) or profiling it with perf. Prints, per call, the wall
 * time, the thread's CPU time (steadier than the wall time on a shared machine) and the bytes the thread allocated.
 *
 * <p>Arguments: {@code [mode] [calls]}, a mode of {@link #MODES} ({@code -confines}: {@code frontEndConfines=true};
 * {@code -receipts}: delivery receipts on);
 * defaults {@code mapped 100000}. The last line is {@link #RESULT}'s fields, for HotPathCounts.
 */
public final class HotPathLoop {

    /** The modes, in the order a report shows them. */
    public static final List<String> MODES = List.of("mapped", "mapped-receipts", "declared", "mapped-confines",
            "declared-confines");

    private HotPathLoop() {
    }

    public static void main(String[] args) throws Exception {
        String mode = args.length > 0 ? args[0] : "mapped";
        int n = args.length > 1 ? Integer.parseInt(args[1]) : 100_000;
        FilterHotPathBenchmark b = new FilterHotPathBenchmark();
        b.setUp();
        Runnable call = switch (mode) {
            case "mapped" -> () -> run(b::offloadMapped);
            case "mapped-receipts" -> () -> run(b::offloadMappedReceipts);
            case "declared" -> () -> run(b::offloadDeclared);
            case "mapped-confines" -> () -> run(b::offloadMappedConfines);
            case "declared-confines" -> () -> run(b::offloadDeclaredConfines);
            default -> throw new IllegalArgumentException("mode must be one of " + MODES + ": " + mode);
        };
        for (int i = 0; i < 50_000; i++) {
            call.run();
        }
        com.sun.management.ThreadMXBean threads =
                (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        long id = Thread.currentThread().getId();
        long bytes0 = threads.getThreadAllocatedBytes(id);
        long cpu0 = threads.getCurrentThreadCpuTime();
        long t0 = System.nanoTime();
        for (int i = 0; i < n; i++) {
            call.run();
        }
        long t1 = System.nanoTime();
        long cpu1 = threads.getCurrentThreadCpuTime();
        long bytes1 = threads.getThreadAllocatedBytes(id);
        b.tearDown();
        System.out.printf(Locale.ROOT, "%s: %d ns/op wall, %d ns/op cpu, %d B/op allocated, over %d calls%n",
                mode, (t1 - t0) / n, (cpu1 - cpu0) / n, (bytes1 - bytes0) / n, n);
        System.out.printf(Locale.ROOT, "%s %s %.1f %.1f %.1f%n", RESULT, mode, (t1 - t0) / (double) n,
                (cpu1 - cpu0) / (double) n, (bytes1 - bytes0) / (double) n);
    }

    /** First word of the result line: {@code hotpath <mode> <wall ns> <cpu ns> <bytes>}. */
    public static final String RESULT = "hotpath";

    private interface Call {
        Object run() throws Exception;
    }

    private static void run(Call c) {
        try {
            c.run();
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }
}
