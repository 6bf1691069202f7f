package dev.xaccel.bench.system;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.junit.jupiter.api.Test;

class CpuPinningTest {

    @Test
    void theClientOnTheFirstAllowedCpuAndTheServersOnTheOthers() {
        CpuPinning p = CpuPinning.split(true, List.of(0, 1), true);
        assertTrue(p.on());
        assertEquals(List.of("taskset", "-c", "1", "java", "-cp", "x"), p.server(List.of("java", "-cp", "x")));
        assertEquals("client (driver, wrk, curl) on CPU 0, servers (Tomcat, nginx, store) on CPU 1 (taskset)",
                p.describe());
        CpuPinning four = CpuPinning.split(true, List.of(2, 3, 5, 6), true);
        assertEquals(List.of("taskset", "-c", "3,5,6", "nginx"), four.server(List.of("nginx")));
    }

    @Test
    void offWhenNotWantedOnOneCpuOrWithoutTaskset() {
        for (CpuPinning p : List.of(CpuPinning.split(false, List.of(0, 1), true),
                CpuPinning.split(true, List.of(0), true), CpuPinning.split(true, List.of(0, 1), false))) {
            assertFalse(p.on());
            assertEquals(List.of("java"), p.server(List.of("java")), "started as it is");
            assertTrue(p.describe().startsWith("off: "), p.describe());
        }
        assertEquals("off: --no-pin", CpuPinning.split(false, List.of(0, 1), true).describe());
        assertEquals("off: 1 CPU: the client and the servers share it",
                CpuPinning.split(true, List.of(3), true).describe());
    }

    @Test
    void cpuListsOfProcStatus() {
        assertEquals(List.of(0, 1, 2, 5), CpuPinning.parse(" 0-2,5\n"));
        assertEquals(List.of(7), CpuPinning.parse("7"));
        assertEquals("0,1,2,5", CpuPinning.list(List.of(0, 1, 2, 5)));
        assertThrows(IllegalArgumentException.class, () -> CpuPinning.parse("a-b"));
        assertFalse(CpuPinning.allowed().isEmpty(), "this machine's affinity");
    }
}
