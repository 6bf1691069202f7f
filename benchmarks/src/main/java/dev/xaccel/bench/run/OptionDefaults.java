package dev.xaccel.bench.run;

import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;

import dev.xaccel.bench.run.BenchOptions.Profile;

/**
 * The options while they are parsed, mutable; as constructed the defaults of a full run, after {@link #quick()}
 * those of the smoke run. {@link #build} makes the record.
 */
final class OptionDefaults {
    boolean quick;
    String size = "1G";
    long bigBytes = 1L << 30;
    // 10 rounds: a verdict needs the median's interval on one side of its target (Verdict); of 10 rounds that is
    // the 3rd–8th (89 %), of 6 or fewer the whole min–max, which only widens with more rounds
    int runs = 10;
    int seq = 2;
    int parallel = 4;
    int parallelEach = 1;
    int smallCount = 100;
    String smallSize = "50K";
    long smallBytes = 50L << 10;
    // concurrency 1 is never judged: measured when asked for (--concurrency "1 8 64"), its time goes to rounds
    List<Integer> concurrencies = List.of(8, 64);
    // 8 KiB lies below Tomcat's sendfile threshold (48 KiB), 512 KiB well above it
    List<String> deepSizes = List.of("8K", "50K", "512K");
    // issue 34: the audiobook library's shape; 8 KiB, where the per-request file-system work weighs most
    List<String> spreadSizes = List.of("8K");
    int spreadDirs = 2000;
    // client on one CPU, servers on the others (CpuPinning): the same split for every setup
    boolean pin = true;
    // 3 s (4 for the runs of 2026-12-05/06): the small-file matrix (SmallPlan) in 10 rounds within ~45 minutes;
    // the spread comes from whole rounds the machine slows, which more rounds outvote (docs/performance.md)
    int wrkSeconds = 3;
    List<Integer> acceptConcurrencies = List.of(1, 4);
    int acceptSeconds = 4;
    int floodIdle = 200;
    int floodSlow = 20;
    int deferSeconds = 30;
    Duration floodSettle = Duration.ofSeconds(1);
    boolean warmup = true;
    int warmupSeconds = 2;
    List<String> jmhOptions = OptionValues.words("-f 1 -wi 3 -w 1s -i 5 -r 1s");
    Set<WorkloadKind> workloads = EnumSet.allOf(WorkloadKind.class);
    List<Setup> setups = List.of(Setup.values());
    Path outDir;
    List<String> jvmOptions = List.of("-Xms512m", "-Xmx512m");
    // the perf profile is a diagnosis, not a measurement: its minutes go to rounds unless asked for (--profile)
    Profile profile = Profile.OFF;
    boolean offline;
    Long seed;
    // the accept filter, seed 001's shapes and virtual threads judge no headline: once per run
    int sideRounds = 1;
    // the hop's ratios judge a cost of 1-3 % whose rounds scatter ±5 %: three pairs per round narrow their interval
    // at about 20 s a round per concurrency (docs/performance.md)
    int hopBlocks = 3;
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
        // both sides of Tomcat's sendfile threshold (48 KiB); spread set (no twin) with setup 1: < 1 min
        deepSizes = List.of("8K", "512K");
        wrkSeconds = 1;
        acceptConcurrencies = List.of(4);
        acceptSeconds = 1;
        floodSettle = Duration.ofMillis(300);
        warmup = false;
        floodIdle = 50;
        floodSlow = 5;
        jmhOptions = OptionValues.words("-f 0 -wi 0 -i 1 -r 200ms");
        jvmOptions = List.of("-Xms128m", "-Xmx256m");
        profile = Profile.OFF;
        hopBlocks = 1;
    }

    BenchOptions build(Path benchDir, String commandLine) throws UsageException {
        Path out = outDir != null ? outDir : quick ? benchDir.resolve("work/results") : benchDir.resolve("results");
        List<FileSet> deep = new ArrayList<>();
        for (String s : deepSizes) {
            deep.add(new FileSet(s, OptionValues.bytes("--deep-sizes", s), true, smallCount));
        }
        List<FileSet> spread = new ArrayList<>();
        for (String s : spreadSizes) {
            long n = OptionValues.bytes("--spread-sizes", s);
            // judged against its one-directory twin (BenchOptions.fileSets), not a deep set of another count
            spread.add(new FileSet(s, n, FileSet.Layout.SPREAD, spreadDirs));
        }
        long order = seed != null ? seed : new SecureRandom().nextLong() >>> 1;
        return new BenchOptions(quick, size, bigBytes, runs, seq, parallel, parallelEach, smallCount, smallSize,
                smallBytes, deep, spread, concurrencies, wrkSeconds, acceptConcurrencies, acceptSeconds, floodIdle,
                floodSlow, deferSeconds, floodSettle, warmup, warmupSeconds, jmhOptions, workloads, setups, out,
                jvmOptions, profile, offline, order, sideRounds, hopBlocks, pin, help, commandLine);
    }
}
