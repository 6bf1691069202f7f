package dev.xaccel.bench.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import java.util.Set;

import org.junit.jupiter.api.Test;

class BenchOptionsTest {

    private static final Path BENCH = Path.of("/x/benchmarks");

    private static BenchOptions parse(String... args) throws UsageException {
        return BenchOptions.parse(args, BENCH);
    }

    private static String error(String... args) {
        return assertThrows(UsageException.class, () -> parse(args)).getMessage();
    }

    @Test
    void defaultsAreTheFullRun() throws Exception {
        BenchOptions o = parse();
        assertFalse(o.quick());
        assertEquals(1L << 30, o.bigBytes());
        assertEquals("1G", o.size());
        assertEquals(10, o.runs());
        assertEquals(List.of(8, 64), o.concurrencies());
        assertEquals(List.of(1, 4), o.acceptConcurrencies());
        assertEquals(List.of(Setup.values()), o.setups());
        assertEquals(Set.of(WorkloadKind.values()), o.workloads());
        assertEquals(BENCH.resolve("results"), o.outDir());
        assertEquals(BenchOptions.Profile.OFF, o.profile(), "a diagnosis, asked for with --profile");
        assertTrue(o.pin());
        assertEquals(List.of(Setup.TOMCAT, Setup.PROXIED, Setup.XACCEL, Setup.STATIC, Setup.DEFAULT,
                Setup.CONFINED, Setup.REMOTE_OFFLOAD, Setup.REMOTE_DIRECT, Setup.STORE, Setup.SENDFILE,
                Setup.TOMCAT_NIO), o.largeSetups());
        assertEquals("", o.commandLine());
        assertEquals(3, o.wrkSeconds());
        assertEquals(1, o.sideRuns());
        assertEquals(new FileSet("50K", 50 << 10, false, 100), o.mainSet());
        assertEquals(List.of(new FileSet("8K", 8 << 10, true, 100), new FileSet("50K", 50 << 10, true, 100),
                new FileSet("512K", 512 << 10, true, 100)), o.deepSets());
        assertEquals(List.of(new FileSet("8K", 8 << 10, FileSet.Layout.SPREAD, 2000)), o.spreadSets());
        assertTrue(o.seed() >= 0, "a random seed when none is given");
    }

    @Test
    void quickIsTheSmokeRunAndOtherOptionsOverrideItWhereverTheyStand() throws Exception {
        BenchOptions q = parse("--quick");
        assertTrue(q.quick());
        assertEquals(16L << 20, q.bigBytes());
        assertEquals(1, q.runs());
        assertFalse(q.warmup());
        assertEquals(BenchOptions.Profile.OFF, q.profile());
        assertEquals(BENCH.resolve("work/results"), q.outDir());
        assertEquals(List.of("-f", "0", "-wi", "0", "-i", "1", "-r", "200ms"), q.jmhOptions());
        for (String[] args : List.of(new String[] {"--quick", "--size", "64M", "--profile"},
                new String[] {"--size", "64M", "--profile", "--quick"})) {
            BenchOptions o = parse(args);
            assertEquals(64L << 20, o.bigBytes());
            assertEquals("64M", o.size());
            assertEquals(BenchOptions.Profile.ON, o.profile());
        }
    }

    @Test
    void everyOptionIsParsed() throws Exception {
        BenchOptions o = parse("--runs", "1", "--seq", "3", "--parallel", "2", "--parallel-each", "5",
                "--concurrency", "2 16", "--duration", "2", "--flood", "10,3", "--defer", "7", "--only",
                "small,jmh", "--setups", "xaccel static,cached", "--jmh", " -f 1  -i 2 ", "--out", "r",
                "--offline", "--no-profile", "--seed", "1234", "--side-rounds", "3", "--deep-sizes", "4K,1M",
                "--spread-sizes", "", "--hop-blocks", "5");
        assertEquals(1, o.runs());
        assertEquals(3, o.seq());
        assertEquals(2, o.parallel());
        assertEquals(5, o.parallelEach());
        assertEquals(List.of(2, 16), o.concurrencies());
        assertEquals(16, o.highestConcurrency());
        assertEquals(2, o.wrkSeconds());
        assertEquals(2, o.acceptSeconds());
        assertEquals(10, o.floodIdle());
        assertEquals(3, o.floodSlow());
        assertEquals(7, o.deferSeconds());
        assertEquals(Set.of(WorkloadKind.SMALL, WorkloadKind.JMH), o.workloads());
        assertEquals(List.of(Setup.XACCEL, Setup.STATIC, Setup.CACHED), o.setups());
        assertEquals(List.of(Setup.XACCEL, Setup.STATIC), o.largeSetups());
        assertEquals(List.of("-f", "1", "-i", "2"), o.jmhOptions());
        assertEquals(Path.of("r"), o.outDir());
        assertTrue(o.offline());
        assertEquals(BenchOptions.Profile.OFF, o.profile());
        assertTrue(o.commandLine().startsWith("--runs 1 --seq 3"), o.commandLine());
        assertEquals(1234, o.seed());
        assertEquals(1, o.sideRuns(), "at most --runs");
        assertEquals(3, parse("--runs", "5", "--side-rounds", "3").sideRuns());
        assertEquals(5, o.hopBlocks());
        assertEquals(1 + 4 * 1, o.hopRound(1, 4), "after the one round");
        assertEquals(List.of(new FileSet("4K", 4 << 10, true, 100), new FileSet("1M", 1 << 20, true, 100)),
                o.deepSets());
        assertEquals(List.of(), parse("--deep-sizes", "", "--spread-sizes", "").deepSets());
    }

    @Test
    void aSpreadSetBringsTheOneDirectorySetOfItsSizeAndPinningTurnsOff() throws Exception {
        BenchOptions o = parse("--deep-sizes", "50K", "--spread-sizes", "4K 50K", "--spread-dirs", "30", "--no-pin");
        assertEquals(List.of(new FileSet("4K", 4 << 10, FileSet.Layout.SPREAD, 30),
                new FileSet("50K", 50 << 10, FileSet.Layout.SPREAD, 30)), o.spreadSets());
        assertEquals(List.of(new FileSet("50K", 50 << 10, true, 100)), o.deepSets(), "no deep set added");
        assertEquals(new FileSet("4K", 4 << 10, FileSet.Layout.ONEDIR, 30), o.spreadSets().get(0).oneDirectoryTwin(),
                "the twin of each spread set: as many files of its size, in one directory");
        assertTrue(o.fileSets().contains(o.spreadSets().get(1).oneDirectoryTwin()));
        assertFalse(o.pin());
        assertEquals(List.of(), parse("--spread-sizes", "").spreadSets());
        assertEquals("--spread-dirs: expected an integer of at least 10, got '9'", error("--spread-dirs", "9"));
        assertEquals("--spread-sizes: expected a size like 256M or 1G, got 'big'", error("--spread-sizes", "big"));
    }

    @Test
    void sizesInKibMibGib() throws Exception {
        assertEquals(50L << 10, OptionValues.bytes("--size", "50K"));
        assertEquals(256L << 20, OptionValues.bytes("--size", "256m"));
        assertEquals(2L << 30, OptionValues.bytes("--size", "2G"));
        assertEquals(1000, OptionValues.bytes("--size", "1000"));
    }

    @Test
    void errorsNameTheOptionAndTheValue() {
        assertEquals("--runs: expected an integer, got 'three'", error("--runs", "three"));
        assertEquals("--seq: expected a positive integer, got '0'", error("--seq", "0"));
        assertEquals("--size: expected a size like 256M or 1G, got '1T'", error("--size", "1T"));
        assertEquals("--flood: expected IDLE,SLOW (two counts), got '200'", error("--flood", "200"));
        assertEquals("--flood: expected counts of 0 or more, got '-1,2'", error("--flood", "-1,2"));
        assertEquals("--setups: unknown setup 'nginx' in 'xaccel nginx' (known: tomcat proxied xaccel static default "
                + "cached signed confined remote-offload remote-direct store bare uds sendfile tomcat-nio receipts)",
                error("--setups", "xaccel nginx"));
        assertTrue(error("--only", "large,huge").startsWith("--only: unknown workload 'huge' in 'large,huge'"));
        assertEquals("--concurrency: expected positive integers, got '8x' in '1 8x'", error("--concurrency", "1 8x"));
        assertEquals("--duration needs a value", error("--quick", "--duration"));
        assertEquals("unknown option --fast", error("--fast"));
        assertEquals("--seed: expected an integer (a seed printed by an earlier run), got 'x1'", error("--seed", "x1"));
        assertEquals("--deep-sizes: expected a size like 256M or 1G, got '8KB'", error("--deep-sizes", "8KB 50K"));
        assertEquals("--side-rounds: expected a positive integer, got '0'", error("--side-rounds", "0"));
        assertEquals("--hop-blocks: expected a positive integer, got '0'", error("--hop-blocks", "0"));
        assertEquals("unknown option 64M", error("--quick", "64M"));
    }

    @Test
    void helpListsEveryOption() throws Exception {
        assertTrue(parse("--help").help());
        assertTrue(parse("-h").help());
        String usage = BenchOptions.usage();
        for (String o : List.of("--quick", "--size", "--runs", "--seq", "--parallel", "--parallel-each",
                "--concurrency", "--duration", "--flood", "--defer", "--only", "--setups", "--jmh", "--jvm", "--out",
                "--offline", "--profile", "--no-profile", "--seed", "--side-rounds", "--deep-sizes", "--spread-sizes",
                "--spread-dirs", "--no-pin")) {
            assertTrue(usage.contains(o + " ") || usage.contains(o + "|"), o);
        }
        assertTrue(usage.contains("(default 1G)"), usage);
        assertTrue(usage.contains("among: tomcat proxied xaccel static default cached signed confined remote-offload"
                + " remote-direct store bare uds sendfile tomcat-nio receipts\n"), usage);
    }
}
