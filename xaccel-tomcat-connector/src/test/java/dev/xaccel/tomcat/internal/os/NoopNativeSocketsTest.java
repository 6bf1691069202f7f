package dev.xaccel.tomcat.internal.os;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** The fallback used when JNA cannot be loaded: nothing happens, and it says why. */
class NoopNativeSocketsTest {

    @Test
    void doesNothingAndTellsWhy() throws Exception {
        NativeSockets noop = new NoopNativeSockets("NoClassDefFoundError: com/sun/jna/Library");
        assertFalse(noop.isAvailable());
        assertEquals("NoClassDefFoundError: com/sun/jna/Library", noop.unavailabilityCause());
        noop.setsockopt(5, OsFamily.FREEBSD.acceptFilter(), new byte[256]);
        noop.setsockoptInt(5, OsFamily.LINUX.deferAccept(), 1);
        assertArrayEquals(new byte[0], noop.getsockopt(5, OsFamily.FREEBSD.acceptFilter(), 256));
        assertEquals(0, noop.getsockoptInt(5, OsFamily.LINUX.acceptConn()));
        assertArrayEquals(new byte[0], noop.getsockname(5));
        assertEquals(0, noop.descriptorTableSize());
        assertNull(Sockaddr.decode(OsFamily.LINUX, noop.getsockname(5)));
    }

    @Test
    void theRealLayerIsAvailable() throws Exception {
        NativeSockets real = NativeSocketsLoader.loadOrNoop();
        assertTrue(real.isAvailable(), real.unavailabilityCause());
        assertNull(real.unavailabilityCause());
    }
}
