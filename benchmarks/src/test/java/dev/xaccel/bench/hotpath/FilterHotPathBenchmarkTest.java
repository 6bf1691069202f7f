package dev.xaccel.bench.hotpath;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;

import org.junit.jupiter.api.Test;

/**
 * The benchmark's own sanity check (its trial set-up: the measured paths really offload, the untouched one really
 * passes through) in {@code mvn verify}, so that a change of the filter that the stub request does not follow
 * fails here and not first in {@code benchmarks/run}'s JMH step.
 */
class FilterHotPathBenchmarkTest {

    @Test
    void theMeasuredPathsDoWhatTheirNamesSay() throws Exception {
        FilterHotPathBenchmark benchmark = new FilterHotPathBenchmark();
        try {
            assertDoesNotThrow(benchmark::setUp);
        } finally {
            benchmark.tearDown();
        }
    }
}
