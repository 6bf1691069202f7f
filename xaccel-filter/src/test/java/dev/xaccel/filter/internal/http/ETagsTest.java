package dev.xaccel.filter.internal.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class ETagsTest {

    static final String TAG = "\"5f5e1000-400\"";

    @Test
    void nginxFormat() {
        // nginx: "%xT-%xO" of mtime seconds and size
        assertEquals(TAG, ETags.strong(1024, 0x5f5e1000L * 1000 + 999));
        assertEquals("\"0-0\"", ETags.strong(0, 0));
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', quoteCharacter = '`', value = {
            // header | If-None-Match (weak) | If-Match (strong)
            "*|true|true",
            "\"5f5e1000-400\"|true|true",
            "W/\"5f5e1000-400\"|true|false",
            "\"x\", \"5f5e1000-400\"|true|true",
            "\"x\",W/\"5f5e1000-400\"|true|false",
            "\"x\" , \"y\"|false|false",
            "\"5f5e1000-401\"|false|false",
            "5f5e1000-400|false|false",
            "bogus, \"5f5e1000-400\"|true|true",
            "\"a,b\", \"5f5e1000-400\"|true|true",
            "\"5f5e1000-400|false|false",
            "``|false|false",
            "w/\"5f5e1000-400\"|false|false",
    })
    void listMatching(String header, boolean weak, boolean strong) {
        assertEquals(weak, ETags.matchesWeak(header, TAG), "weak");
        assertEquals(strong, ETags.matchesStrong(header, TAG), "strong");
    }

    @Test
    void ifRange() {
        assertTrue(ETags.ifRangeMatches(TAG, TAG));
        assertTrue(ETags.ifRangeMatches(" " + TAG + " ", TAG));
        assertFalse(ETags.ifRangeMatches("W/" + TAG, TAG));
        assertFalse(ETags.ifRangeMatches("\"other\"", TAG));
        assertFalse(ETags.matchesWeak(null, TAG));
    }
}
