package dev.xaccel.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What the workloads of issue 15 read: strace -c, /proc task status, a JDK's release file; the bare servlet's names. */
class Issue15ToolsTest {

    @Test
    void straceSummaryCallsByName() {
        String out = """
                % time     seconds  usecs/call     calls    errors syscall
                ------ ----------- ----------- --------- --------- ----------------
                 61.20    0.512345          51     10000           epoll_wait
                 20.00    0.100000          10     10000      5000 read
                  9.99    0.050000           5      2000           accept
                  0.01    0.000010           1        10           futex
                ------ ----------- ----------- --------- --------- ----------------
                100.00    0.662355                 22010      5000 total
                """;
        assertEquals(Map.of("epoll_wait", 10000L, "read", 10000L, "accept", 2000L, "futex", 10L),
                StraceCount.parse(out));
        assertEquals(Map.of(), StraceCount.parse("strace: Process 42 attached\n"));
    }

    @Test
    void contextSwitchesOfOneThread() {
        String status = "Name:\tjava\nState:\tS (sleeping)\nvoluntary_ctxt_switches:\t1200\n"
                + "nonvoluntary_ctxt_switches:\t34\n";
        assertEquals(1234, ContextSwitches.parse(status));
        assertTrue(ContextSwitches.of(ProcessHandle.current().pid()) > 0 || !Machine.isLinux());
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
    void percentilesOfSortedNanosInMicros() {
        long[] ns = {1_000, 2_000, 3_000, 4_000, 100_000};
        assertEquals(3, PausingClients.percentile(ns, 50));
        assertEquals(100, PausingClients.percentile(ns, 99));
        assertEquals(0, PausingClients.percentile(new long[0], 99));
    }

    @Test
    void theBareServletNamesOnlyPlainFileNames() {
        for (String ok : List.of("/small-000.bin", "/big.bin", "/a_b-c.1")) {
            assertTrue(BareAccelServlet.isPlainName(ok), ok);
        }
        for (String bad : List.of("/", "/.hidden", "/../x", "/a/b", "/a%2Fb", "/a b", "x", "/caf\u00e9")) {
            assertFalse(BareAccelServlet.isPlainName(bad), bad);
        }
    }

    @Test
    void virtualThreadScenarioLabels() {
        assertEquals("1000 slow clients, concurrency 64", VirtualThreadsReport.label("threads-slow-c64"));
        assertEquals("no slow clients, concurrency 8", VirtualThreadsReport.label("threads-none-c8"));
    }
}
