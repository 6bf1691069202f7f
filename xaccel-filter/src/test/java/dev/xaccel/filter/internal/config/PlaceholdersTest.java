package dev.xaccel.filter.internal.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;

import dev.xaccel.filter.ConfigException;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class PlaceholdersTest {

    private final Placeholders p = Placeholders.of(
            Map.of("MEDIA", "/srv/media", "EMPTY", ""),
            Map.of("rate", "1000"));

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "plain | plain",
        "${env:MEDIA} => /_x/ | /srv/media => /_x/",
        "${env:MISSING:-/tmp} | /tmp",
        "${env:MEDIA:-/tmp} | /srv/media",
        "${env:EMPTY:-d} | d",
        "x${env:EMPTY}y | xy",
        "${sys:rate} | 1000",
        "${sys:nope:-} | ''",
        "${env:MEDIA}/a;${env:MEDIA}/b | /srv/media/a;/srv/media/b",
        "$ and {} and $x | $ and {} and $x",
        "${env:MISSING:-a:-b} | a:-b",
    })
    void resolves(String in, String expected) throws ConfigException {
        assertEquals(expected, p.resolve("param", in));
    }

    @ParameterizedTest
    @ValueSource(strings = {"${env:MISSING}", "${sys:missing}", "${env:MEDIA", "${foo:MEDIA}", "${MEDIA}",
        "${env:}", "${env:X:-${env:Y}}"})
    void errorsNameParamAndValue(String in) {
        ConfigException e = assertThrows(ConfigException.class, () -> p.resolve("limitRate", in));
        assertEquals("limitRate", e.param());
        assertTrue(e.getMessage().contains("[limitRate]"), e.getMessage());
        assertTrue(e.getMessage().contains(in), e.getMessage());
    }

    @org.junit.jupiter.api.Test
    void expandedTextIsNotRescanned() throws ConfigException {
        Placeholders q = Placeholders.of(Map.of("A", "${env:B}", "B", "no"), Map.of());
        assertEquals("${env:B}", q.resolve("x", "${env:A}"));
    }
}
