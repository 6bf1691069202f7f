package dev.xaccel.bench.system;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;

/**
 * Context switches of all threads of a process, from {@code /proc/<pid>/task/<tid>/status}
 * ({@code voluntary_ctxt_switches} + {@code nonvoluntary_ctxt_switches}): every time a thread blocks (in
 * {@code epoll_wait}, {@code accept}, a lock) and is woken again counts one voluntary switch, so the difference
 * over a measurement is the process's wake-ups. Taken thread by thread ({@link Snapshot#since}): a thread that ended
 * in between is lost (an undercount, Tomcat's pools end idle threads), never subtracted. Linux only; 0 elsewhere.
 */
public final class ContextSwitches {

    private ContextSwitches() {
    }

    /** The switches of each thread alive at one moment, by thread id. */
    public record Snapshot(Map<Long, Long> byThread) {

        /**
         * The switches since {@code earlier}, of the threads alive now: a thread started in between counts from 0, as
         * does one whose id was reused (its count is below the one recorded); one that ended is not counted.
         */
        public long since(Snapshot earlier) {
            long total = 0;
            for (Map.Entry<Long, Long> t : byThread.entrySet()) {
                long before = earlier.byThread().getOrDefault(t.getKey(), 0L);
                total += t.getValue() >= before ? t.getValue() - before : t.getValue();
            }
            return total;
        }
    }

    /** The switches of each thread of {@code pid} alive now; empty where there is no {@code /proc}. */
    public static Snapshot of(long pid) {
        Map<Long, Long> byThread = new HashMap<>();
        try (DirectoryStream<Path> tasks = Files.newDirectoryStream(Path.of("/proc", Long.toString(pid), "task"))) {
            for (Path t : tasks) {
                try {
                    byThread.put(Long.parseLong(t.getFileName().toString()),
                            parse(Files.readString(t.resolve("status"))));
                } catch (IOException e) {
                    // the thread ended meanwhile
                }
            }
        } catch (IOException e) {
            return new Snapshot(Map.of());
        }
        return new Snapshot(byThread);
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
