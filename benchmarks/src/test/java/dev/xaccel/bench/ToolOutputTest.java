package dev.xaccel.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import java.util.Set;

import org.junit.jupiter.api.Test;

/** Parsing what the tools and /proc print: wrk's result line, strace -c, /proc/<pid>/stat, /proc/net/tcp, perf. */
class ToolOutputTest {

    @Test
    void wrkResultLine() {
        Wrk.Result r = Wrk.Result.parse("Running 1s test @ http://127.0.0.1:1/\n  2 threads and 4 connections\n"
                + "BENCH requests=12000 duration_us=2000000 socket_errors=3 status_errors=0 p50_us=250 p99_us=4100\n")
                .orElseThrow();
        assertEquals(new Wrk.Result(12000, 2_000_000, 3, 0, 250, 4100), r);
        assertEquals(6000.0, r.requestsPerSecond());
        assertTrue(Wrk.Result.parse("unable to connect to 127.0.0.1:1 Connection refused\n").isEmpty());
    }

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
        Map<String, Long> calls = HotPathCounts.parseStraceSummary(table);
        assertEquals(Map.of("statx", 60321L, "access", 20102L, "execve", 1L), calls);
    }

    @Test
    void hotPathLoopResultLine() {
        double[] r = HotPathCounts.parse("mapped: 3000 ns/op wall, ...\nhotpath mapped 3000.5 2900.0 1024.0\n");
        assertEquals(2900.0, r[1]);
        assertEquals(1024.0, r[2]);
    }

    @Test
    void cpuTicksFromProcStatWithBlanksAndParenthesesInTheName() {
        String stat = "4242 (C2 Compiler (x) ) S 1 4242 4242 0 -1 4194560 100 0 0 0 137 42 0 0 20 0 30 0 5 0 0";
        assertEquals(137 + 42, CpuTicks.parse(stat));
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

    @Test
    void rawLinesAndValues() {
        assertEquals("small-c8\tcached\t2\trps\t1234.500000\n",
                RawResults.line("small-c8", "cached", 2, "rps", RawResults.format(1234.5)));
        assertEquals("0.000000", RawResults.format(0));
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

    @Test
    void statsSnapshot() {
        BenchStats.Snapshot s = BenchStats.Snapshot.parse("plain maxKeepAliveRequests -1\nplain keepAliveTimeout 75000\n"
                + "accept-filter acceptFilterEffective TCP_DEFER_ACCEPT\nfilter/cached Offloaded 968\n"
                + "filter/stream Offloaded 0\nfilter error java.lang.Exception: x y\n");
        assertEquals(968, s.number("filter/cached", "Offloaded"));
        assertEquals("filter/cached Offloaded=968", s.joined(e -> e.name().startsWith("filter")
                && !e.value().equals("0"), true));
        assertEquals("maxKeepAliveRequests=-1, keepAliveTimeout=75000", s.joined(e -> e.name().equals("plain"), false));
    }

    @Test
    void tamperedSignature() {
        assertEquals("/s/media/a.bin?md5=Bbc&expires=1", SignedLinkChecks.tampered("/s/media/a.bin?md5=Abc&expires=1"));
        assertEquals("/s/media/a.bin?md5=Abc&expires=1", SignedLinkChecks.tampered("/s/media/a.bin?md5=xbc&expires=1"));
    }
}
