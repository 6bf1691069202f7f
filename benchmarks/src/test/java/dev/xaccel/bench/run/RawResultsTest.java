package dev.xaccel.bench.run;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class RawResultsTest {

    @Test
    void rawLinesAndValues() {
        assertEquals("small-c8\tcached\t2\trps\t1234.500000\n",
                RawResults.line("small-c8", "cached", 2, "rps", RawResults.format(1234.5)));
        assertEquals("0.000000", RawResults.format(0));
    }
}
