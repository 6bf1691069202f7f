package dev.xaccel.filter.internal.fs;

import java.io.Closeable;
import java.io.IOException;
import java.lang.ref.Cleaner;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.SecureDirectoryStream;
import java.nio.file.attribute.BasicFileAttributeView;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.Objects;
import java.util.concurrent.TimeUnit;

/**
 * The real root directory of a location or mapping, held open while the filter runs, so that a file below it is
 * opened relative to it ({@code openat(2)}) without opening the root again for every request.
 *
 * <p>A root replaced on disk (moved away and another directory put in its place, a file system mounted over it, or
 * gone) is noticed by one {@code stat} of its name at most every {@value #CHECK_MILLIS} ms, compared with the
 * identity ({@link BasicFileAttributes#fileKey()}) of the directory held open, and at once when the caller asks
 * ({@link #recheck()}: a file was not found); the directory now at that name is opened then. Until then, for at
 * most that interval, files are opened below the directory that was the root. Where the platform has no
 * {@link SecureDirectoryStream}, nothing is held and {@link #stream()} is empty.
 *
 * <p>Opened on first use; closed by {@link #close()} (the filter's {@code destroy}) or, for an instance dropped
 * without, when it is collected. Thread-safe.
 */
public final class RootDirectory implements Closeable {

    /** How often, at most, the root's name is looked at again. */
    public static final long CHECK_MILLIS = 1000;

    private static final Cleaner CLEANER = Cleaner.create();
    private static final long CHECK_NANOS = TimeUnit.MILLISECONDS.toNanos(CHECK_MILLIS);

    private final Path path;
    /** What the cleaner closes: the stream held now. Never refers back to this instance. */
    private final Held held = new Held();
    private volatile long nextCheck;

    /** The directory held open and its identity. */
    private record Open(SecureDirectoryStream<Path> stream, Object key) {
    }

    private static final class Held implements Runnable {
        volatile Open open;

        @Override
        public void run() {
            closeQuietly(open);
        }
    }

    /** @param path the real root directory */
    public RootDirectory(Path path) {
        this.path = Objects.requireNonNull(path, "path");
        this.nextCheck = System.nanoTime();
        CLEANER.register(this, held);
    }

    /** The real root's path. */
    public Path path() {
        return path;
    }

    /**
     * The root directory held open, opening it or the directory now at its name when that is due.
     *
     * @return the open directory; {@code null} when the root is missing, not a directory, or the platform has no
     *         {@link SecureDirectoryStream} (the caller opens by name then)
     */
    public SecureDirectoryStream<Path> stream() {
        if (System.nanoTime() - nextCheck >= 0) {
            refresh(false);
        }
        Open open = held.open;
        return open == null ? null : open.stream();
    }

    /**
     * Looks at the root's name now: a file below it was not found, perhaps because the root was replaced.
     *
     * @return whether another directory (or none) is held now
     */
    public boolean recheck() {
        return refresh(true);
    }

    private synchronized boolean refresh(boolean now) {
        long time = System.nanoTime();
        if (!now && time - nextCheck < 0) {
            return false;
        }
        nextCheck = time + CHECK_NANOS;
        Open current = held.open;
        Object key = keyOfName();
        if (current != null && current.key().equals(key)) {
            return false;
        }
        held.open = key == null ? null : openNow();
        closeQuietly(current);
        return current != null || held.open != null;
    }

    /** The identity of the directory at the root's name, {@code null} when there is none. */
    private Object keyOfName() {
        try {
            BasicFileAttributes a = Files.readAttributes(path, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
            return a.isDirectory() && a.fileKey() != null ? a.fileKey() : null;
        } catch (IOException e) {
            return null;
        }
    }

    private Open openNow() {
        try {
            DirectoryStream<Path> ds = Files.newDirectoryStream(path);
            if (!(ds instanceof SecureDirectoryStream<Path> secure)) {
                ds.close();
                return null;
            }
            // the identity of what was opened, not of the name: a swap between the look and the open is seen next time
            Object key = secure.getFileAttributeView(BasicFileAttributeView.class).readAttributes().fileKey();
            return new Open(secure, key);
        } catch (IOException e) {
            return null;
        }
    }

    private static void closeQuietly(Open open) {
        if (open != null) {
            try {
                open.stream().close();
            } catch (IOException e) {
                // a directory opened read-only: nothing is lost
            }
        }
    }

    /** Closes the directory held open; a later {@link #stream()} opens it again. */
    @Override
    public synchronized void close() {
        Open open = held.open;
        held.open = null;
        nextCheck = System.nanoTime();
        closeQuietly(open);
    }

    @Override
    public String toString() {
        return "RootDirectory[" + path + "]";
    }
}
