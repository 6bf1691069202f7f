package dev.xaccel.bench.run;

import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The command line of benchmarks/run, parsed once. {@code --quick} selects the smoke-run defaults; any other option
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
 * @param help           {@code --help}: print {@link #usage()} and do nothing else
 * @param commandLine    the arguments as given, for the report
 */
public record BenchOptions(boolean quick, String size, long bigBytes, int runs, int seq, int parallel, int parallelEach,
        int smallCount, String smallSize, long smallBytes, List<FileSet> deepSets, List<Integer> concurrencies,
        int wrkSeconds,
        List<Integer> acceptConcurrencies, int acceptSeconds, int floodIdle, int floodSlow, int deferSeconds,
        Duration floodSettle, boolean warmup, int warmupSeconds, List<String> jmhOptions, Set<WorkloadKind> workloads,
        List<Setup> setups, Path outDir, List<String> jvmOptions, Profile profile, boolean offline, long seed,
        int sideRounds, boolean help, String commandLine) {

    /** {@code --profile}, {@code --no-profile}, or on when perf works. */
    public enum Profile {
        AUTO, ON, OFF
    }

    public BenchOptions {
        concurrencies = List.copyOf(concurrencies);
        deepSets = List.copyOf(deepSets);
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

    /** The main set and the deep sets. */
    public List<FileSet> fileSets() {
        List<FileSet> l = new ArrayList<>(List.of(mainSet()));
        l.addAll(deepSets);
        return l;
    }

    /** Rounds of the accept-filter, seed-001 and virtual-thread workloads. */
    public int sideRuns() {
        return Math.min(sideRounds, runs);
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
        Builder b = new Builder();
        List<String> list = Arrays.asList(args);
        if (list.contains("--quick")) {
            b.quick();
        }
        for (int i = 0; i < args.length; i++) {
            String name = args[i];
            Option o = OPTIONS.get(name);
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
        Builder d = new Builder();
        return """
                Usage: benchmarks/run [options]
                  --quick               smoke run (< 1 minute after the build): tiny sizes and durations, 1 round,
                                        results in benchmarks/work/results/ (no conclusions from these numbers)
                  --size SIZE           large file size, e.g. 256M, 1G (default %s)
                  --runs N              rounds (default %d); the setups' order is shuffled in each round
                  --seed N              seed of that order (default random; printed at the start and in the
                                        results: --seed N measures in the same order again)
                  --side-rounds N       rounds of accept, seed 001's shapes and threads (default %d, at most --runs)
                  --seq N               sequential downloads per large-file measurement (default %d)
                  --parallel N          parallel downloaders (default %d), --parallel-each N downloads each (%d)
                  --concurrency "C..."  wrk concurrencies for small files (default "%s"; 1 is reported, never
                                        judged against a target, and measures only the headline setups)
                  --deep-sizes "S..."   sizes of the file sets three directories below the root, served by
                                        setups 1, 5, 14 and 15 at every concurrency above 1 (default "%s")
                  --duration S          seconds per wrk measurement (default %d)
                  --flood IDLE,SLOW     idle and slow clients of the accept-filter workload (default %d,%d)
                  --defer S             TCP_DEFER_ACCEPT seconds (default %d)
                  --only LIST           workloads among large,small,accept,threads,jmh (default all; --quick runs
                                        threads only when it is the only one asked for)
                  --setups "LIST"       among: %s
                                        (default all; cached, signed, bare and uds run in the small-file workload
                                        only)
                  --jmh "OPTS"          JMH options (default "%s")
                  --out DIR             where <date>.md/.svg/.tsv go (default benchmarks/results)
                  --offline             build with mvn -o
                  --profile|--no-profile  perf profile (cpu-clock, all CPUs) of one extra small-file run per setup \
                at the
                                        highest concurrency (default: on when perf works, off with --quick)
                Requires nginx, wrk, curl, Java 17+ and Maven; it says what is missing and installs nothing.
                """.formatted(d.size, d.runs, d.sideRounds, d.seq, d.parallel, d.parallelEach, join(d.concurrencies),
                String.join(" ", d.deepSizes), d.wrkSeconds, d.floodIdle, d.floodSlow, d.deferSeconds, setupIds(),
                String.join(" ", d.jmhOptions));
    }

    /** The ids of all setups, in their order. */
    private static String setupIds() {
        return String.join(" ", Arrays.stream(Setup.values()).map(Setup::id).toList());
    }

    private static String join(List<Integer> l) {
        return String.join(" ", l.stream().map(String::valueOf).toList());
    }

    // ---------------------------------------------------------------- option table

    @FunctionalInterface
    private interface Handler {
        void apply(Builder b, String option, String value) throws UsageException;
    }

    private record Option(boolean takesValue, Handler handler) {
    }

    private static final Map<String, Option> OPTIONS = new LinkedHashMap<>();

    private static void flag(String name, Handler h) {
        OPTIONS.put(name, new Option(false, h));
    }

    private static void valued(String name, Handler h) {
        OPTIONS.put(name, new Option(true, h));
    }

    static {
        flag("--quick", (b, o, v) -> { }); // applied before all others
        flag("--profile", (b, o, v) -> b.profile = Profile.ON);
        flag("--no-profile", (b, o, v) -> b.profile = Profile.OFF);
        flag("--offline", (b, o, v) -> b.offline = true);
        flag("--help", (b, o, v) -> b.help = true);
        flag("-h", (b, o, v) -> b.help = true);
        valued("--size", (b, o, v) -> {
            b.bigBytes = bytes(o, v);
            b.size = v;
        });
        valued("--runs", (b, o, v) -> b.runs = positive(o, v));
        valued("--seed", (b, o, v) -> b.seed = seed(o, v));
        valued("--side-rounds", (b, o, v) -> b.sideRounds = positive(o, v));
        valued("--deep-sizes", (b, o, v) -> b.deepSizes = sizes(o, v));
        valued("--seq", (b, o, v) -> b.seq = positive(o, v));
        valued("--parallel", (b, o, v) -> b.parallel = positive(o, v));
        valued("--parallel-each", (b, o, v) -> b.parallelEach = positive(o, v));
        valued("--concurrency", (b, o, v) -> b.concurrencies = positives(o, v));
        valued("--duration", (b, o, v) -> {
            b.wrkSeconds = positive(o, v);
            b.acceptSeconds = b.wrkSeconds;
        });
        valued("--flood", (b, o, v) -> {
            String[] p = v.split(",", -1);
            if (p.length != 2) {
                throw new UsageException(o + ": expected IDLE,SLOW (two counts), got '" + v + "'");
            }
            b.floodIdle = count(o, p[0], v);
            b.floodSlow = count(o, p[1], v);
        });
        valued("--defer", (b, o, v) -> b.deferSeconds = positive(o, v));
        valued("--only", (b, o, v) -> b.workloads = workloads(o, v));
        valued("--setups", (b, o, v) -> b.setups = setups(o, v));
        valued("--jmh", (b, o, v) -> b.jmhOptions = words(v));
        valued("--out", (b, o, v) -> {
            if (v.isBlank()) {
                throw new UsageException(o + ": expected a directory, got ''");
            }
            b.outDir = Path.of(v);
        });
    }

    // ---------------------------------------------------------------- value parsers

    private static final Pattern SIZE = Pattern.compile("([0-9]+)([KkMmGg]?)");

    /** {@code 50K}, {@code 256M}, {@code 1G} (KiB, MiB, GiB) or plain bytes. */
    static long bytes(String option, String value) throws UsageException {
        Matcher m = SIZE.matcher(value);
        if (!m.matches()) {
            throw new UsageException(option + ": expected a size like 256M or 1G, got '" + value + "'");
        }
        long shift = switch (Character.toUpperCase(m.group(2).isEmpty() ? 'B' : m.group(2).charAt(0))) {
            case 'K' -> 10;
            case 'M' -> 20;
            case 'G' -> 30;
            default -> 0;
        };
        try {
            long n = Long.parseLong(m.group(1));
            if (n <= 0 || n > (Long.MAX_VALUE >> shift)) {
                throw new NumberFormatException();
            }
            return n << shift;
        } catch (NumberFormatException e) {
            throw new UsageException(option + ": size out of range, got '" + value + "'");
        }
    }

    private static long seed(String option, String value) throws UsageException {
        try {
            return Long.parseLong(value.strip());
        } catch (NumberFormatException e) {
            throw new UsageException(option + ": expected an integer (a seed printed by an earlier run), got '"
                    + value + "'");
        }
    }

    /** Sizes like {@code 8K 512K}, each checked; none: no deep set. */
    private static List<String> sizes(String option, String value) throws UsageException {
        List<String> l = new ArrayList<>();
        for (String w : items(value)) {
            bytes(option, w);
            if (!l.contains(w)) {
                l.add(w);
            }
        }
        return l;
    }

    private static int positive(String option, String value) throws UsageException {
        int n = integer(option, value, value);
        if (n < 1) {
            throw new UsageException(option + ": expected a positive integer, got '" + value + "'");
        }
        return n;
    }

    private static int count(String option, String part, String value) throws UsageException {
        int n = integer(option, part, value);
        if (n < 0) {
            throw new UsageException(option + ": expected counts of 0 or more, got '" + value + "'");
        }
        return n;
    }

    private static int integer(String option, String text, String value) throws UsageException {
        try {
            return Integer.parseInt(text.strip());
        } catch (NumberFormatException e) {
            throw new UsageException(option + ": expected an integer, got '" + value + "'");
        }
    }

    private static List<Integer> positives(String option, String value) throws UsageException {
        List<Integer> l = new ArrayList<>();
        for (String w : items(value)) {
            try {
                l.add(positive(option, w));
            } catch (UsageException e) {
                throw new UsageException(option + ": expected positive integers, got '" + w + "' in '" + value + "'");
            }
        }
        if (l.isEmpty()) {
            throw new UsageException(option + ": expected a list like \"1 8 64\", got '" + value + "'");
        }
        return l;
    }

    private static Set<WorkloadKind> workloads(String option, String value) throws UsageException {
        Set<WorkloadKind> s = EnumSet.noneOf(WorkloadKind.class);
        for (String w : items(value)) {
            s.add(WorkloadKind.byId(w).orElseThrow(() -> new UsageException(option + ": unknown workload '" + w
                    + "' in '" + value + "' (known: large, small, accept, threads, jmh)")));
        }
        if (s.isEmpty()) {
            throw new UsageException(option + ": expected workloads like large,small, got '" + value + "'");
        }
        return s;
    }

    private static List<Setup> setups(String option, String value) throws UsageException {
        List<Setup> l = new ArrayList<>();
        for (String w : items(value)) {
            Setup s = Setup.byId(w).orElseThrow(() -> new UsageException(option + ": unknown setup '" + w + "' in '"
                    + value + "' (known: " + setupIds() + ")"));
            if (!l.contains(s)) {
                l.add(s);
            }
        }
        if (l.isEmpty()) {
            throw new UsageException(option + ": expected setups like \"xaccel static\", got '" + value + "'");
        }
        return l;
    }

    /** Items separated by blanks or commas. */
    private static List<String> items(String value) {
        return Arrays.stream(value.split("[\\s,]+")).filter(w -> !w.isEmpty()).toList();
    }

    private static List<String> words(String value) {
        return Arrays.stream(value.trim().split("\\s+")).filter(w -> !w.isEmpty()).toList();
    }

    // ---------------------------------------------------------------- defaults

    /** Mutable while parsing; the defaults of a full run. */
    private static final class Builder {
        boolean quick;
        String size = "1G";
        long bigBytes = 1L << 30;
        // 5 rounds: the headline ratios of issue 15 are judged on their min–max over the rounds (HeadlineRatios)
        int runs = 5;
        int seq = 2;
        int parallel = 4;
        int parallelEach = 1;
        int smallCount = 100;
        String smallSize = "50K";
        long smallBytes = 50L << 10;
        List<Integer> concurrencies = List.of(1, 8, 64);
        // 8 KiB lies below Tomcat's sendfile threshold (48 KiB), 512 KiB well above it
        List<String> deepSizes = List.of("8K", "50K", "512K");
        // 3 s: the small-file matrix of issue 23 (RunPlan) within the full run's 35 minutes
        int wrkSeconds = 3;
        List<Integer> acceptConcurrencies = List.of(1, 4);
        int acceptSeconds = 4;
        int floodIdle = 200;
        int floodSlow = 20;
        int deferSeconds = 30;
        Duration floodSettle = Duration.ofSeconds(1);
        boolean warmup = true;
        int warmupSeconds = 3;
        List<String> jmhOptions = words("-f 1 -wi 3 -w 1s -i 5 -r 1s");
        Set<WorkloadKind> workloads = EnumSet.allOf(WorkloadKind.class);
        List<Setup> setups = List.of(Setup.values());
        Path outDir;
        List<String> jvmOptions = List.of("-Xms512m", "-Xmx512m");
        Profile profile = Profile.AUTO;
        boolean offline;
        Long seed;
        // the accept filter, seed 001's shapes and virtual threads judge no headline: once per run
        int sideRounds = 1;
        boolean help;

        void quick() {
            quick = true;
            size = "16M";
            bigBytes = 16L << 20;
            runs = 1;
            seq = 1;
            parallel = 4;
            parallelEach = 1;
            concurrencies = List.of(4);
            wrkSeconds = 1;
            acceptConcurrencies = List.of(4);
            acceptSeconds = 1;
            floodSettle = Duration.ofMillis(300);
            warmup = false;
            floodIdle = 50;
            floodSlow = 5;
            jmhOptions = words("-f 0 -wi 0 -i 1 -r 200ms");
            jvmOptions = List.of("-Xms128m", "-Xmx256m");
            profile = Profile.OFF;
        }

        BenchOptions build(Path benchDir, String commandLine) throws UsageException {
            Path out = outDir != null ? outDir : quick ? benchDir.resolve("work/results") : benchDir.resolve("results");
            List<FileSet> deep = new ArrayList<>();
            for (String s : deepSizes) {
                deep.add(new FileSet(s, bytes("--deep-sizes", s), true, smallCount));
            }
            long order = seed != null ? seed : new SecureRandom().nextLong() >>> 1;
            return new BenchOptions(quick, size, bigBytes, runs, seq, parallel, parallelEach, smallCount, smallSize,
                    smallBytes, deep, concurrencies, wrkSeconds, acceptConcurrencies, acceptSeconds, floodIdle,
                    floodSlow, deferSeconds, floodSettle, warmup, warmupSeconds, jmhOptions, workloads, setups, out,
                    jvmOptions, profile, offline, order, sideRounds, help, commandLine);
        }
    }
}
