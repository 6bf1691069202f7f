package dev.xaccel.bench.system;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Context switches of all threads of a process, from {@code /proc/<pid>/task/<tid>/status}
 * ({@code voluntary_ctxt_switches} + {@code nonvoluntary_ctxt_switches}): every time a thread blocks (in
 * {@code epoll_wait}, {@code accept}, a lock) and is woken again counts one voluntary switch, so the difference
 * over a measurement is the process's wake-ups. Threads that ended in between are lost (Tomcat's pools keep
 * theirs). Linux only; 0 elsewhere.
 */
public final class ContextSwitches {

    private ContextSwitches() {
    }

    /** Voluntary and involuntary switches summed over the threads alive now. */
    public static long of(long pid) {
        long total = 0;
        try (DirectoryStream<Path> tasks = Files.newDirectoryStream(Path.of("/proc", Long.toString(pid), "task"))) {
            for (Path t : tasks) {
                try {
                    total += parse(Files.readString(t.resolve("status")));
                } catch (IOException e) {
                    // the thread ended meanwhile
                }
            }
        } catch (IOException e) {
            return 0;
        }
        return total;
    }

    /** The two counters of one {@code status} file, summed. */
    static long parse(String status) {
        long n = 0;
        for (String line : status.lines().toList()) {
            if (line.startsWith("voluntary_ctxt_switches:") || line.startsWith("nonvoluntary_ctxt_switches:")) {
                n += Long.parseLong(line.substring(line.indexOf(':') + 1).trim());
            }
        }
        return n;
    }
}
