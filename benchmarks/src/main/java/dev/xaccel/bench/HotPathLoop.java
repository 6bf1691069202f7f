package dev.xaccel.bench;

/**
 * Runs the offloaded hot path of {@link FilterHotPathBenchmark} in a plain loop, for counting its system calls
 * ({@code strace -f -c java ... HotPathLoop 100000}) or profiling it with perf; prints ns/op at the end.
 */
public final class HotPathLoop {

    private HotPathLoop() {
    }

    public static void main(String[] args) throws Exception {
        int n = args.length > 0 ? Integer.parseInt(args[0]) : 100_000;
        FilterHotPathBenchmark b = new FilterHotPathBenchmark();
        b.setUp();
        for (int i = 0; i < 20_000; i++) {
            b.offloadMapped();
        }
        long t0 = System.nanoTime();
        for (int i = 0; i < n; i++) {
            b.offloadMapped();
        }
        long t1 = System.nanoTime();
        b.tearDown();
        System.out.println("offloadMapped: " + (t1 - t0) / n + " ns/op over " + n + " calls");
    }
}
