package dev.xaccel.filter.internal.http;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.xaccel.filter.ConfigException;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class TrustedProxiesTest {

    private static TrustedProxies parse(String v) throws ConfigException {
        return TrustedProxies.parse("trustedProxies", v);
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "127.0.0.0/8, ::1 | 127.0.0.1 | true",
        "127.0.0.0/8, ::1 | 127.255.1.2 | true",
        "127.0.0.0/8, ::1 | 128.0.0.1 | false",
        "127.0.0.0/8, ::1 | ::1 | true",
        "127.0.0.0/8, ::1 | 0:0:0:0:0:0:0:1 | true",
        "127.0.0.0/8, ::1 | [::1] | true",
        "127.0.0.0/8, ::1 | ::2 | false",
        "127.0.0.0/8, ::1 | ::ffff:127.0.0.1 | true",
        "127.0.0.0/8, ::1 | ::ffff:10.0.0.1 | false",
        "10.0.0.0/8 192.168.1.0/24 | 192.168.1.77 | true",
        "10.0.0.0/8 192.168.1.0/24 | 192.168.2.77 | false",
        "10.1.2.3/8 | 10.200.0.1 | true",
        "172.16.0.0/12 | 172.31.255.255 | true",
        "172.16.0.0/12 | 172.32.0.0 | false",
        "192.168.1.5 | 192.168.1.5 | true",
        "192.168.1.5 | 192.168.1.6 | false",
        "0.0.0.0/0 | 8.8.8.8 | true",
        "0.0.0.0/0 | 2001:db8::1 | false",
        "2001:db8::/32 | 2001:db8:ffff::1 | true",
        "2001:db8::/32 | 2001:db9::1 | false",
        "2001:db8::/33 | 2001:db8:8000::1 | false",
        "fe80::/10 | fe80::1%eth0 | true",
        "fd00::/8, ::1 | FD12:3456::1 | true",
        "::ffff:10.0.0.0/104 | 10.9.9.9 | true",
        "127.0.0.0/8 | localhost | false",
        "127.0.0.0/8 | 127.1 | false",
        "127.0.0.0/8 | 127.0.0.01 | false",
        "127.0.0.0/8 | '' | false",
    })
    void matches(String config, String remote, boolean expected) throws ConfigException {
        assertEquals(expected, parse(config).matches(remote));
    }

    @Test
    void emptyTrustsNobody() throws ConfigException {
        TrustedProxies p = parse("  ");
        assertTrue(p.isEmpty());
        assertFalse(p.matches("127.0.0.1"));
        assertFalse(p.matches(null));
    }

    @ParameterizedTest
    @ValueSource(strings = {"localhost", "10.0.0.0/33", "::1/129", "10.0.0/8", "256.1.1.1", "1.2.3.4/",
        "1.2.3.4/-1", "1::2::3", "12345::1", "::g", "1:2:3:4:5:6:7:8:9", "example.com/8", "1.2.3.4/8/8",
        "fe80::1%eth0", "10.0.0.1/0x8"})
    void invalidEntriesNameParamAndValue(String bad) {
        ConfigException e = assertThrows(ConfigException.class, () -> parse("127.0.0.1, " + bad));
        assertEquals("trustedProxies", e.param());
        assertTrue(e.getMessage().contains("trustedProxies"), e.getMessage());
        assertTrue(e.getMessage().contains("[" + bad + "]"), e.getMessage());
    }

    @Test
    void parsesLiteralsWithoutLookups() {
        assertArrayEquals(new byte[] {127, 0, 0, 1}, TrustedProxies.parseIp("127.0.0.1"));
        byte[] v6 = TrustedProxies.parseIp("2001:db8::1.2.3.4");
        assertEquals(16, v6.length);
        assertEquals(4, v6[15]);
        assertEquals((byte) 0x20, v6[0]);
        assertNull(TrustedProxies.parseIp("a.b.c.d"));
        assertNull(TrustedProxies.parseIp("1.2.3.4::"));
    }

    /** The remembered last trusted address never trusts another one, before or after it is remembered. */
    @Test
    void rememberedAddressTrustsOnlyItself() throws ConfigException {
        TrustedProxies p = parse("10.0.0.1");
        assertFalse(p.matches("10.0.0.2"));
        assertTrue(p.matches("10.0.0.1"));
        assertTrue(p.matches("10.0.0.1"));
        assertFalse(p.matches("10.0.0.2"));
        assertFalse(p.matches("10.0.0.10"));
        assertFalse(p.matches("110.0.0.1"));
        assertTrue(p.matches("10.0.0.1"));
    }

    @Test
    void toStringListsEntries() throws ConfigException {
        assertEquals("[127.0.0.0/8, ::1]", parse("127.0.0.0/8,  ::1").toString());
    }
}
