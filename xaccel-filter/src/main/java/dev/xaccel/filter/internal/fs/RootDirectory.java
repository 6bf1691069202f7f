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

import dev.xaccel.filter.InitParams;

/**
 * The real root directory of a location or mapping, held open while the filter runs, so that a file below it is
 * opened relative to it ({@code openat(2)}) without opening the root again for every request.
 *
 * <p>Each use looks at the root's name once ({@code stat}) and compares its identity
 * ({@link BasicFileAttributes#fileKey()}) with the directory held open: a root replaced on disk (moved away and
 * another directory put in its place, a file system mounted over it) is taken at once, and a root that is gone
 * (renamed away, not a directory any more) serves nothing, even though the directory held open may still exist
 * elsewhere. One system call instead of the five of opening the root. The directories below it that files are
 * opened from are held too ({@link HeldDirectories}, checked the same way, one {@code fstatat} each). Holding them
 * open keeps their file system busy: unmounting it fails while the filter runs (a lazy unmount works; the
 * directory then at the name is taken). Where the platform has no {@link SecureDirectoryStream}, nothing is held and
 * {@link #stream()} is empty.
 *
 * <p>Opened on first use; closed by {@link #close()} (the filter's {@code destroy}) or, for an instance dropped
 * without, when it is collected. Thread-safe.
 */
public final class RootDirectory implements Closeable {

    private static final Cleaner CLEANER = Cleaner.create();

    private final Path path;
    /** The most directories below the root held open ({@code heldDirectories}); 0: none, only the root. */
    private final int heldDirectories;
    /** What the cleaner closes: the streams held now. Never refers back to this instance. */
    private final Held held = new Held();

    /** The directory held open, its identity and the directories below it held open. */
    private record Open(SecureDirectoryStream<Path> stream, Object key, HeldDirectories below) {
    }

    private static final class Held implements Runnable {
        volatile Open open;

        @Override
        public void run() {
            closeQuietly(open);
        }
    }

    /** @param path the real root directory; the default number of directories below it held */
    public RootDirectory(Path path) {
        this(path, InitParams.DEFAULT_HELD_DIRECTORIES);
    }

    /**
     * @param path            the real root directory
     * @param heldDirectories the most directories below it held open (two descriptors each); 0: none, each opened
     *                        per request by the careful path
     */
    public RootDirectory(Path path, int heldDirectories) {
        this.path = Objects.requireNonNull(path, "path");
        this.heldDirectories = heldDirectories;
        CLEANER.register(this, held);
    }

    /** The real root's path. */
    public Path path() {
        return path;
    }

    /**
     * The directory now at the root's name, held open: the one held since an earlier call while the name still
     * names it, else opened now (and the one held before closed).
     *
     * @return the open directory; {@code null} when the root is missing, not a directory, or the platform has no
     *         {@link SecureDirectoryStream} (the caller opens by name then)
     */
    public SecureDirectoryStream<Path> stream() {
        Open open = current();
        return open == null ? null : open.stream();
    }

    /**
     * A directory below the root held open ({@link HeldDirectories}): each name on the way looked at once.
     *
     * @param relativeDir checked segments below the root, '/'-separated; empty for the root itself
     * @return the open directory; {@code null} as for {@link #stream()}, and for a directory below the root when
     *         none is held ({@code heldDirectories=0})
     * @throws IOException when a directory on the way is missing, a link or not a directory
     */
    public SecureDirectoryStream<Path> directory(String relativeDir) throws IOException {
        Open open = current();
        if (open == null || (open.below() == null && !relativeDir.isEmpty())) {
            return null;
        }
        return relativeDir.isEmpty() ? open.stream() : open.below().directory(relativeDir);
    }

    /** What is held for the directory now at the root's name, opened now if needed; {@code null}: nothing. */
    private Open current() {
        Object key = keyOfName();
        Open open = held.open;
        return open != null && open.key().equals(key) ? open : replace(key);
    }

    private synchronized Open replace(Object key) {
        Open current = held.open;
        if (current == null || !current.key().equals(key)) {
            held.open = key == null ? null : openNow();
            closeQuietly(current);
        }
        return held.open;
    }

    /** The identity of the directory at the root's name, {@code null} when there is none. */
    private Object keyOfName() {
        try {
            BasicFileAttributes a = Files.readAttributes(path, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
            return a.isDirectory() ? a.fileKey() : null;
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
            if (key == null) {
                secure.close();
                return null;
            }
            return new Open(secure, key,
                    heldDirectories == 0 ? null : new HeldDirectories(secure, heldDirectories));
        } catch (IOException e) {
            return null;
        }
    }

    private static void closeQuietly(Open open) {
        if (open != null) {
            if (open.below() != null) {
                open.below().close();
            }
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
        closeQuietly(open);
    }

    @Override
    public String toString() {
        return "RootDirectory[" + path + "]";
    }
}
