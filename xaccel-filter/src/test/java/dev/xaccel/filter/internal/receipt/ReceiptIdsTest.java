package dev.xaccel.filter.internal.receipt;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.security.SecureRandom;
import java.util.HashSet;
import java.util.Set;

import org.junit.jupiter.api.Test;

class ReceiptIdsTest {

    @Test
    void idsAreUniqueHexAndOnlyTheIssuersOwnAreRecognized() {
        ReceiptIds ids = new ReceiptIds(new SecureRandom());
        ReceiptIds other = new ReceiptIds(new SecureRandom());
        Set<String> seen = new HashSet<>();
        for (int i = 0; i < 10_000; i++) {
            String id = ids.next();
            assertTrue(id.matches("[0-9a-f]{32}"), id);
            assertTrue(seen.add(id), "issued twice: " + id);
        }
        String id = ids.next();
        assertTrue(ids.issued(id));
        assertFalse(other.issued(id), "another filter's key gives another word back");
        char flipped = id.charAt(5) == '0' ? '1' : '0';
        assertFalse(ids.issued(id.substring(0, 5) + flipped + id.substring(6)), "one digit changed");
        assertFalse(ids.issued("0123456789abcdef0123456789abcdef"));
        assertFalse(ids.issued(id.toUpperCase(java.util.Locale.ROOT)));
        assertFalse(ids.issued(id.substring(1)));
        assertEquals(10_001, seen.size() + 1);
    }
}
