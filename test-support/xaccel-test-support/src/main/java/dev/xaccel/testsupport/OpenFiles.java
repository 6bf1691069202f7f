package dev.xaccel.testsupport;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The open file descriptors of a process, as Linux shows them in {@code /proc/<pid>/fd} (each a link to what it
 * holds: a file's path, {@code socket:[inode]}, {@code pipe:[inode]}, ...). For leak checks: a count before and
 * after, and the descriptors that hold files below a directory (a data root: a {@code FileChannel} left open shows
 * up there). Linux only ({@link #available()}).
 */
public final class OpenFiles {

    private OpenFiles() {
    }

    /** Whether this system has {@code /proc/self/fd}. */
    public static boolean available() {
        return Files.isDirectory(Path.of("/proc/self/fd"));
    }

    /** What each open descriptor of {@code pid} refers to (descriptors closed while listing are skipped). */
    public static List<String> targets(long pid) {
        List<String> out = new ArrayList<>();
        try (DirectoryStream<Path> fds = Files.newDirectoryStream(Path.of("/proc", Long.toString(pid), "fd"))) {
            for (Path fd : fds) {
                try {
                    out.add(Files.readSymbolicLink(fd).toString());
                } catch (IOException e) {
                    // closed meanwhile
                }
            }
        } catch (IOException e) {
            throw new IllegalStateException("cannot list the descriptors of " + pid + ": " + e, e);
        }
        return out;
    }

    /** How many descriptors {@code pid} has open. */
    public static int count(long pid) {
        return targets(pid).size();
    }

    /**
     * The descriptors of {@code pid} that hold a file below {@code dir} (its absolute, real path), or {@code dir}
     * itself once it was deleted. The directory itself does not count: the filter holds its roots open.
     */
    public static List<String> below(long pid, Path dir) {
        String prefix = dir.toAbsolutePath().toString();
        return targets(pid).stream().filter(t -> t.startsWith(prefix + "/") || t.startsWith(prefix + " ")).toList();
    }

    /** The descriptors of {@code pid} that are sockets. */
    public static long sockets(long pid) {
        return targets(pid).stream().filter(t -> t.startsWith("socket:")).count();
    }

    /** This JVM's PID. */
    public static long self() {
        return ProcessHandle.current().pid();
    }
}
