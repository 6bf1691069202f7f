package dev.xaccel.filter.internal.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import org.apache.tomcat.util.http.FastHttpDateFormat;
import org.junit.jupiter.api.Test;

class ValidatorsTest {

    /** The text the container's {@code setDateHeader} wrote before: IMF-fixdate, two-digit day, GMT. */
    @Test
    void lastModifiedTextIsTheContainersDate() {
        for (long millis : new long[] {0L, 1_764_921_600_123L, 1_765_000_000_999L, 4_102_444_799_000L}) {
            Validators v = Validators.of(10, millis);
            assertEquals(FastHttpDateFormat.formatDate(v.lastModified()), v.lastModifiedText(), "at " + millis);
        }
        assertEquals("Sat, 05 Dec 2026 00:00:00 GMT", Validators.of(1, 1_796_428_800_500L).lastModifiedText());
    }

    /** Formatted once per identity; a new size or time, even within the same second, gets its own values. */
    @Test
    void keptPerFileIdentityOnly() {
        Validators first = Validators.of(51_200, 1_796_428_800_100L);
        assertSame(first, Validators.of(51_200, 1_796_428_800_100L));
        Validators grown = Validators.of(51_201, 1_796_428_800_100L);
        assertNotEquals(first.etag(), grown.etag());
        assertEquals(ETags.strong(51_201, 1_796_428_800_100L), grown.etag());
        Validators sameSecond = Validators.of(51_200, 1_796_428_800_900L);
        assertEquals(first.etag(), sameSecond.etag(), "nginx's ETag has whole seconds");
        assertEquals(first.lastModifiedText(), sameSecond.lastModifiedText());
        assertEquals(ETags.strong(51_200, 1_796_428_801_000L), Validators.of(51_200, 1_796_428_801_000L).etag());
    }
}
