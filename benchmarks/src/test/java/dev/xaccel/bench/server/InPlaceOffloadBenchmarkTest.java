package dev.xaccel.bench.server;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/**
 * The benchmark's trial set-up checks that both answers are offloads of the same file; here it runs in
 * {@code mvn verify}, and each measured call is one whole answer on the kept-alive connection, many times over.
 */
class InPlaceOffloadBenchmarkTest {

    @Test
    void bothMeasuredCallsAreWholeOffloadAnswers() throws Exception {
        InPlaceOffloadBenchmark benchmark = new InPlaceOffloadBenchmark();
        benchmark.setUp();
        try {
            int accel = benchmark.accel();
            int bare = benchmark.bare();
            for (int i = 0; i < 300; i++) {
                assertEquals(accel, benchmark.accel(), "the same answer every time, on one connection");
                assertEquals(bare, benchmark.bare());
            }
            // with the hop's parameters (frontEnd=nginx) the filter leaves out what nginx drops: the same headers
            assertEquals(bare, accel, "the filter's answer is as long as the bare servlet's");
        } finally {
            benchmark.tearDown();
        }
    }
}
