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
        return descriptors(pid).stream().map(Descriptor::target).toList();
    }

    /** How many descriptors {@code pid} has open. */
    public static int count(long pid) {
        return descriptors(pid).size();
    }

    /**
     * How many descriptors {@code pid} has open that are not directories: what a leak would raise. The filter holds
     * a bounded number of directories open for as long as it runs (its roots and directories below them).
     */
    public static int countNonDirectories(long pid) {
        return (int) descriptors(pid).stream().filter(d -> !d.isDirectory()).count();
    }

    /**
     * The descriptors of {@code pid} that hold a file (not a directory) below {@code dir} (its absolute, real path),
     * deleted or not. Directories do not count: the filter holds its roots and the directories below them open.
     */
    public static List<String> below(long pid, Path dir) {
        String prefix = dir.toAbsolutePath() + "/";
        return descriptors(pid).stream().filter(d -> d.target().startsWith(prefix) && !d.isDirectory())
                .map(Descriptor::target).toList();
    }

    /** One open descriptor: what its link names, and whether what it holds is a directory (even a deleted one). */
    private record Descriptor(String target, boolean isDirectory) {
    }

    private static List<Descriptor> descriptors(long pid) {
        List<Descriptor> out = new ArrayList<>();
        try (DirectoryStream<Path> fds = Files.newDirectoryStream(Path.of("/proc", Long.toString(pid), "fd"))) {
            for (Path fd : fds) {
                try {
                    // isDirectory follows /proc's link to what is open, not to the name it shows
                    out.add(new Descriptor(Files.readSymbolicLink(fd).toString(), Files.isDirectory(fd)));
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
