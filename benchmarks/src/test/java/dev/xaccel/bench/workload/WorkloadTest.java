package dev.xaccel.bench.workload;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The workloads' own parsing and order: HotPathLoop's result line, a JDK's release file, the shuffled rounds. */
class WorkloadTest {

    @Test
    void hotPathLoopResultLine() {
        double[] r = HotPathCounts.parse("mapped: 3000 ns/op wall, ...\nhotpath mapped 3000.5 2900.0 1024.0\n");
        assertEquals(2900.0, r[1]);
        assertEquals(1024.0, r[2]);
    }

    @Test
    void jdkFeatureVersionFromItsReleaseFile(@TempDir Path dir) throws Exception {
        Path release = dir.resolve("release");
        Files.writeString(release, "IMPLEMENTOR=\"Eclipse Adoptium\"\nJAVA_VERSION=\"25.0.3\"\n");
        assertEquals(25, VirtualThreadsWorkload.feature(release));
        Files.writeString(release, "JAVA_VERSION=\"17.0.15\"\n");
        assertEquals(17, VirtualThreadsWorkload.feature(release));
        assertEquals(0, VirtualThreadsWorkload.feature(dir.resolve("missing")));
    }

    @Test
    void everySetupOncePerRoundInAnOrderTheSeedReproduces() {
        List<String> setups = List.of("tomcat", "tomcat-nio", "default", "sendfile", "xaccel", "bare", "static");
        Shuffle shuffle = new Shuffle(42);
        Set<List<String>> orders = new HashSet<>();
        Set<String> firsts = new HashSet<>();
        for (int round = 1; round <= 20; round++) {
            List<String> order = shuffle.order(setups, "small-c8", round);
            assertEquals(setups.size(), order.size());
            assertEquals(new HashSet<>(setups), new HashSet<>(order), "every setup once");
            assertEquals(order, new Shuffle(42).order(setups, "small-c8", round), "the seed gives it again");
            orders.add(order);
            firsts.add(order.get(0));
        }
        // 20 rounds of 7 setups: a rotation would repeat each neighbour; a shuffle leaves (almost) no order twice
        assertTrue(orders.size() >= 18, orders.toString());
        assertTrue(firsts.size() >= 4, "many setups go first: " + firsts);
        assertNotEquals(shuffle.order(setups, "small-c8", 1), new Shuffle(43).order(setups, "small-c8", 1));
        assertNotEquals(shuffle.order(setups, "small-c8", 1), shuffle.order(setups, "small-c64", 1),
                "each workload its own order");
        assertEquals(setups, List.of("tomcat", "tomcat-nio", "default", "sendfile", "xaccel", "bare", "static"),
                "the list given stays as it is");
        assertEquals(List.of(), shuffle.order(List.of(), "large", 1));
    }

    @Test
    void aNeighbourhoodsBaselineIsMeasuredNextToItsFirstTwoPartnersInEveryRound() {
        List<String> setups = List.of("tomcat", "default", "sendfile", "xaccel", "bare", "receipts", "static", "uds");
        List<List<String>> hoods = List.of(List.of("bare", "xaccel", "receipts"),
                List.of("default", "tomcat", "sendfile", "tomcat-nio"), List.of("static", "cached"),
                List.of("xaccel", "uds"));
        Shuffle shuffle = new Shuffle(42);
        Set<List<String>> orders = new HashSet<>();
        Set<Boolean> xaccelFirst = new HashSet<>();
        Set<String> firsts = new HashSet<>();
        for (int round = 1; round <= 20; round++) {
            List<String> order = shuffle.order(setups, hoods, "small-c8", round);
            assertEquals(setups.size(), order.size());
            assertEquals(new HashSet<>(setups), new HashSet<>(order), "every setup once");
            assertEquals(order, new Shuffle(42).order(setups, hoods, "small-c8", round), "the seed gives it again");
            for (String[] pair : new String[][] {{"bare", "xaccel"}, {"bare", "receipts"}, {"default", "tomcat"},
                {"default", "sendfile"}}) {
                assertEquals(1, Math.abs(order.indexOf(pair[0]) - order.indexOf(pair[1])), pair[1] + " beside "
                        + pair[0] + ": " + order);
            }
            xaccelFirst.add(order.indexOf("xaccel") < order.indexOf("bare"));
            orders.add(order);
            firsts.add(order.get(0));
        }
        assertEquals(Set.of(true, false), xaccelFirst, "a partner's side of its baseline is drawn");
        assertTrue(orders.size() >= 18, orders.toString());
        assertTrue(firsts.size() >= 4, "the units are shuffled: " + firsts);
        // an element of two neighbourhoods belongs to the first: uds is not held next to xaccel
        Set<Integer> udsToXaccel = new HashSet<>();
        for (int round = 1; round <= 20; round++) {
            List<String> order = shuffle.order(setups, hoods, "small-c64", round);
            udsToXaccel.add(Math.abs(order.indexOf("uds") - order.indexOf("xaccel")));
        }
        assertTrue(udsToXaccel.size() > 2, udsToXaccel.toString());
        assertEquals(List.of("static"), shuffle.order(List.of("static"), hoods, "small-c8", 1));
        assertEquals(List.of(), shuffle.order(List.of(), hoods, "small-c8", 1));
    }

    @Test
    void noSetupAlwaysFollowsTheSameOne() {
        List<String> setups = List.of("a", "b", "c", "d", "e");
        Shuffle shuffle = new Shuffle(7);
        Set<String> afterA = new HashSet<>();
        for (int round = 1; round <= 10; round++) {
            List<String> order = shuffle.order(setups, "large", round);
            int i = order.indexOf("a");
            afterA.add(i + 1 < order.size() ? order.get(i + 1) : "end");
        }
        assertTrue(afterA.size() >= 3, afterA.toString());
    }
}
