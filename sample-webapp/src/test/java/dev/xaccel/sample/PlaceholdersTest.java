package dev.xaccel.sample;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.Map;
import org.junit.jupiter.api.Test;

class PlaceholdersTest {

    private final Placeholders p = Placeholders.of(Map.of("LIB", "/srv/books", "EMPTY", ""),
            Map.of("java.io.tmpdir", "/tmp"));

    @Test
    void resolvesEnvAndSys() {
        assertEquals("/srv/books/x", p.resolve("${env:LIB}/x"));
        assertEquals("/tmp", p.resolve("${sys:java.io.tmpdir}"));
    }

    @Test
    void defaultWhenUnsetOrEmptyAndNestedDefault() {
        assertEquals("d", p.resolve("${env:NOPE:-d}"));
        assertEquals("d", p.resolve("${env:EMPTY:-d}"));
        assertEquals("/tmp/demo", p.resolve("${env:NOPE:-${sys:java.io.tmpdir}/demo}"));
        assertEquals("/srv/books", p.resolve("${env:LIB:-${sys:java.io.tmpdir}/demo}"));
    }

    @Test
    void unsetWithoutDefaultIsEmpty() {
        assertEquals("a--b", p.resolve("a-${env:NOPE}-b"));
    }

    @Test
    void plainTextUntouched() {
        assertEquals("no placeholders: $ { }", p.resolve("no placeholders: $ { }"));
    }

    @Test
    void errorsNameTheValue() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> p.resolve("${env:X"));
        assertEquals(true, e.getMessage().contains("${env:X"));
        e = assertThrows(IllegalArgumentException.class, () -> p.resolve("${foo:X}"));
        assertEquals(true, e.getMessage().contains("foo:X"));
    }
}
