package dev.xaccel.bench;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.Random;
import java.util.Set;

/**
 * Free TCP ports on 127.0.0.1 for nginx's servers: below the ephemeral range (so that no client's local port
 * collides with them), and bindable without {@code SO_REUSEADDR} right now (so free in every TCP state, TIME-WAIT
 * included). Another process may still take one before nginx binds it; {@link NginxServer} retries then.
 */
final class FreePorts {

    private static final int LOWEST = 10000;

    private final Random random = new Random();
    private final Set<Integer> given = new HashSet<>();
    private final int ephemeralLow = ephemeralLow();

    int next() {
        for (int attempt = 0; attempt < 10000; attempt++) {
            int p = LOWEST + random.nextInt(ephemeralLow - LOWEST);
            if (!given.contains(p) && bindable(p)) {
                given.add(p);
                return p;
            }
        }
        throw new BenchFailure("no free port between " + LOWEST + " and " + ephemeralLow + " on 127.0.0.1");
    }

    private static boolean bindable(int port) {
        try (ServerSocket s = new ServerSocket()) {
            s.setReuseAddress(false);
            s.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), port));
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    private static int ephemeralLow() {
        try {
            int low = Integer.parseInt(Files.readString(Path.of("/proc/sys/net/ipv4/ip_local_port_range"))
                    .trim().split("\\s+")[0]);
            return low > LOWEST + 100 ? low : 32768;
        } catch (IOException | RuntimeException e) {
            return 32768;
        }
    }
}
