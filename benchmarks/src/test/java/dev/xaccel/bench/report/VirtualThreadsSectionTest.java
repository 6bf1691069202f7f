package dev.xaccel.bench.report;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class VirtualThreadsSectionTest {

    @Test
    void virtualThreadScenarioLabels() {
        assertEquals("1000 slow clients, concurrency 64", VirtualThreadsSection.label("threads-slow-c64"));
        assertEquals("no slow clients, concurrency 8", VirtualThreadsSection.label("threads-none-c8"));
    }
}
