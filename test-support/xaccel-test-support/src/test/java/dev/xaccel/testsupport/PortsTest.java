package dev.xaccel.testsupport;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.util.HashSet;
import java.util.List;
import org.junit.jupiter.api.Test;

class PortsTest {

    @Test
    void portsAreDistinctAndBindableOnLoopback() throws Exception {
        List<Integer> ports = Ports.freeLoopbackPorts(20);
        assertEquals(20, new HashSet<>(ports).size(), ports.toString());
        for (int port : ports) {
            try (ServerSocket s = new ServerSocket()) {
                s.setReuseAddress(false);
                s.bind(new InetSocketAddress(Ports.LOOPBACK, port));
            }
        }
    }

    @Test
    void aListeningSocketIsSeenWithoutAConnection() throws Exception {
        int port = Ports.freeLoopbackPort();
        assertFalse(Ports.listening(port));
        assertFalse(Ports.accepts(port));
        try (ServerSocket s = new ServerSocket()) {
            s.bind(new InetSocketAddress(Ports.LOOPBACK, port));
            assertTrue(Ports.listening(port));
            assertTrue(Ports.accepts(port));
        }
        assertFalse(Ports.listening(port));
    }
}
