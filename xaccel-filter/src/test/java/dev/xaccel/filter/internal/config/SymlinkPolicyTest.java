package dev.xaccel.filter.internal.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.xaccel.filter.SymlinkPolicy;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.NullSource;
import org.junit.jupiter.params.provider.ValueSource;

class SymlinkPolicyTest {

    @ParameterizedTest
    @CsvSource({"within-root,WITHIN_ROOT", "WITHIN-ROOT,WITHIN_ROOT", "' Within-Root ',WITHIN_ROOT",
            "never,NEVER", "NEVER,NEVER"})
    void parsesKnownValues(String value, SymlinkPolicy expected) {
        assertEquals(expected, InitParam.symlinks(value));
    }

    @ParameterizedTest
    @NullSource
    @ValueSource(strings = {"", "within_root", "WITHIN_ROOT", "always", "follow", "nev er"})
    void rejectsOtherValues(String value) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> InitParam.symlinks(value));
        assertTrue(e.getMessage().contains("[" + value + "]"), e.getMessage());
    }
}
