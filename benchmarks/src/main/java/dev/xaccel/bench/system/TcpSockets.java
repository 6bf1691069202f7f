package dev.xaccel.bench.system;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * Counts TCP sockets of this machine by state and port from {@code /proc/net/tcp} and {@code tcp6} (what
 * {@code ss -tan state ...} shows, including TIME-WAIT sockets and the connections a listener holds in SYN-RECV).
 */
public final class TcpSockets {

    public static final String SYN_RECV = "03";
    public static final String TIME_WAIT = "06";

    private static final List<Path> TABLES = List.of(Path.of("/proc/net/tcp"), Path.of("/proc/net/tcp6"));

    private TcpSockets() {
    }

    /** Sockets in {@code state} whose remote port is {@code port} (client sockets towards a server port). */
    public static int toRemotePort(String state, int port) {
        return count(state, port, false);
    }

    /** Sockets in {@code state} whose local port is {@code port}. */
    public static int atLocalPort(String state, int port) {
        return count(state, port, true);
    }

    private static int count(String state, int port, boolean local) {
        int n = 0;
        for (Path t : TABLES) {
            try {
                n += count(Files.readString(t), state, port, local);
            } catch (IOException e) {
                // no IPv6 table, or not Linux: nothing to count
            }
        }
        return n;
    }

    /** Counts in the text of one table ({@code sl local_address rem_address st ...}, addresses as HEXIP:HEXPORT). */
    static int count(String table, String state, int port, boolean local) {
        int n = 0;
        for (String line : table.lines().skip(1).toList()) {
            String[] f = line.trim().split("\\s+");
            if (f.length < 4 || !f[3].equals(state)) {
                continue;
            }
            String address = local ? f[1] : f[2];
            if (Integer.parseInt(address.substring(address.indexOf(':') + 1), 16) == port) {
                n++;
            }
        }
        return n;
    }
}
