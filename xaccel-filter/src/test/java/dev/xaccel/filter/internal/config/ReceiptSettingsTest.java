package dev.xaccel.filter.internal.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import dev.xaccel.filter.ConfigException;

class ReceiptSettingsTest {

    @Test
    void offDirectAndALoopbackAddress() {
        assertFalse(ReceiptSettings.parseMode(ReceiptSettings.OFF, "OFF").enabled());
        ReceiptSettings direct = ReceiptSettings.parseMode(ReceiptSettings.OFF, "direct");
        assertTrue(direct.enabled());
        assertNull(direct.address());
        assertEquals("direct", direct.shown());
        assertEquals("127.0.0.1:5140", ReceiptSettings.parseMode(ReceiptSettings.OFF, " 127.0.0.1:5140 ").shown());
        assertEquals("127.0.0.2:1", ReceiptSettings.parseMode(ReceiptSettings.OFF, "127.0.0.2:1").shown());
        assertEquals("[0:0:0:0:0:0:0:1]:5140", ReceiptSettings.parseMode(ReceiptSettings.OFF, "[::1]:5140").shown());
    }

    @ParameterizedTest
    @ValueSource(strings = {"10.0.0.1:5140", "0.0.0.0:5140", "192.168.1.1:5140", "localhost:5140", "127.0.0.1",
        "127.0.0.1:0", "127.0.0.1:70000", "on", "", "[2001:db8::1]:5140", "receipts.log", "./receipts.log"})
    void anythingElseFailsStartupNamingTheParamAndValue(String value) {
        ConfigException e = assertThrows(ConfigException.class,
                () -> ReceiptSettings.parseMode(ReceiptSettings.OFF, value));
        assertTrue(e.getMessage().contains("receipts") && e.getMessage().contains(value), e.getMessage());
    }

    @Test
    void aLogFileInADirectoryThatExists(@TempDir java.nio.file.Path dir) throws Exception {
        String file = dir.resolve("xaccel-receipts.log").toString();
        ReceiptSettings s = ReceiptSettings.parseMode(ReceiptSettings.OFF, " " + file + " ");
        assertTrue(s.enabled());
        assertNull(s.address());
        assertEquals(file, s.file().toString());
        assertEquals(file, s.shown());
        java.nio.file.Files.writeString(dir.resolve("xaccel-receipts.log"), "");
        assertEquals(file, ReceiptSettings.parseMode(ReceiptSettings.OFF, file).shown(), "nginx made it already");
    }

    @Test
    void aLogFileWhoseDirectoryIsMissingOrThatIsNotAFileFailsStartup(@TempDir java.nio.file.Path dir)
            throws Exception {
        for (String value : new String[] {dir.resolve("missing/receipts.log").toString(), dir.toString(), "/"}) {
            ConfigException e = assertThrows(ConfigException.class,
                    () -> ReceiptSettings.parseMode(ReceiptSettings.OFF, value));
            assertTrue(e.getMessage().contains("receipts") && e.getMessage().contains(value), e.getMessage());
        }
    }

    @Test
    void receiptLinesComeFromNginxAndFromApache() {
        // Apache logs the same xr1 line (docs/apache/xaccel-receipts.conf), so X-Sendfile takes an address too
        XAccelConfig.Builder b = new XAccelConfig.Builder()
                .location(java.nio.file.Path.of("/").toAbsolutePath(), "/_x/", null)
                .headerType(dev.xaccel.filter.HeaderType.X_SENDFILE).receipts("127.0.0.1:5140");
        assertEquals("127.0.0.1:5140", b.build().receipts().shown());
        assertTrue(b.receipts("direct").build().receipts().enabled(), "direct works with every front end");
        assertThrows(ConfigException.class, () -> b.receipts("10.0.0.1:5140"), "still loopback only");
    }

    @Test
    void timeoutQueueAndListenerAreChecked() {
        assertThrows(ConfigException.class, () -> ReceiptSettings.OFF.withTimeout(0));
        assertThrows(ConfigException.class, () -> ReceiptSettings.OFF.withQueue(0));
        assertThrows(ConfigException.class, () -> ReceiptSettings.OFF.withListenerClass("not a class"));
        assertEquals(5, ReceiptSettings.OFF.withTimeout(5).timeoutSeconds());
        assertEquals(7, ReceiptSettings.OFF.withQueue(7).queue());
    }
}
