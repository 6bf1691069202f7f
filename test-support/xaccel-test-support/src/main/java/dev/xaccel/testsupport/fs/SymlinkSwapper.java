package dev.xaccel.testsupport.fs;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

import com.sun.jna.Library;
import com.sun.jna.Native;

/**
 * The attack of a writer inside a data root: a directory and a symbolic link (to a directory outside the root)
 * exchanged atomically, over and over, with Linux's {@code renameat2(RENAME_EXCHANGE)}, so that a name checked
 * as a directory may be a link when it is opened. Runs on its own thread until closed.
 */
public final class SymlinkSwapper implements AutoCloseable {

    private static final int AT_FDCWD = -100;
    private static final int RENAME_EXCHANGE = 2;

    /** glibc 2.28+. */
    interface LibC extends Library {
        int renameat2(int olddirfd, String oldpath, int newdirfd, String newpath, int flags);
    }

    private static final LibC LIBC = Native.load("c", LibC.class);

    private final Path a;
    private final Path b;
    private final AtomicBoolean running = new AtomicBoolean(true);
    private final AtomicLong swaps = new AtomicLong();
    private final Thread thread;
    private volatile int errno;

    private SymlinkSwapper(Path a, Path b) {
        this.a = a;
        this.b = b;
        this.thread = new Thread(this::loop, "symlink-swapper");
        this.thread.setDaemon(true);
    }

    /**
     * Exchanges {@code directory} (inside a root) with {@code link} (a symbolic link to elsewhere) until
     * {@link #close()}. Both exist before; after close both exist again under their names, possibly exchanged.
     */
    public static SymlinkSwapper start(Path directory, Path link) throws IOException {
        if (!Files.isDirectory(directory, java.nio.file.LinkOption.NOFOLLOW_LINKS) || !Files.isSymbolicLink(link)) {
            throw new IOException("expected a directory and a symbolic link: " + directory + ", " + link);
        }
        SymlinkSwapper s = new SymlinkSwapper(directory, link);
        s.exchange();
        if (s.errno != 0) {
            throw new IOException("renameat2(RENAME_EXCHANGE) failed with errno " + s.errno);
        }
        s.thread.start();
        return s;
    }

    private void exchange() {
        if (LIBC.renameat2(AT_FDCWD, a.toString(), AT_FDCWD, b.toString(), RENAME_EXCHANGE) == 0) {
            swaps.incrementAndGet();
        } else {
            errno = Native.getLastError();
        }
    }

    /**
     * Exchanges as fast as it can (the attack), yielding the CPU every 64 exchanges so that on a loaded machine the
     * threads being attacked still run.
     */
    private void loop() {
        for (long n = 1; running.get() && errno == 0; n++) {
            exchange();
            if ((n & 63) == 0) {
                Thread.yield();
            }
        }
    }

    /** Exchanges done so far. */
    public long swaps() {
        return swaps.get();
    }

    /** Stops swapping and leaves {@code directory} a directory again. */
    @Override
    public void close() throws IOException {
        running.set(false);
        try {
            thread.join(5000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        if (Files.isSymbolicLink(a)) {
            exchange();
        }
        if (errno != 0) {
            throw new IOException("renameat2(RENAME_EXCHANGE) failed with errno " + errno);
        }
    }
}
