package dev.xaccel.tomcat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.List;

/**
 * Counts half-open connections the Linux kernel holds for a local port, from {@code /proc/net/tcp} and
 * {@code /proc/net/tcp6} (what {@code ss -tn state syn-recv} shows): state {@code 03} is {@code SYN_RECV}, where
 * {@code TCP_DEFER_ACCEPT} keeps a client that has sent nothing.
 */
final class KernelTcpTable {

    private static final String SYN_RECV = "03";

    private KernelTcpTable() {
    }

    static int synRecv(int localPort) throws IOException {
        return count(Paths.get("/proc/net/tcp"), localPort) + count(Paths.get("/proc/net/tcp6"), localPort);
    }

    private static int count(Path table, int localPort) throws IOException {
        if (!Files.exists(table)) {
            return 0;
        }
        String port = String.format(":%04X", localPort);
        int n = 0;
        List<String> lines = Files.readAllLines(table);
        for (String line : lines.subList(1, lines.size())) {
            String[] f = line.trim().split("\\s+");
            if (f.length > 3 && f[1].endsWith(port) && f[3].equals(SYN_RECV)) {
                n++;
            }
        }
        return n;
    }
}
