package dev.xaccel.bench.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

import org.junit.jupiter.api.Test;

/** The small-file matrix ({@link SmallPlan}, {@link SmallCase}, {@link FileSet}) and its cost ({@link RunPlan}). */
class PlanTest {

    private static final Path BENCH = Path.of("/x/benchmarks");

    @Test
    void theFullRunMeasuresEverySizeDeepAtEightAndSixtyFourAndOnlyTheHeadlineSetupsAtOne() throws Exception {
        BenchOptions o = BenchOptions.parse(new String[0], BENCH);
        List<SmallCase> cases = SmallPlan.cases(o);
        assertEquals(List.of("small-c1", "small-c8", "small-8K-deep-c8", "small-50K-deep-c8", "small-512K-deep-c8",
                "small-c64", "small-8K-deep-c64", "small-50K-deep-c64", "small-512K-deep-c64"),
                cases.stream().map(SmallCase::workload).toList());
        assertEquals(SmallPlan.AT_C1.stream().sorted().toList(), cases.get(0).setups());
        assertFalse(cases.get(0).judged());
        assertEquals(List.of(Setup.values()), cases.get(1).setups());
        for (SmallCase k : cases.subList(2, 5)) {
            assertEquals(List.of(Setup.TOMCAT, Setup.DEFAULT, Setup.SENDFILE, Setup.TOMCAT_NIO), k.setups());
            assertTrue(k.judged());
        }
        assertEquals(7 + 2 * (15 + 3 * 4), SmallPlan.measurementsPerRound(o));
    }

    @Test
    void theFullRunFitsInThirtyFiveMinutesAndQuickInAMinute() throws Exception {
        BenchOptions full = BenchOptions.parse(new String[0], BENCH);
        double total = RunPlan.total(full);
        assertTrue(total <= 33 * 60, "the full run's estimate leaves a margin below 35 min: " + RunPlan.describe(full));
        assertTrue(RunPlan.describe(full).startsWith("about "), RunPlan.describe(full));
        BenchOptions quick = BenchOptions.parse(new String[] {"--quick"}, BENCH);
        assertTrue(RunPlan.total(quick) <= 60, RunPlan.describe(quick));
        // the quick run still goes through every size, deep, and both direct connectors
        List<SmallCase> cases = SmallPlan.cases(quick);
        assertEquals(List.of("small-c4", "small-8K-deep-c4", "small-50K-deep-c4", "small-512K-deep-c4"),
                cases.stream().map(SmallCase::workload).toList());
        assertTrue(cases.get(0).setups().containsAll(List.of(Setup.TOMCAT, Setup.TOMCAT_NIO, Setup.DEFAULT)));
        assertEquals(List.of(Setup.TOMCAT), cases.get(1).setups());
        // more rounds cost more: the estimate follows the options
        assertTrue(RunPlan.total(BenchOptions.parse(new String[] {"--runs", "6"}, BENCH)) > total);
        assertTrue(RunPlan.seconds(BenchOptions.parse(new String[] {"--only", "small"}, BENCH)).keySet()
                .containsAll(List.of("small", "perf")));
    }

    @Test
    void setupsOfTheCommandLineOnlyAndNoEmptyCase() throws Exception {
        BenchOptions o = BenchOptions.parse(new String[] {"--setups", "xaccel static", "--concurrency", "1 8"}, BENCH);
        assertEquals(List.of("small-c1", "small-c8"), SmallPlan.cases(o).stream().map(SmallCase::workload).toList());
        assertEquals(List.of(Setup.XACCEL, Setup.STATIC), SmallPlan.cases(o).get(0).setups());
    }

    @Test
    void fileSetsAndWorkloadIds() {
        FileSet top = new FileSet("50K", 50 << 10, false, 100);
        FileSet deep = new FileSet("8K", 8 << 10, true, 100);
        assertEquals("small-007.bin", top.path(7));
        assertEquals("deep/8K/files/file-007.bin", deep.path(7));
        assertEquals(3, deep.path(7).chars().filter(c -> c == '/').count(), "three directories below the root");
        assertEquals("8 KiB files three directories below the root", deep.label());
        assertEquals(Optional.of(new SmallCase.Id(Optional.empty(), 8)), SmallCase.parse("small-c8"));
        assertEquals(Optional.of(new SmallCase.Id(Optional.of("512K"), 64)), SmallCase.parse("small-512K-deep-c64"));
        assertEquals("small-512K-deep-c64", new SmallCase(new FileSet("512K", 512 << 10, true, 100), 64, List.of())
                .workload());
        assertFalse(SmallCase.parse("small-c1").get().judged());
        assertEquals(Optional.empty(), SmallCase.parse("seed001-lan-c1"));
    }
}
