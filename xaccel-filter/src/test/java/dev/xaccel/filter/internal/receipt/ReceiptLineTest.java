package dev.xaccel.filter.internal.receipt;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;

import org.junit.jupiter.api.Test;

class ReceiptLineTest {

    static final String ID = "00112233445566778899aabbccddeeff";

    @Test
    void readsNginxsSyslogLine() {
        ReceiptLine l = ReceiptLine.parse(
                "<190>Dec  5 06:40:00 xaccel: xr1 " + ID + " 206 1234 c=OK 1.250 r=bytes=0-9");
        assertEquals(ID, l.id());
        assertEquals(206, l.status());
        assertEquals(1234, l.bytes());
        assertTrue(l.complete());
        assertEquals(Duration.ofMillis(1250), l.duration());
        assertEquals("bytes=0-9", l.ranges());
    }

    @Test
    void anIncompleteRequestAndNoRange() {
        ReceiptLine l = ReceiptLine.parse("xr1 " + ID + " 200 1048576 c= 0.003 r=-");
        assertFalse(l.complete());
        assertNull(l.ranges());
    }

    @Test
    void whateverTheClientPutInTheRangeCannotShiftTheOtherFields() {
        ReceiptLine l = ReceiptLine.parse("xr1 " + ID + " 200 5 c=OK 0.001 r=x c=OK 99 r=y");
        assertEquals(5, l.bytes());
        assertEquals("x c=OK 99 r=y", l.ranges());
    }

    @Test
    void anythingElseIsNoLine() {
        assertNull(ReceiptLine.parse("hello"));
        assertNull(ReceiptLine.parse("xr1 - 200 5 c=OK 0.001 r=-"), "no identifier: not an offload of this filter");
        assertNull(ReceiptLine.parse("xr1 " + ID + " 2000 5 c=OK 0.001 r=-"));
        assertNull(ReceiptLine.parse("xr1 " + ID.toUpperCase(java.util.Locale.ROOT) + " 200 5 c=OK 0.001 r=-"));
        assertNull(ReceiptLine.parse("xr1 " + ID + " 200 5 c=YES 0.001 r=-"));
        assertNull(ReceiptLine.parse("xr1 " + ID + " 200 99999999999999999999 c=OK 0.001 r=-"));
        assertNull(ReceiptLine.parse("xr1 " + ID + " 200 5 c=OK 0.0001 r=-"), "nginx's time has three decimals");
        assertNull(ReceiptLine.parse("xr1 " + ID + " 200 5 c=OK 1234567890.001 r=-"));
        assertNull(ReceiptLine.parse("xr1 " + ID + " 200 5 c=OK 0.001"), "no range field");
        assertNull(ReceiptLine.parse("xr1 " + ID + "0 200 5 c=OK 0.001 r=-"), "33 hex digits");
        assertNull(ReceiptLine.parse("xr1 " + ID + " 200  5 c=OK 0.001 r=-"));
        assertNull(ReceiptLine.parse("xr1 " + ID + " 200 -5 c=OK 0.001 r=-"));
    }

    @Test
    void theLongestFieldsNginxWritesAreRead() {
        ReceiptLine l = ReceiptLine.parse("xr1 " + ID + " 206 999999999999999999 c= 999999999.999 r=bytes=0-1 ");
        assertEquals(999_999_999_999_999_999L, l.bytes());
        assertEquals(java.time.Duration.ofMillis(999_999_999_999L), l.duration());
        assertFalse(l.complete());
        assertEquals("bytes=0-1", l.ranges(), "trailing blanks of the datagram are not the client's");
    }

    @Test
    void readsApachesLineThroughLogger() {
        // as util-linux's logger --rfc3164 sends it, from docs/apache/xaccel-receipts.conf
        ReceiptLine l = ReceiptLine.parse("<13>Dec  5 13:05:14 vm xaccel: xr1 " + ID
                + " 206 100 c=+ 2102us o=348 m=GET r=bytes=100-199");
        assertEquals(ID, l.id());
        assertEquals(206, l.status());
        assertEquals(100, l.bytes(), "complete: Apache's %B");
        assertTrue(l.complete());
        assertEquals(Duration.ofNanos(2_102_000), l.duration());
        assertEquals("bytes=100-199", l.ranges());
        assertTrue(ReceiptLine.parse("xr1 " + ID + " 200 5 c=- 1us o=205 m=GET r=-").complete(), "closed after it");
    }

    @Test
    void apachesAbortedLineCountsWhatWasWrittenNotWhatWasMeant() {
        // measured: a client that left after 1 MiB of 64 MiB; %B is the whole file, %O what reached the socket
        ReceiptLine l = ReceiptLine.parse("xr1 " + ID + " 200 67108864 c=X 4920us o=1179852 m=GET r=-");
        assertFalse(l.complete());
        assertEquals(1_179_852, l.bytes());
        assertNull(l.ranges());
    }

    @Test
    void apachesHeadSentNoBody() {
        // measured: Apache logs a HEAD's %B as the file's size
        ReceiptLine l = ReceiptLine.parse("xr1 " + ID + " 200 20000 c=+ 626us o=201 m=HEAD r=-");
        assertEquals(0, l.bytes());
        assertTrue(l.complete());
    }

    @Test
    void anApacheLineWithAFieldOutOfShapeIsNoLine() {
        assertNull(ReceiptLine.parse("xr1 " + ID + " 200 5 c=OK 1us o=5 m=GET r=-"), "nginx's flag, Apache's time");
        assertNull(ReceiptLine.parse("xr1 " + ID + " 200 5 c=+ 0.001 r=-"), "Apache's flag, nginx's time");
        assertNull(ReceiptLine.parse("xr1 " + ID + " 200 5 c=+ 1us o=- m=GET r=-"));
        assertNull(ReceiptLine.parse("xr1 " + ID + " 200 5 c=+ 1us o=5 m=get r=-"));
        assertNull(ReceiptLine.parse("xr1 - 200 5 c=+ 1us o=5 m=GET r=-"), "no note: not an offload of this filter");
        ReceiptLine shifted = ReceiptLine.parse("xr1 " + ID + " 200 5 c=+ 1us o=9 m=GET r=x c=X 2us o=1 m=HEAD r=y");
        assertEquals(5, shifted.bytes());
        assertTrue(shifted.complete());
        assertEquals("x c=X 2us o=1 m=HEAD r=y", shifted.ranges());
    }
}
