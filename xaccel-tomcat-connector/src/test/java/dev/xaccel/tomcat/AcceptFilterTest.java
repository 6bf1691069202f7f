package dev.xaccel.tomcat;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class AcceptFilterTest {

    private static byte[] struct(String name, String arg) {
        byte[] b = new byte[256];
        byte[] n = name.getBytes(StandardCharsets.US_ASCII);
        byte[] a = arg.getBytes(StandardCharsets.US_ASCII);
        System.arraycopy(n, 0, b, 0, n.length);
        System.arraycopy(a, 0, b, 16, a.length);
        return b;
    }

    @ParameterizedTest
    @ValueSource(strings = { "httpready", "dataready", "tlsready", "dnsready" })
    void structIsNamePaddedTo16ThenArgPaddedTo240(String name) {
        byte[] bytes = new AcceptFilter(name).toStruct();
        assertEquals(256, bytes.length);
        assertArrayEquals(struct(name, ""), bytes);
        for (int i = name.length(); i < 256; i++) {
            assertEquals(0, bytes[i], "byte " + i);
        }
    }

    @Test
    void argumentStartsAtOffset16() {
        byte[] bytes = new AcceptFilter("httpready", "x=1").toStruct();
        assertArrayEquals(struct("httpready", "x=1"), bytes);
        assertEquals('x', bytes[16]);
    }

    @Test
    void constantsAreTheKernelNames() {
        assertArrayEquals(struct("httpready", ""), AcceptFilter.HTTPREADY.toStruct());
        assertArrayEquals(struct("dataready", ""), AcceptFilter.DATAREADY.toStruct());
        assertArrayEquals(struct("tlsready", ""), AcceptFilter.TLSREADY.toStruct());
    }

    @Test
    void nameUpTo15CharactersSixteenIsRefused() {
        String fifteen = "abcdefghijklmno";
        byte[] bytes = new AcceptFilter(fifteen).toStruct();
        assertEquals('o', bytes[14]);
        assertEquals(0, bytes[15]); // room for the NUL the kernel forces there
        IllegalArgumentException e =
                assertThrows(IllegalArgumentException.class, () -> new AcceptFilter(fifteen + "p"));
        assertTrue(e.getMessage().contains("longer than 15"), e.getMessage());
    }

    @Test
    void argUpTo239Characters() {
        String arg = "a".repeat(239);
        assertEquals(0, new AcceptFilter("x", arg).toStruct()[255]);
        assertThrows(IllegalArgumentException.class, () -> new AcceptFilter("x", arg + "a"));
    }

    @Test
    void emptyOrNonAsciiNamesAreRefused() {
        assertThrows(IllegalArgumentException.class, () -> new AcceptFilter(""));
        assertThrows(IllegalArgumentException.class, () -> new AcceptFilter("http ready"));
        assertThrows(IllegalArgumentException.class, () -> new AcceptFilter("httpréady"));
    }

    @Test
    void decodesWhatGetsockoptReturns() {
        assertEquals(AcceptFilter.HTTPREADY, AcceptFilter.fromStruct(struct("httpready", "")));
        assertEquals(new AcceptFilter("dataready", "a"), AcceptFilter.fromStruct(struct("dataready", "a")));
        assertNull(AcceptFilter.fromStruct(new byte[256]));
        // a kernel may return fewer bytes
        assertEquals(AcceptFilter.DATAREADY, AcceptFilter.fromStruct("dataready".getBytes(StandardCharsets.US_ASCII)));
    }

    @Test
    void kernelModules() {
        assertEquals("accf_http", AcceptFilter.HTTPREADY.kernelModule());
        assertEquals("accf_data", AcceptFilter.DATAREADY.kernelModule());
        assertEquals("accf_tls", AcceptFilter.TLSREADY.kernelModule());
        assertNull(new AcceptFilter("custom").kernelModule());
    }

    @Test
    void valueSemantics() {
        assertEquals(new AcceptFilter("httpready", ""), AcceptFilter.HTTPREADY);
        assertEquals(AcceptFilter.HTTPREADY.hashCode(), new AcceptFilter("httpready").hashCode());
        assertEquals("dataready:x", new AcceptFilter("dataready", "x").toString());
    }
}
