package dev.xaccel.filter.internal.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/** What a remote store is sent of the client's range and conditional headers: valid ones only. */
class ForwardedConditionalsTest {

    static String forwarded(String name, String... headers) {
        return ForwardedConditionals.value(AnswerTest.request("GET", headers), name).orElse(null);
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "If-Modified-Since   | garbage",
        "If-Modified-Since   | Sun, 31 Foo 2024 25:61:61 GMT",
        "If-Unmodified-Since | 1700000000",
        "If-None-Match       | garbage",
        "If-None-Match       | \"unterminated",
        "If-Match            | W/ nope",
        "If-Match            | \"a\" \"b\"",
        "If-Match            | ''",
        "If-Range            | garbage",
        "If-Range            | \"a\", \"b\"",
    })
    void anInvalidOneIsDropped(String name, String value) {
        assertNull(forwarded(name, name, value), name + ": " + value);
    }

    @Test
    void validOnesPassDatesInImfFixdate() {
        assertEquals("Tue, 14 Nov 2023 22:13:20 GMT",
                forwarded("If-Modified-Since", "If-Modified-Since", "Tue, 14 Nov 2023 22:13:20 GMT"));
        assertEquals("Wed, 01 Nov 2023 22:13:20 GMT",
                forwarded("If-Unmodified-Since", "If-Unmodified-Since", "Wed, 1 Nov 2023 22:13:20 +0000"),
                "a date the container reads goes as IMF-fixdate");
        assertEquals("*", forwarded("If-Match", "If-Match", "*"));
        assertEquals("\"a\", W/\"b\",, \"\"", forwarded("If-None-Match", "If-None-Match", "\"a\", W/\"b\",, \"\""));
        assertEquals("\"a\"", forwarded("If-Range", "If-Range", "\"a\""));
        assertEquals("Tue, 14 Nov 2023 22:13:20 GMT",
                forwarded("If-Range", "If-Range", "Tue, 14 Nov 2023 22:13:20 GMT"));
        assertNull(forwarded("If-Match"), "absent");
    }

    @Test
    void aRangeGoesUnlessItsIfRangeIsInvalid() {
        assertEquals("bytes=0-9", forwarded("Range", "Range", "bytes=0-9"));
        assertEquals("bytes=0-9", forwarded("Range", "Range", "bytes=0-9", "If-Range", "\"a\""));
        assertNull(forwarded("Range", "Range", "bytes=0-9", "If-Range", "garbage"),
                "an If-Range that matches nothing asks for the whole object");
    }

    @ParameterizedTest
    @ValueSource(strings = {"\"\"", "\"abc\"", "W/\"abc\"", "\"\u00e9\"", "\"!#~\""})
    void entityTags(String tag) {
        assertTrue(ETags.isValid(tag), tag);
        assertTrue(ETags.isValidList(tag + ", " + tag), tag);
    }

    @ParameterizedTest
    @ValueSource(strings = {"abc", "\"a\"b\"", "\"a b\"", "w/\"a\"", "\"\u0100\"", "W/", "\""})
    void notEntityTags(String tag) {
        assertFalse(ETags.isValid(tag), tag);
    }
}
