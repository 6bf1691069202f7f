package dev.xaccel.bench.workload;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The workloads' own parsing and order: HotPathLoop's result line, a JDK's release file, the rotation of rounds. */
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
    void roundsRotateTheOrder() {
        List<String> l = List.of("a", "b", "c");
        assertEquals(l, Rotation.forRound(l, 1));
        assertEquals(List.of("b", "c", "a"), Rotation.forRound(l, 2));
        assertEquals(List.of("c", "a", "b"), Rotation.forRound(l, 3));
        assertEquals(l, Rotation.forRound(l, 4));
        assertEquals(List.of(), Rotation.forRound(List.of(), 2));
    }
}
