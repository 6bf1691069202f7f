package dev.xaccel.bench.setup;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class BenchStatsTest {

    @Test
    void statsSnapshot() {
        BenchStats.Snapshot s = BenchStats.Snapshot.parse("plain maxKeepAliveRequests -1\n"
                + "plain keepAliveTimeout 75000\n"
                + "accept-filter acceptFilterEffective TCP_DEFER_ACCEPT\nfilter/cached Offloaded 968\n"
                + "filter/stream Offloaded 0\nfilter error java.lang.Exception: x y\n");
        assertEquals(968, s.number("filter/cached", "Offloaded"));
        assertEquals("filter/cached Offloaded=968", s.joined(e -> e.name().startsWith("filter")
                && !e.value().equals("0"), true));
        assertEquals("maxKeepAliveRequests=-1, keepAliveTimeout=75000", s.joined(e -> e.name().equals("plain"), false));
    }
}
