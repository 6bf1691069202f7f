package dev.xaccel.sample.auth;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import org.junit.jupiter.api.Test;

class TokenStoreTest {

    private static final class MutableClock extends Clock {
        Instant now = Instant.parse("2026-01-01T00:00:00Z");

        @Override
        public ZoneOffset getZone() {
            return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(java.time.ZoneId zone) {
            return this;
        }

        @Override
        public Instant instant() {
            return now;
        }
    }

    private final Users.User demo = new Users.User("demo", false);

    @Test
    void issueLookupRevokeExpire() {
        MutableClock clock = new MutableClock();
        TokenStore store = new TokenStore(Duration.ofMinutes(10), clock);
        String t1 = store.issue(demo);
        String t2 = store.issue(demo);
        assertNotEquals(t1, t2);
        assertTrue(t1.length() >= 43, t1);
        assertEquals(demo, store.lookup(t1).orElseThrow());
        store.revoke(t1);
        assertTrue(store.lookup(t1).isEmpty());
        clock.now = clock.now.plus(Duration.ofMinutes(11));
        assertTrue(store.lookup(t2).isEmpty());
        assertTrue(store.lookup(null).isEmpty());
        assertTrue(store.lookup("forged").isEmpty());
    }

    @Test
    void rejectsNonPositiveLifetime() {
        assertThrows(IllegalArgumentException.class, () -> new TokenStore(Duration.ZERO));
    }
}
