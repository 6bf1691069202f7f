package dev.xaccel.bench.system;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;

/** Another process's CPU is counted, the run's own is not; the report's sentence flags a shared machine. */
class OtherCpuTest {

    private static final int TICKS = 100;

    /**
     * A shell spinning until it has used half a second of CPU (however long a loaded machine takes): counted when it
     * is another's, not when it is the run's.
     */
    @Test
    void countsAnotherProcessNotTheRunsOwn() throws Exception {
        long self = ProcessHandle.current().pid();
        Process spin = new ProcessBuilder("sh", "-c", "while :; do :; done").start();
        try {
            OtherCpu others = new OtherCpu(() -> Set.of(self));
            OtherCpu own = new OtherCpu(() -> Set.of(self, spin.pid()));
            long start = CpuTicks.of(List.of(spin.pid()));
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            while (CpuTicks.of(List.of(spin.pid())) - start < TICKS / 2 && System.nanoTime() < deadline) {
                Thread.sleep(50);
            }
            others.note();
            own.note();
            // other processes of the machine count in both alike, give or take what they did between two reads
            assertTrue(others.ticks() - own.ticks() >= TICKS * 4 / 10,
                    "half a second of spinning: " + others.ticks() + " ticks counted, " + own.ticks() + " without it");
        } finally {
            spin.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
        }
    }

    @Test
    void kernelThreadsAreLeftOut() {
        assertTrue(OtherCpu.isKernelThread("2 (kthreadd) S 0 0 0 0 -1 2129984 0 0 0 0 0 3 0 0", 2));
        assertTrue(OtherCpu.isKernelThread("35 (kworker/u8:1-ev ents) I 2 0 0 0 -1 69238880 0 0 0 0 0 9 0 0", 35));
        assertFalse(OtherCpu.isKernelThread("1 (process_api) S 0 1 1 0 -1 4194560 0 0 0 0 12 30 0 0", 1));
    }

    @Test
    void theSentenceFlagsASharedMachineByCpuNotByLoad() {
        assertFalse(LoadWatch.sentence(7.5, 1.2, 0.001).contains("shared"), "a busy run alone: high load, no flag");
        assertTrue(LoadWatch.sentence(1.0, 300, 0.15).contains("**The machine was shared"));
    }
}
