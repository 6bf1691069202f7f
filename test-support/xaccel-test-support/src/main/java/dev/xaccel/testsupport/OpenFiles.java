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
     * How many descriptors {@code pid} has open that are not directories: what a leak would raise. The filter holds
     * a bounded number of directories open for as long as it runs (its roots and directories below them).
     */
    public static int countNonDirectories(long pid) {
        int n = 0;
        try (DirectoryStream<Path> fds = Files.newDirectoryStream(Path.of("/proc", Long.toString(pid), "fd"))) {
            for (Path fd : fds) {
                // follows /proc's link to what is open; one closed meanwhile is neither
                if (Files.exists(fd) && !Files.isDirectory(fd)) {
                    n++;
                }
            }
        } catch (IOException e) {
            throw new IllegalStateException("cannot list the descriptors of " + pid + ": " + e, e);
        }
        return n;
    }

    /**
     * The descriptors of {@code pid} that hold a file (not a directory) below {@code dir} (its absolute, real path),
     * deleted or not. Directories do not count: the filter holds its roots and the directories below them open.
     */
    public static List<String> below(long pid, Path dir) {
        String prefix = dir.toAbsolutePath().toString() + "/";
        List<String> out = new ArrayList<>();
        try (DirectoryStream<Path> fds = Files.newDirectoryStream(Path.of("/proc", Long.toString(pid), "fd"))) {
            for (Path fd : fds) {
                try {
                    String target = Files.readSymbolicLink(fd).toString();
                    // the descriptor's own file, even a deleted one: /proc's link leads to what is open
                    if (target.startsWith(prefix) && !Files.isDirectory(fd)) {
                        out.add(target);
                    }
                } catch (IOException e) {
                    // closed meanwhile
                }
            }
        } catch (IOException e) {
            throw new IllegalStateException("cannot list the descriptors of " + pid + ": " + e, e);
        }
        return out;
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
