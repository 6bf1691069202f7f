package dev.xaccel.bench.system;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import java.util.Set;

import org.junit.jupiter.api.Test;

/**
 * Parsing what the tools and /proc print: strace -c, /proc/<pid>/stat, /proc/<pid>/task/<tid>/status, /proc/net/tcp,
 * perf.
 */
class ToolOutputTest {

    @Test
    void straceSummaryWithAndWithoutTheErrorsColumn() {
        List<String> table = List.of(
                "% time     seconds  usecs/call     calls    errors syscall",
                "------ ----------- ----------- --------- --------- ------------------",
                " 45.10    0.201163           3     60321           statx",
                " 20.00    0.100000           5     20102        12 access",
                "  0.01    0.000040          40         1           execve",
                "------ ----------- ----------- --------- --------- ------------------",
                "100.00    0.446023           4    100000       100 total");
        Map<String, Long> calls = StraceCount.parse(String.join("\n", table));
        assertEquals(Map.of("statx", 60321L, "access", 20102L, "execve", 1L), calls);
    }

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
    void cpuTicksFromProcStatWithBlanksAndParenthesesInTheName() {
        String stat = "4242 (C2 Compiler (x) ) S 1 4242 4242 0 -1 4194560 100 0 0 0 137 42 0 0 20 0 30 0 5 0 0";
        assertEquals(137 + 42, CpuTicks.parse(stat));
    }

    @Test
    void contextSwitchesOfOneThread() {
        String status = "Name:\tjava\nState:\tS (sleeping)\nvoluntary_ctxt_switches:\t1200\n"
                + "nonvoluntary_ctxt_switches:\t34\n";
        assertEquals(1234, ContextSwitches.parse(status));
        ContextSwitches.Snapshot now = ContextSwitches.of(ProcessHandle.current().pid());
        assertTrue(now.since(new ContextSwitches.Snapshot(Map.of())) > 0 || !Machine.isLinux());
    }

    /** A thread that ended is not subtracted (a negative count of wake-ups was reported once); a new one counts. */
    @Test
    void contextSwitchesSinceAnEarlierSnapshotAreNeverNegative() {
        ContextSwitches.Snapshot before = new ContextSwitches.Snapshot(Map.of(1L, 100L, 2L, 5000L, 3L, 700L));
        ContextSwitches.Snapshot after = new ContextSwitches.Snapshot(Map.of(1L, 130L, 3L, 20L, 4L, 9L));
        // 1: +30; 2 ended: not counted; 3: id reused by a new thread, counts from 0; 4: new
        assertEquals(30 + 20 + 9, after.since(before));
    }

    @Test
    void socketsByStateAndPort() {
        String table = String.join("\n",
                "  sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode",
                "   0: 0100007F:9C40 00000000:0000 0A 00000000:00000000 00:00000000 00000000     0        0 1",
                "   1: 0100007F:D431 0100007F:9C40 06 00000000:00000000 03:00000F9E 00000000     0        0 0",
                "   2: 0100007F:D432 0100007F:9C40 06 00000000:00000000 03:00000F9E 00000000     0        0 0",
                "   3: 0100007F:9C40 0100007F:D433 03 00000000:00000000 02:00000F9E 00000000     0        0 0",
                "   4: 0100007F:D434 0100007F:9C41 06 00000000:00000000 03:00000F9E 00000000     0        0 0");
        assertEquals(2, TcpSockets.count(table, TcpSockets.TIME_WAIT, 40000, false));
        assertEquals(1, TcpSockets.count(table, TcpSockets.SYN_RECV, 40000, true));
        assertEquals(0, TcpSockets.count(table, TcpSockets.SYN_RECV, 40000, false));
    }

    @Test
    void perfSamplesByProcessAndThreadKind() {
        String script = String.join("\n", "  http-nio-127.0.0.1-auto-1-exec-3   100", "  http-nio-x-Poller   100",
                "  C2 CompilerThre   100", "  GC Thread#0   100", "  nginx   200", "  nginx   201", "  wrk   300",
                "  swapper   0", "  gcc   400", "  VM Thread   100");
        assertEquals(List.of("   20.00%  nginx (master + workers)",
                "   20.00%  Tomcat JVM: connector and request threads",
                "   10.00%  wrk (the client)",
                "   10.00%  other processes (incl. other builds on this machine)",
                "   10.00%  idle",
                "   10.00%  Tomcat JVM: other threads",
                "   10.00%  Tomcat JVM: JIT compiler threads",
                "   10.00%  Tomcat JVM: GC threads"),
                PerfSummary.byProcess(script, 100, Set.of(200L, 201L)));
    }

    @Test
    void perfReportSummedByBinary() {
        String report = String.join("\n", "# Overhead  Shared Object      Symbol", "#",
                "    20.00%  [kernel.kallsyms]  [k] do_syscall_64",
                "     1.75%  [kernel.kallsyms]  [k] tcp_sendmsg",
                "    10.50%  [JIT] tid 4242     [.] Interpreter",
                "     2.00%  perf-4242.map      [.] 0x00007f",
                "     0.40%  libc.so.6          [.] memcpy");
        assertEquals(List.of("   21.75%  [kernel.kallsyms]", "   10.50%  [JIT] compiled Java"),
                PerfSummary.byBinary(report, 2));
        assertEquals(3, PerfSummary.byBinary(report, 6).size());
    }
}
