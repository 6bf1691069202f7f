package dev.xaccel.filter;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;

import jakarta.servlet.ServletException;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import dev.xaccel.testsupport.LogCapture;
import dev.xaccel.testsupport.servlet.TestFilterConfig;

/** What the receipt init-params do to a filter's start and stop: the port is bound once, and let go. */
class ReceiptsStartupTest {

    @TempDir
    Path media;

    /** Not a listener: its class cannot be made one. */
    public static final class NotAListener {
    }

    @Test
    void aPortInUseOrABadListenerFailsTheStartNamingTheParamAndAStoppedFilterLetsThePortGo() throws Exception {
        int port;
        try (DatagramSocket s = new DatagramSocket(0, InetAddress.getLoopbackAddress())) {
            port = s.getLocalPort();
            Map<String, String> p = base();
            p.put(InitParams.RECEIPTS, "127.0.0.1:" + port);
            ServletException e = assertThrows(ServletException.class, () -> init(p));
            assertTrue(e.getMessage().contains("receipts") && e.getMessage().contains("127.0.0.1:" + port),
                    e.getMessage());
        }
        Map<String, String> p = base();
        p.put(InitParams.RECEIPTS, "127.0.0.1:" + port);
        p.put(InitParams.RECEIPT_LISTENER, NotAListener.class.getName());
        ServletException e = assertThrows(ServletException.class, () -> init(p));
        assertTrue(e.getMessage().contains("receiptListener"), e.getMessage());
        assertFree(port, "a failed start let the port go");

        p.remove(InitParams.RECEIPT_LISTENER);
        XAccelFilter f = init(p);
        assertEquals(0, f.getStatistics().getReceiptsComplete());
        f.destroy();
        assertFree(port, "destroy() let the port go");
    }

    private Map<String, String> base() {
        Map<String, String> m = new HashMap<>();
        m.put(InitParams.LOCATIONS, media + " => /_xaccel/media/");
        m.put(InitParams.JMX_NAME, "none");
        return m;
    }

    private static XAccelFilter init(Map<String, String> params) throws ServletException {
        XAccelFilter f = new XAccelFilter();
        try (LogCapture quiet = LogCapture.exclusive(XAccelFilter.class.getPackageName())) {
            f.init(new TestFilterConfig("xaccel", params, null));
        }
        return f;
    }

    private static void assertFree(int port, String why) throws IOException {
        try (DatagramSocket s = new DatagramSocket(port, InetAddress.getLoopbackAddress())) {
            assertEquals(port, s.getLocalPort(), why);
        }
    }
}
