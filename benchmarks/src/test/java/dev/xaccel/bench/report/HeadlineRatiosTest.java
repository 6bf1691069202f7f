package dev.xaccel.bench.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.IntStream;

import org.junit.jupiter.api.Test;

import dev.xaccel.bench.run.SmallPlan;

class HeadlineRatiosTest {

    private static RoundRatios rounds(Double... r) {
        return new RoundRatios(List.of(r));
    }

    /** The round's order keeps each judged pair together: its baseline next to the setup judged against it. */
    @Test
    void everySmallFileRatioWithATargetIsAPairOfNeighbours() {
        for (HeadlineRatios.Line l : HeadlineRatios.SMALL) {
            if (Double.isNaN(l.cpu()) && Double.isNaN(l.rate())) {
                continue;
            }
            boolean neighbours = SmallPlan.NEIGHBOURHOODS.stream().anyMatch(n -> n.get(0).id().equals(l.b())
                    && n.subList(1, Math.min(3, n.size())).stream().anyMatch(s -> s.id().equals(l.a())));
            assertTrue(neighbours, l.a() + " is judged against " + l.b() + " but not measured next to it");
        }
    }

    @Test
    void aRatioIsFlaggedWhenItsMinMaxStraddlesTheTargetOrItHasOneRound() {
        assertFalse(rounds(0.98, 1.01, 0.99).overlaps(0.97));
        assertTrue(rounds(0.96, 1.01, 0.99).overlaps(0.97));
        assertFalse(rounds(0.97, 1.01).overlaps(0.97), "a round at the target reaches it");
        assertTrue(rounds(0.96, 0.97).overlaps(0.97));
        assertTrue(rounds(1.2).overlaps(0.97));
        assertFalse(rounds().overlaps(0.97));
        assertEquals("**0.99×** (0.96–1.01 over 3 rounds) ⚠ min–max overlaps 1.00×", rounds(0.96, 1.01, 0.99).cell(1));
        assertEquals("**0.99×** (0.98–1.01 over 3 rounds)", rounds(0.98, 1.01, 0.99).cell(0.97));
    }

    @Test
    void metOnlyWhenTheWholeRangeClearsTheTargetMissedWhenItIsAllBelowUndecidedOtherwise() {
        assertEquals(Verdict.MET, Verdict.of(rounds(0.98, 1.01, 0.99), 0.97));
        assertEquals(Verdict.MET, Verdict.of(rounds(0.97, 1.30), 0.97), "min equal to the target clears it");
        assertEquals(Verdict.MISSED, Verdict.of(rounds(0.90, 0.95, 0.93), 0.97));
        assertEquals(Verdict.MISSED, Verdict.of(rounds(0.90, 0.9699), 0.97));
        // a median above (or below) the target decides nothing while a round lies on the other side
        assertEquals(Verdict.UNDECIDED, Verdict.of(rounds(0.96, 1.01, 0.99), 0.97));
        assertEquals(Verdict.UNDECIDED, Verdict.of(rounds(0.90, 0.98, 0.93), 0.97));
        assertEquals(Verdict.UNDECIDED, Verdict.of(rounds(1.2), 0.97), "one round: spread unknown");
        assertEquals(Verdict.NONE, Verdict.of(rounds(), 0.97));
        assertEquals("**met**", Verdict.text(rounds(0.98, 1.01, 0.99), 0.97));
        assertEquals("**missed**", Verdict.text(rounds(0.90, 0.95, 0.93), 0.97));
        assertEquals("undecided ⚠ min–max overlaps 0.97×", Verdict.text(rounds(0.96, 1.01, 0.99), 0.97));
        assertEquals("undecided ⚠ one round: spread unknown", Verdict.text(rounds(1.2), 0.97));
        assertEquals("–", Verdict.text(rounds(), 0.97));
        // without a target, against 1×
        assertEquals("no target: **cheaper**", HeadlineRatios.verdict(HeadlineRatios.NONE, rounds(1.1, 1.2), true,
                "cheaper", "dearer"));
        assertEquals("no target: **dearer**", HeadlineRatios.verdict(HeadlineRatios.NONE, rounds(0.8, 0.9), true,
                "cheaper", "dearer"));
        assertEquals("no target: undecided ⚠ min–max overlaps 1.00×", HeadlineRatios.verdict(HeadlineRatios.NONE,
                rounds(0.9, 1.1), true, "cheaper", "dearer"));
    }

    @Test
    void theMediansIntervalIsTheMinMaxUpToSixRoundsAndNarrowsBeyond() {
        // 1 − 2·P(Binomial(n, ½) ≤ k − 1): the textbook values
        assertEquals(0.96875, RoundRatios.coverage(6, 1), 1e-9);
        assertEquals(0.78125, RoundRatios.coverage(6, 2), 1e-9);
        assertEquals(0.890625, RoundRatios.coverage(10, 3), 1e-9);
        assertEquals(0.65625, RoundRatios.coverage(10, 4), 1e-9);
        assertEquals(List.of(1, 1, 1, 1, 1, 1, 2, 2, 2, 3), IntStream.rangeClosed(1, 10)
                .map(RoundRatios::rank).boxed().toList());
        // ten rounds, two of them pulled down by the machine: 3rd–8th decide, the min–max would not
        RoundRatios ten = rounds(0.99, 0.80, 1.00, 0.98, 1.01, 0.99, 0.85, 1.02, 1.00, 0.99);
        assertEquals(0.98, ten.low());
        assertEquals(1.00, ten.high());
        assertFalse(ten.overlaps(0.97));
        assertEquals(Verdict.MET, Verdict.of(ten, 0.97));
        assertEquals("**0.99×** (0.98–1.00, 3rd–8th of 10 rounds; all 0.80–1.02)", ten.cell());
        assertEquals("undecided ⚠ 3rd–8th of 10 overlap 0.99×", Verdict.text(ten, 0.99));
        assertEquals(Verdict.MET, Verdict.atMost(ten, 1.00));
        assertEquals(Verdict.UNDECIDED, Verdict.atMost(ten, 0.99));
        // the same ten rounds' min–max would straddle 0.97: the interval is what changed, not the data
        assertTrue(ten.min() < 0.97 && ten.max() >= 0.97);
        // seven rounds: 2nd–6th
        RoundRatios seven = rounds(0.90, 0.95, 0.93, 1.10, 0.94, 0.92, 0.91);
        assertEquals(Verdict.MISSED, Verdict.of(seven, 0.97));
        assertEquals("**0.93×** (0.91–0.95, 2nd–6th of 7 rounds; all 0.90–1.10)", seven.cell());
    }

    @Test
    void tableHasOneRowPerMeasuredHeadlineWithItsThroughputAndCpuRatios() {
        Map<String, Map<String, Double>> perRound = Map.of("xaccel", Map.of("1", 95.0, "2", 99.0),
                "bare", Map.of("1", 100.0, "2", 100.0), "uds", Map.of("1", 110.0, "2", 112.0));
        Map<String, Map<String, Double>> cpu = Map.of("xaccel", Map.of("1", 30.0, "2", 30.0),
                "bare", Map.of("1", 20.0, "2", 25.0), "uds", Map.of("1", 27.0, "2", 27.0));
        HeadlineRatios.Source source = source(perRound, cpu);
        Map<String, Set<String>> setups = new LinkedHashMap<>();
        setups.put("small-c8", Set.of("xaccel", "bare", "uds"));
        setups.put("accept-none-c1", Set.of("plain", "defer"));
        String md = HeadlineRatios.markdown(source, setups, Map.of());
        // CPU first, as bare's ÷ xaccel's: 20/30, 25/30 — xaccel needs more: missed; throughput 0.95/0.99 straddles
        assertTrue(md.contains("| xaccel ÷ bare X-Accel servlet, both behind the same auth filter (what XAccelFilter"
                + " costs on the hop) | small files, concurrency 8 | **0.75×** (0.67–0.83 over 2 rounds) | ≥ 0.97×:"
                + " **missed** | **0.97×** (0.95–0.99 over 2 rounds) | ≥ 0.97×: undecided ⚠ min–max overlaps 0.97× |"),
                md);
        // uds: CPU xaccel's ÷ uds's = 30/27 = 1.11: cheaper; 1.16/1.13 faster
        assertTrue(md.contains("| xaccel over a Unix socket ÷ xaccel over loopback TCP (the hop) | small files,"
                + " concurrency 8 | **1.11×** (1.11–1.11 over 2 rounds) | no target: **cheaper** |"
                + " **1.14×** (1.13–1.16 over 2 rounds) | no target: **faster** |"), md);
        // tomcat/default, cached, signed: not measured, no row
        assertEquals(2, md.lines().filter(l -> l.startsWith("| ") && l.contains("concurrency 8")).count(), md);
        assertEquals("", HeadlineRatios.markdown(source, Map.of("accept-none-c1", Set.of("plain")), Map.of()));
    }

    @Test
    void everySizeAndBothConnectorsAgainstDefaultServletWithCpuAndConcurrencyOneNotJudged() {
        Map<String, Map<String, Double>> rate = Map.of("tomcat", Map.of("1", 110.0, "2", 120.0),
                "tomcat-nio", Map.of("1", 90.0, "2", 95.0), "default", Map.of("1", 100.0, "2", 100.0));
        Map<String, Map<String, Double>> cpu = Map.of("tomcat", Map.of("1", 40.0, "2", 40.0),
                "tomcat-nio", Map.of("1", 60.0, "2", 60.0), "default", Map.of("1", 50.0, "2", 50.0));
        Map<String, Set<String>> setups = new LinkedHashMap<>();
        Set<String> direct = Set.of("tomcat", "tomcat-nio", "default");
        setups.put("small-c1", direct);
        setups.put("small-8K-deep-c8", direct);
        setups.put("small-512K-deep-c64", direct);
        setups.put("large-par", direct);
        Map<String, String> labels = Map.of("small-8K-deep-c8", "8K three directories deep, c=8",
                "large-par", "Large file, 4 parallel downloaders");
        String md = HeadlineRatios.markdown(source(rate, cpu), setups, labels);
        assertTrue(md.contains("| " + HeadlineRatios.DIRECT_LINE + " | 8K three directories deep, c=8 | **1.25×**"
                + " (1.25–1.25 over 2 rounds) | ≥ 1.00×: **met** | **1.15×** (1.10–1.20 over 2 rounds) | ≥ 1.00×:"
                + " **met** |"), md);
        assertTrue(md.contains("| " + HeadlineRatios.NIO_LINE + " | small files, concurrency 64 | **0.83×**"
                + " (0.83–0.83 over 2 rounds) | no target: **dearer** | **0.93×** (0.90–0.95 over 2 rounds) |"
                + " no target: **slower** |"), md);
        assertTrue(md.contains("| " + HeadlineRatios.DIRECT_LINE + " | small files, concurrency 1 | **1.25×**"
                + " (1.25–1.25 over 2 rounds) | ≥ 1.00×: reported, not judged (c=1) | **1.15×** (1.10–1.20 over 2"
                + " rounds) | ≥ 1.00×: reported, not judged (c=1) |"), md);
        assertTrue(md.contains("| " + HeadlineRatios.DIRECT_LINE + " | Large file, 4 parallel downloaders |"
                + " **1.25×**"), md);
        assertEquals(8, md.lines().filter(l -> l.startsWith("| filter serving directly")).count(), md);
    }

    @Test
    void aRowWithoutCpuMeasurementsShowsADash() {
        Map<String, Map<String, Double>> rate = Map.of("xaccel", Map.of("1", 98.0), "static", Map.of("1", 100.0));
        String md = HeadlineRatios.markdown(source(rate, Map.of()), Map.of("large-seq", Set.of("xaccel", "static")),
                Map.of());
        assertTrue(md.contains("| xaccel ÷ nginx static | large-seq | – | – | **0.98×** (1 round) | ≥ 0.97×:"
                + " undecided ⚠ one round: spread unknown |"), md);
    }

    /** Requests/s (or MB/s) per round from {@code rate}, the servers' CPU per round from {@code cpu}. */
    private static HeadlineRatios.Source source(Map<String, Map<String, Double>> rate,
            Map<String, Map<String, Double>> cpu) {
        return (w, metric, a, b) -> metric.equals(HeadlineRatios.SERVER_CPU)
                || metric.equals(HeadlineRatios.SERVER_CPU_GB)
                ? RoundRatios.of(ints(cpu.getOrDefault(a, Map.of())), ints(cpu.getOrDefault(b, Map.of())))
                : RoundRatios.of(ints(rate.get(a)), ints(rate.get(b)));
    }

    private static Map<Integer, Double> ints(Map<String, Double> m) {
        Map<Integer, Double> r = new LinkedHashMap<>();
        m.forEach((k, v) -> r.put(Integer.parseInt(k), v));
        return r;
    }
}
