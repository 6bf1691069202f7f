package dev.xaccel.bench.reliability;

import java.nio.file.Path;
import java.util.List;

import dev.xaccel.bench.run.BenchFailure;
import dev.xaccel.bench.run.Log;
import dev.xaccel.bench.run.UsageException;
import dev.xaccel.bench.system.Machine;
import dev.xaccel.bench.system.Processes;

/**
 * {@code benchmarks/run --reliability}: scenario 1 of issue 14 ({@link ReliabilityLoad}: the sample behind nginx,
 * wrk for a minute at concurrency 256 with the mixed requests) and then docs/reliability.md
 * ({@link ReliabilityReport}) with its figures and those the reliability ITs wrote in their last run
 * ({@code it/xaccel-it-reliability/target/reliability/*.tsv}; the wrapper script runs their longer variants first).
 * Options after {@code --reliability}: {@code --seconds N} (60), {@code --connections N} (256), {@code --out FILE}
 * (docs/reliability.md), {@code --skip-its} (the wrapper runs no IT; the report takes their last run's figures).
 * Exit 1 when a guarantee does not hold, 2 for a bad option. Never part of {@code --quick}.
 */
public final class ReliabilityRun {

    static final String OPTION = "--reliability";

    private ReliabilityRun() {
    }

    /** Whether the command line asks for this run (then the other benchmarks do not run). */
    public static boolean requested(String[] args) {
        return List.of(args).contains(OPTION);
    }

    public static int run(String[] args, Path benchDir) {
        int seconds = 60;
        int connections = 256;
        Path root = benchDir.getParent();
        Path out = root.resolve("docs/reliability.md");
        try {
            for (int i = 0; i < args.length; i++) {
                switch (args[i]) {
                    case OPTION, "--offline", "--skip-its" -> { } // the wrapper's (skip-its: it runs no IT)
                    case "--seconds" -> seconds = positive(args, ++i);
                    case "--connections" -> connections = positive(args, ++i);
                    case "--out" -> out = Path.of(value(args, ++i)).toAbsolutePath();
                    default -> throw new UsageException("unknown option with " + OPTION + ": " + args[i]);
                }
            }
        } catch (UsageException e) {
            System.err.println("benchmarks/run: " + e.getMessage());
            System.err.println("usage: benchmarks/run --reliability [--seconds N] [--connections N] [--out FILE]"
                    + " [--skip-its]");
            return 2;
        }
        Path work = benchDir.resolve("work/reliability");
        long start = System.currentTimeMillis() / 1000;
        String loadBefore = System.getProperty("bench.loadBefore", Machine.loadAverages());
        try (Processes processes = new Processes()) {
            dev.xaccel.testsupport.TestPaths.fresh(work);
            Log.info("reliability: scenario 1, the sample behind nginx, wrk -c" + connections + " for " + seconds
                    + " s");
            ReliabilityLoad load = new ReliabilityLoad(root, work, seconds, connections);
            BenchFailure failure = null;
            try {
                load.run(processes);
            } catch (BenchFailure e) {
                failure = e;
                load.figures.put("FAILED", e.getMessage());
            }
            String loadAfter = Machine.loadAverages();
            Path md = new ReliabilityReport(root, root.resolve("it/xaccel-it-reliability/target/reliability"))
                    .write(out, load.figures, start, loadBefore, loadAfter, String.join(" ", args));
            Log.info("reliability: " + md + " written");
            if (failure != null) {
                throw failure;
            }
            return 0;
        } catch (BenchFailure e) {
            Log.failed(e.getMessage());
            return 1;
        } catch (Exception e) {
            Log.failed(e.toString());
            return 1;
        }
    }

    private static String value(String[] args, int i) throws UsageException {
        if (i >= args.length) {
            throw new UsageException(args[i - 1] + " needs a value");
        }
        return args[i];
    }

    private static int positive(String[] args, int i) throws UsageException {
        String v = value(args, i);
        try {
            int n = Integer.parseInt(v);
            if (n > 0) {
                return n;
            }
        } catch (NumberFormatException e) {
            // below
        }
        throw new UsageException(args[i - 1] + " takes a positive integer, not " + v);
    }
}
