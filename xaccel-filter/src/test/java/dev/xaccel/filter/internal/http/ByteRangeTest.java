package dev.xaccel.filter.internal.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.NullSource;
import org.junit.jupiter.params.provider.ValueSource;

class ByteRangeTest {

    /** Ranges of a 1000-byte representation, written as "start-end" lists after coalescing. */
    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "bytes=0-0|0-0",
            "bytes=0-499|0-499",
            "bytes=500-|500-999",
            "bytes=-200|800-999",
            "bytes=-2000|0-999",
            "bytes=990-5000|990-999",
            "bytes=0-99999999999999999999999|0-999",
            "BYTES = 1-2|1-2",
            "bytes=0-1, 3-4|0-1,3-4",
            "bytes=3-4,0-1|0-1,3-4",
            "bytes=0-10,5-20|0-20",
            "bytes=0-10,11-20|0-20",
            "bytes=0-10,12-20|0-10,12-20",
            "bytes=0-,-1|0-999",
            "bytes=,0-1,,|0-1",
            "bytes=0-1,2000-3000|0-1",
            "bytes=-0,5-6|5-6",
    })
    void satisfiable(String header, String expected) {
        List<ByteRange> ranges = ByteRange.parse(header, 1000);
        StringBuilder sb = new StringBuilder();
        for (ByteRange r : ranges) {
            sb.append(sb.length() == 0 ? "" : ",").append(r);
        }
        assertEquals(expected, sb.toString());
    }

    @ParameterizedTest
    @ValueSource(strings = {"bytes=1000-", "bytes=1000-2000", "bytes=-0", "bytes=5000-,-0",
            "bytes=99999999999999999999999-"})
    void unsatisfiable(String header) {
        assertEquals(List.of(), ByteRange.parse(header, 1000));
    }

    @ParameterizedTest
    @NullSource
    @ValueSource(strings = {"", "bytes", "bytes=", "bytes=,", "items=0-1", "bytes=a-b", "bytes=1", "bytes=5-1",
            "bytes=-", "bytes=0-1;x", "bytes=--1", "bytes=+1-2", "bytes=0x1-2", "bytes= 1 - 2", "bytes=-1-2"})
    void ignored(String header) {
        assertNull(ByteRange.parse(header, 1000));
    }

    @Test
    void emptyRepresentationIgnoresRanges() {
        assertNull(ByteRange.parse("bytes=0-", 0));
        assertNull(ByteRange.parse("bytes=-5", 0));
    }

    @Test
    void tooManyRangesAreIgnored() {
        StringBuilder ok = new StringBuilder("bytes=");
        for (int i = 0; i < ByteRange.MAX_RANGES; i++) {
            ok.append(i * 10).append('-').append(i * 10 + 1).append(',');
        }
        assertEquals(ByteRange.MAX_RANGES, ByteRange.parse(ok.toString(), 100_000).size());
        assertNull(ByteRange.parse(ok + "5000-5001", 100_000));
    }

    @Test
    void overlappingAbuseCoalescesToOnePart() {
        StringBuilder sb = new StringBuilder("bytes=");
        for (int i = 0; i < 90; i++) {
            sb.append("0-,");
        }
        List<ByteRange> ranges = ByteRange.parse(sb.toString(), 1 << 20);
        assertEquals(List.of(new ByteRange(0, (1 << 20) - 1)), ranges);
        long total = ranges.stream().mapToLong(ByteRange::length).sum();
        assertTrue(total <= 1 << 20);
    }

    @Test
    void accessors() {
        ByteRange r = new ByteRange(10, 19);
        assertEquals(10, r.start());
        assertEquals(19, r.end());
        assertEquals(10, r.length());
        assertEquals("bytes 10-19/100", r.contentRange(100));
        assertThrows(IllegalArgumentException.class, () -> new ByteRange(5, 4));
        assertThrows(IllegalArgumentException.class, () -> new ByteRange(-1, 4));
    }
}
