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
    }
}
