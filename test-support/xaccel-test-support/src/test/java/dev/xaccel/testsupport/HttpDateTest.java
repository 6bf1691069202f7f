package dev.xaccel.testsupport;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.LocalDate;
import java.time.ZoneOffset;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class HttpDateTest {

    /** Pinned on a fixed clock: the single-digit days are where RFC_1123_DATE_TIME differs from servers. */
    @ParameterizedTest
    @ValueSource(ints = {1, 2, 9, 10, 28, 31})
    void everyDayOfTheMonthHasTwoDigits(int day) {
        long millis = LocalDate.of(2026, 12, day).atTime(6, 36, 24).toInstant(ZoneOffset.UTC).toEpochMilli();
        String expected = String.format("%s, %02d Dec 2026 06:36:24 GMT",
                LocalDate.of(2026, 12, day).getDayOfWeek().getDisplayName(java.time.format.TextStyle.SHORT,
                        java.util.Locale.US), day);
        assertEquals(expected, HttpDate.format(millis));
        assertEquals(millis, HttpDate.parse(expected));
    }

    @Test
    void matchesTheServersFormatting() {
        // what Tomcat (FastHttpDateFormat) and nginx send for 2026-12-01
        long millis = LocalDate.of(2026, 12, 1).atStartOfDay().toInstant(ZoneOffset.UTC).toEpochMilli();
        assertEquals("Tue, 01 Dec 2026 00:00:00 GMT", HttpDate.format(millis));
        assertEquals(org.apache.tomcat.util.http.FastHttpDateFormat.formatDate(millis), HttpDate.format(millis));
    }
}
