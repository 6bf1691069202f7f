package dev.xaccel.bench.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** What the clients report: wrk's result line, the pausing clients' percentiles. */
class ClientOutputTest {

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
    void percentilesOfSortedNanosInMicros() {
        long[] ns = {1_000, 2_000, 3_000, 4_000, 100_000};
        assertEquals(3, PausingClients.percentile(ns, 50));
        assertEquals(100, PausingClients.percentile(ns, 99));
        assertEquals(0, PausingClients.percentile(new long[0], 99));
    }
}
