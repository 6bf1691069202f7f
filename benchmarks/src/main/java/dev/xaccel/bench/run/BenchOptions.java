package dev.xaccel.bench.run;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;

/**
 * The command line of benchmarks/run, parsed once ({@link OptionTable} by name, {@link OptionValues} checks each
 * value, {@link OptionDefaults} holds the defaults). {@code --quick} selects the smoke-run defaults; any other option
 * given anywhere on the line overrides them (so {@code --quick --size 64M} and {@code --size 64M --quick} agree).
 *
 * @param quick          smoke run: tiny sizes and durations, results under {@code work/results}
 * @param size           the large file's size as given (e.g. {@code 1G})
 * @param bigBytes       the large file's size in bytes
 * @param runs           rounds; every round measures every setup once per workload, in an order shuffled per
 *                       round from {@code seed}
 * @param seq            sequential downloads of the large file per measurement
 * @param parallel       parallel downloaders per measurement
 * @param parallelEach   downloads per parallel downloader
 * @param smallCount     distinct small files
 * @param smallSize      their size as written in the report (e.g. {@code 50K})
 * @param smallBytes     their size in bytes
 * @param deepSets       the sets of files three directories below the root ({@code --deep-sizes})
 * @param spreadSets     the sets spread one file per directory ({@code --spread-sizes}, {@code --spread-dirs}), each
 *                       measured beside its one-directory twin ({@link FileSet#oneDirectoryTwin()})
 * @param concurrencies  wrk concurrencies of the small-file workload
 * @param wrkSeconds     seconds per small-file measurement
 * @param acceptConcurrencies concurrencies of the accept-filter workload
 * @param acceptSeconds  seconds per accept-filter measurement
 * @param floodIdle      idle connections of the flood (connect, never send)
 * @param floodSlow      slow clients of the flood (one byte per second)
 * @param deferSeconds   TCP_DEFER_ACCEPT seconds of the accept-filter connector
 * @param floodSettle    time between starting the flood and measuring
 * @param warmup         one unrecorded large download and {@code warmupSeconds} of wrk per setup first
 * @param warmupSeconds  seconds of wrk per setup in the warm-up
 * @param jmhOptions     JMH's options
 * @param workloads      the workloads to run ({@code --only})
 * @param setups         the setups to measure, in the order given ({@code --setups})
 * @param outDir         where {@code <date>.md/.svg/.tsv} go
 * @param jvmOptions     options of the Tomcat JVM
 * @param profile        perf profile of the small-file workload
 * @param offline        the build ran with {@code mvn -o} (benchmarks/run's business; recorded only)
 * @param seed           the seed of the setups' order in each round ({@code --seed}; default random)
 * @param sideRounds     rounds of the workloads no headline ratio comes from (accept filter, seed 001's shapes,
 *                       virtual threads), at most {@code runs}
 * @param hopBlocks      how many times each round measures the hop's setups ({@link SmallPlan#HOP}) at the top
 *                       of each judged concurrency, back to back: each block is a pair of its own for the hop's
 *                       ratios ({@link #hopRound})
 * @param pin            the client on one CPU, the servers on the others ({@code --no-pin}: off)
 * @param help           {@code --help}: print {@link #usage()} and do nothing else
 * @param commandLine    the arguments as given, for the report
 */
public record BenchOptions(boolean quick, String size, long bigBytes, int runs, int seq, int parallel, int parallelEach,
        int smallCount, String smallSize, long smallBytes, List<FileSet> deepSets, List<FileSet> spreadSets,
        List<Integer> concurrencies,
        int wrkSeconds,
        List<Integer> acceptConcurrencies, int acceptSeconds, int floodIdle, int floodSlow, int deferSeconds,
        Duration floodSettle, boolean warmup, int warmupSeconds, List<String> jmhOptions, Set<WorkloadKind> workloads,
        List<Setup> setups, Path outDir, List<String> jvmOptions, Profile profile, boolean offline, long seed,
        int sideRounds, int hopBlocks, boolean pin, boolean help, String commandLine) {

    /** {@code --profile}, {@code --no-profile}, or on when perf works. */
    public enum Profile {
        AUTO, ON, OFF
    }

    public BenchOptions {
        concurrencies = List.copyOf(concurrencies);
        deepSets = List.copyOf(deepSets);
        spreadSets = List.copyOf(spreadSets);
        acceptConcurrencies = List.copyOf(acceptConcurrencies);
        jmhOptions = List.copyOf(jmhOptions);
        workloads = Set.copyOf(workloads);
        setups = List.copyOf(setups);
        jvmOptions = List.copyOf(jvmOptions);
    }

    public boolean wants(WorkloadKind w) {
        return workloads.contains(w);
    }

    public boolean has(Setup s) {
        return setups.contains(s);
    }

    /** The setups of the large-file workload: those given, less the small-file-only ones. */
    public List<Setup> largeSetups() {
        return setups.stream().filter(s -> !s.smallOnly()).toList();
    }

    /** The small files at the top of the root, which every setup serves. */
    public FileSet mainSet() {
        return new FileSet(smallSize, smallBytes, false, smallCount);
    }

    /** The main set, the deep sets, the spread sets and their one-directory twins. */
    public List<FileSet> fileSets() {
        List<FileSet> l = new ArrayList<>(List.of(mainSet()));
        l.addAll(deepSets);
        l.addAll(spreadSets);
        spreadSets.forEach(f -> l.add(f.oneDirectoryTwin()));
        return l;
    }

    /** Rounds of the accept-filter, seed-001 and virtual-thread workloads. */
    public int sideRuns() {
        return Math.min(sideRounds, runs);
    }

    /**
     * The round number that block {@code block} (0 is the round's own measurement) of round {@code round} is
     * recorded under: the round itself, then beyond the last round, so that a ratio of two setups measured in every
     * block takes each block as a round, and one with a setup measured once per round only the rounds.
     */
    public int hopRound(int round, int block) {
        return round + block * runs;
    }

    /** The highest small-file concurrency: the one the perf profile runs at. */
    public int highestConcurrency() {
        return concurrencies.get(concurrencies.size() - 1);
    }

    /**
     * Parses the arguments of benchmarks/run.
     *
     * @param benchDir the {@code benchmarks/} directory (the default output directories are below it)
     * @throws UsageException naming the option and the value it could not accept
     */
    public static BenchOptions parse(String[] args, Path benchDir) throws UsageException {
        OptionDefaults b = new OptionDefaults();
        List<String> list = Arrays.asList(args);
        if (list.contains("--quick")) {
            b.quick();
        }
        for (int i = 0; i < args.length; i++) {
            String name = args[i];
            OptionTable.Option o = OptionTable.OPTIONS.get(name);
            if (o == null) {
                throw new UsageException("unknown option " + name);
            }
            String value = null;
            if (o.takesValue()) {
                if (i + 1 >= args.length) {
                    throw new UsageException(name + " needs a value");
                }
                value = args[++i];
            }
            o.handler().apply(b, name, value);
        }
        return b.build(benchDir, String.join(" ", args));
    }

    /** The text of {@code --help}, with the (full-run) defaults. */
    public static String usage() {
        OptionDefaults d = new OptionDefaults();
        return """
                Usage: benchmarks/run [options]
                  --quick               smoke run (< 1 minute after the build): tiny sizes and durations, 1 round,
                                        results in benchmarks/work/results/ (no conclusions from these numbers)
                  --size SIZE           large file size, e.g. 256M, 1G (default %s)
                  --runs N              rounds (default %d); the setups' order is shuffled in each round
                  --seed N              seed of that order (default random; printed at the start and in the
                                        results: --seed N measures in the same order again)
                  --side-rounds N       rounds of accept, seed 001's shapes and threads (default %d, at most --runs)
                  --hop-blocks N        times each round measures the hop's setups (bare, xaccel, receipts) at
                                        the top, back to back: each block a pair of the hop's ratios (default %d)
                  --seq N               sequential downloads per large-file measurement (default %d)
                  --parallel N          parallel downloaders (default %d), --parallel-each N downloads each (%d)
                  --concurrency "C..."  wrk concurrencies for small files (default "%s"; every setup at the
                                        highest, the headline setups at the others; 1 is reported, never
                                        judged against a target)
                  --deep-sizes "S..."   sizes of the file sets three directories below the root, served by
                                        setups 1, 5 and 14 at every concurrency above 1 (default "%s")
                  --spread-sizes "S..." sizes of the file sets spread one file per directory
                                        (spread-S/AuthorNNN/TitleNN/chapter.bin, setups 1, 3 and 5), measured
                                        beside as many files of their size in one directory
                                        (onedir-S/Author/Title/chapter-NNNN.bin, setups 1 and 3) (default "%s")
                  --spread-dirs N       files (= directories) per spread set and its twin (default %d)
                  --duration S          seconds per wrk measurement (default %d)
                  --flood IDLE,SLOW     idle and slow clients of the accept-filter workload (default %d,%d)
                  --defer S             TCP_DEFER_ACCEPT seconds (default %d)
                  --only LIST           workloads among large,small,accept,threads,jmh (default all; --quick runs
                                        threads only when it is the only one asked for)
                  --setups "LIST"       among: %s
                                        (default all; cached, signed, bare, uds and receipts run in the small-file
                                        workload only)
                  --jmh "OPTS"          JMH options (default "%s")
                  --jvm "OPTS"          the BenchServer JVMs' options (default "%s")
                  --out DIR             where <date>.md/.svg/.tsv go (default benchmarks/results)
                  --offline             build with mvn -o
                  --no-pin              do not pin (default: the client on one CPU, the servers on the others,
                                        with taskset; off by itself on a 1-CPU machine or without taskset)
                  --profile|--no-profile  perf profile (cpu-clock, all CPUs) of one extra small-file run per
                                        setup at the highest concurrency (default off: a diagnosis)
                Requires nginx, wrk, curl, Java 17+ and Maven; it says what is missing and installs nothing.
                """.formatted(d.size, d.runs, d.sideRounds, d.hopBlocks, d.seq, d.parallel, d.parallelEach,
                join(d.concurrencies),
                String.join(" ", d.deepSizes), String.join(" ", d.spreadSizes), d.spreadDirs, d.wrkSeconds,
                d.floodIdle, d.floodSlow, d.deferSeconds, setupIds(),
                String.join(" ", d.jmhOptions), String.join(" ", d.jvmOptions));
    }

    /** The ids of all setups, in their order. */
    static String setupIds() {
        return String.join(" ", Arrays.stream(Setup.values()).map(Setup::id).toList());
    }

    private static String join(List<Integer> l) {
        return String.join(" ", l.stream().map(String::valueOf).toList());
    }

}
