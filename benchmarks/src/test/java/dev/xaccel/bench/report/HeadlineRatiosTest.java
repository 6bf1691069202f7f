package dev.xaccel.bench.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.junit.jupiter.api.Test;

class HeadlineRatiosTest {

    private static RoundRatios rounds(Double... r) {
        return new RoundRatios(List.of(r));
    }

    @Test
    void aRatioIsFlaggedWhenItsMinMaxIncludesTheTargetOrItHasOneRound() {
        assertFalse(rounds(0.98, 1.01, 0.99).overlaps(0.97));
        assertTrue(rounds(0.96, 1.01, 0.99).overlaps(0.97));
        assertTrue(rounds(0.97, 1.01).overlaps(0.97));
        assertTrue(rounds(1.2).overlaps(0.97));
        assertFalse(rounds().overlaps(0.97));
        assertEquals("met", rounds(0.98, 1.01, 0.99).verdict(0.97, true));
        assertEquals("**missed**", rounds(0.90, 0.95, 0.93).verdict(0.97, true));
        assertEquals("met by the median, ⚠ min–max overlaps 0.97×", rounds(0.96, 1.01, 0.99).verdict(0.97, true));
        assertEquals("**missed** by the median, ⚠ min–max overlaps 0.97×",
                rounds(0.90, 0.98, 0.93).verdict(0.97, true));
        assertEquals("met by the median, ⚠ one round: spread unknown", rounds(1.2).verdict(0.97, true));
        assertEquals("–", rounds().verdict(0.97, true));
        assertEquals("**0.99×** (0.96–1.01 over 3 rounds) ⚠ min–max overlaps 1.00×", rounds(0.96, 1.01, 0.99).cell(1));
        assertEquals("**0.99×** (0.98–1.01 over 3 rounds)", rounds(0.98, 1.01, 0.99).cell(0.97));
    }

    @Test
    void tableHasOneRowPerMeasuredHeadlineWithItsVerdict() {
        Map<String, Map<String, Double>> perRound = Map.of("xaccel", Map.of("1", 95.0, "2", 99.0),
                "bare", Map.of("1", 100.0, "2", 100.0), "uds", Map.of("1", 110.0, "2", 112.0));
        Map<String, Map<String, Double>> cpu = Map.of("xaccel", Map.of("1", 30.0, "2", 30.0),
                "bare", Map.of("1", 20.0, "2", 25.0), "uds", Map.of("1", 27.0, "2", 27.0));
        HeadlineRatios.Source source = (w, metric, a, b) -> metric.equals(HeadlineRatios.SERVER_CPU)
                ? RoundRatios.of(ints(cpu.get(a)), ints(cpu.get(b)))
                : RoundRatios.of(ints(perRound.get(a)), ints(perRound.get(b)));
        Map<String, Set<String>> setups = new LinkedHashMap<>();
        setups.put("small-c8", Set.of("xaccel", "bare", "uds"));
        setups.put("accept-none-c1", Set.of("plain", "defer"));
        String md = HeadlineRatios.markdown(source, setups, Map.of());
        assertTrue(md.contains("| xaccel ÷ bare X-Accel servlet (what the auth filter and XAccelFilter cost on the hop)"
                + " | small files, concurrency 8 | ≥ 0.97× | **0.97×** (0.95–0.99 over 2 rounds) | met by the median,"
                + " ⚠ min–max overlaps 0.97× |"), md);
        assertTrue(md.contains("| xaccel over a Unix socket ÷ xaccel over loopback TCP (the hop) | small files,"
                + " concurrency 8 | > 1× (faster) | **1.14×** (1.13–1.16 over 2 rounds) | **faster** |"), md);
        assertTrue(md.contains("| server CPU per request (JVM + nginx): Unix socket ÷ loopback TCP | small files,"
                + " concurrency 8 | < 1× (cheaper) | **0.90×** (0.90–0.90 over 2 rounds) | **cheaper** |"), md);
        assertTrue(md.contains("| server CPU per request (JVM + nginx): xaccel ÷ bare X-Accel servlet | small files,"
                + " concurrency 8 | < 1× (cheaper) | **1.35×** (1.20–1.50 over 2 rounds) | **dearer** |"), md);
        // tomcat/default, cached, signed: not measured, no row
        assertEquals(4, md.lines().filter(l -> l.startsWith("| ") && l.contains("concurrency 8")).count(), md);
        assertEquals("", HeadlineRatios.markdown(source, Map.of("accept-none-c1", Set.of("plain")), Map.of()));
    }

    private static Map<Integer, Double> ints(Map<String, Double> m) {
        Map<Integer, Double> r = new LinkedHashMap<>();
        m.forEach((k, v) -> r.put(Integer.parseInt(k), v));
        return r;
    }
}
