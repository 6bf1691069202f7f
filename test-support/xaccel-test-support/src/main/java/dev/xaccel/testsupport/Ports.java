package dev.xaccel.testsupport;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Free TCP ports on 127.0.0.1 for the servers the tests start. A port is taken at random below the kernel's
 * ephemeral range (so that no client connection's local port lands on it in the meantime), must be bindable right
 * now without {@code SO_REUSEADDR} (so it is free in every TCP state, TIME-WAIT included), and is never handed out
 * twice in one JVM. Another process may still bind it before the server does: servers that can tell (nginx says
 * "Address already in use") retry with another port.
 */
public final class Ports {

    /** 127.0.0.1: every server of the tests listens on it, never on a wildcard address. */
    public static final InetAddress LOOPBACK = loopback();

    private static final int LOWEST = 10_000;
    private static final int EPHEMERAL_LOW = ephemeralLow();
    private static final Set<Integer> GIVEN = new HashSet<>();

    private Ports() {
    }

    /** A free port on 127.0.0.1 not handed out before by this JVM. */
    public static int freeLoopbackPort() {
        synchronized (GIVEN) {
            ThreadLocalRandom random = ThreadLocalRandom.current();
            for (int attempt = 0; attempt < 10_000; attempt++) {
                int port = random.nextInt(LOWEST, EPHEMERAL_LOW);
                if (!GIVEN.contains(port) && bindable(port)) {
                    GIVEN.add(port);
                    return port;
                }
            }
        }
        throw new IllegalStateException("no free port between " + LOWEST + " and " + EPHEMERAL_LOW + " on "
                + LOOPBACK.getHostAddress());
    }

    /** {@code n} distinct free ports, for a server that listens on several. */
    public static List<Integer> freeLoopbackPorts(int n) {
        List<Integer> ports = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            ports.add(freeLoopbackPort());
        }
        return ports;
    }

    /** Whether something accepts connections on 127.0.0.1:{@code port} (a connect, closed at once). */
    public static boolean accepts(int port) {
        try (Socket s = new Socket()) {
            s.connect(new InetSocketAddress(LOOPBACK, port), 200);
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    /**
     * Whether a socket listens on {@code port}, found without connecting to it (the server under test may count
     * its connections, or hold them in the kernel behind an accept filter; and a bind probe could take the port
     * from a server about to bind it): the kernel's table of TCP sockets on Linux, a connect where there is none.
     * Reading the table takes a while on a machine with many sockets: ask every few hundred milliseconds.
     */
    public static boolean listening(int port) {
        String hex = String.format(":%04X ", port);
        boolean sawTable = false;
        // lines "sl local_address rem_address st ...": HEXIP:HEXPORT, a listener's remote end all zeros, st 0A
        for (String[] table : new String[][] {{"/proc/net/tcp", "00000000:0000 0A "},
            {"/proc/net/tcp6", "00000000000000000000000000000000:0000 0A "}}) {
            try {
                if (Files.readString(Path.of(table[0]), StandardCharsets.US_ASCII).contains(hex + table[1])) {
                    return true;
                }
                sawTable = true;
            } catch (IOException e) {
                // no such table here
            }
        }
        return !sawTable && accepts(port);
    }

    private static boolean bindable(int port) {
        try (ServerSocket s = new ServerSocket()) {
            s.setReuseAddress(false);
            s.bind(new InetSocketAddress(LOOPBACK, port));
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    private static InetAddress loopback() {
        try {
            return InetAddress.getByAddress("localhost", new byte[] {127, 0, 0, 1});
        } catch (java.net.UnknownHostException e) {
            throw new IllegalStateException(e);
        }
    }

    /** The first port of the ephemeral range (Linux: /proc; elsewhere the IANA range's 49152 is above 32768). */
    private static int ephemeralLow() {
        try {
            String range = Files.readString(Path.of("/proc/sys/net/ipv4/ip_local_port_range")).trim();
            int low = Integer.parseInt(range.split("\\s+")[0]);
            return low > LOWEST + 1000 ? low : 32768;
        } catch (IOException | RuntimeException e) {
            return 32768;
        }
    }
}
