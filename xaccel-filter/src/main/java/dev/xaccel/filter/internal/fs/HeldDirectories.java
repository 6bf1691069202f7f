package dev.xaccel.filter.internal.fs;

import java.io.Closeable;
import java.io.IOException;
import java.nio.file.ClosedDirectoryStreamException;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.SecureDirectoryStream;
import java.nio.file.attribute.BasicFileAttributeView;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.Iterator;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The directories below a root held open, so that a file three directories down is opened with one {@code fstatat}
 * per directory instead of opening every directory again (seven system calls each through the JDK's
 * {@link SecureDirectoryStream#newDirectoryStream}).
 *
 * <p>Each use looks at every name on the way once, relative to the directory above it and without following a
 * link, and compares its identity ({@link BasicFileAttributes#fileKey()}) with the directory held for it: only a
 * directory still at its name is used, exactly what opening the names one by one would have found at that moment
 * (a directory held open keeps its inode, so no other directory can have its identity meanwhile).
 * A directory replaced (renamed, exchanged with a link, a file system mounted over it) is opened again from its
 * parent with {@code O_NOFOLLOW}, so a link there fails the open as it always did.
 *
 * <p>At most {@code capacity} directories are held (init-param {@code heldDirectories}; two descriptors each,
 * because the JDK keeps a duplicate of each directory's descriptor for its listing); beyond, the ones not used
 * since the clock hand last passed them are closed first (second chance, as an operating system's page clock),
 * so the directories a library's requests keep coming back to stay open and a scan of many others cannot close
 * them all. A directory closed while another thread uses it makes that use throw
 * {@link ClosedDirectoryStreamException}, which the caller answers by asking again. Thread-safe.
 */
final class HeldDirectories implements Closeable {

    private static final LinkOption[] NO_FOLLOW = {LinkOption.NOFOLLOW_LINKS};

    private final SecureDirectoryStream<Path> root;
    private final int capacity;
    private final ConcurrentHashMap<String, Held> held = new ConcurrentHashMap<>();
    /** The clock hand: where the next trim goes on looking for a directory not used since the last pass. */
    private Iterator<Map.Entry<String, Held>> hand;
    private volatile boolean closed;

    /** A directory held open: its parent ({@code null}: the root), its name there, its identity; used lately. */
    private static final class Held {
        final Held parent;
        final Path name;
        final SecureDirectoryStream<Path> stream;
        final Object key;
        /** Set by every use, cleared by the clock hand: only a directory the hand finds unused is closed. */
        volatile boolean used;

        Held(Held parent, Path name, SecureDirectoryStream<Path> stream, Object key) {
            this.parent = parent;
            this.name = name;
            this.stream = stream;
                this.key = key;
            // opened to be used now: not the hand's first choice
            this.used = true;
        }

        SecureDirectoryStream<Path> stream() {
            return stream;
        }

        void use() {
            if (!used) {
                // read before write: a directory used by many threads does not make them write one cache line
                used = true;
            }
        }
    }

    /**
     * @param root     the root directory held open; not closed here
     * @param capacity the most directories held at once, at least 1 (0 is {@link RootDirectory}'s to handle: it
     *                 holds none then)
     */
    HeldDirectories(SecureDirectoryStream<Path> root, int capacity) {
        if (capacity < 1) {
            throw new IllegalArgumentException("capacity " + capacity);
        }
        this.root = root;
        this.capacity = capacity;
    }

    /**
     * The directory at {@code relativeDir} below the root, held open and checked to be at its name now.
     *
     * @param relativeDir checked segments below the root, '/'-separated, not empty
     * @throws IOException when a directory on the way is missing, a link or not a directory
     */
    SecureDirectoryStream<Path> directory(String relativeDir) throws IOException {
        return held(relativeDir).stream();
    }

    private Held held(String dir) throws IOException {
        Held current = held.get(dir);
        if (current != null && isAtItsName(current)) {
            return current;
        }
        int slash = dir.lastIndexOf('/');
        Held parent = slash < 0 ? null : held(dir.substring(0, slash));
        Path name = Path.of(dir.substring(slash + 1));
        SecureDirectoryStream<Path> stream = streamOf(parent).newDirectoryStream(name, NO_FOLLOW);
        Held opened;
        try {
            opened = new Held(parent, name, stream,
                    stream.getFileAttributeView(BasicFileAttributeView.class).readAttributes().fileKey());
        } catch (IOException | RuntimeException e) {
            stream.close();
            throw e;
        }
        closeQuietly(held.put(dir, opened));
        if (closed) {
            // closed while this one was opened: nothing may stay held after close
            close();
        } else {
            trim(dir);
        }
        return opened;
    }

    /** Whether each directory from the root down to this one is still the one at its name. */
    private boolean isAtItsName(Held dir) {
        if (dir.parent != null && !isAtItsName(dir.parent)) {
            return false;
        }
        try {
            BasicFileAttributes now = streamOf(dir.parent)
                    .getFileAttributeView(dir.name, BasicFileAttributeView.class, NO_FOLLOW).readAttributes();
            if (now.isDirectory() && dir.key.equals(now.fileKey())) {
                // the parents are used through their children: kept while a child is
                dir.use();
                return true;
            }
            return false;
        } catch (IOException | ClosedDirectoryStreamException e) {
            return false;
        }
    }

    private SecureDirectoryStream<Path> streamOf(Held dir) {
        return dir == null ? root : dir.stream();
    }

    /**
     * Over capacity: the clock hand goes round the held directories, clearing the mark of each one used since it
     * last passed and closing the first it finds unmarked (never the one just opened), until the capacity is kept.
     * Two rounds find one, the first clearing every mark; should other threads mark them again as fast, the third
     * closes regardless, so the bound on descriptors holds.
     */
    private synchronized void trim(String keep) {
        int looked = 0;
        while (held.size() > capacity) {
            if (hand == null || !hand.hasNext()) {
                hand = held.entrySet().iterator();
                if (!hand.hasNext()) {
                    return;
                }
            }
            Map.Entry<String, Held> e = hand.next();
            looked++;
            Held dir = e.getValue();
            if (e.getKey().equals(keep)) {
                continue;
            }
            if (dir.used && looked <= 2 * held.size() + 2) {
                dir.used = false;
            } else if (held.remove(e.getKey(), dir)) {
                closeQuietly(dir);
            }
        }
    }

    /** How many directories are held now. */
    int size() {
        return held.size();
    }

    /** Closes every directory held; a later use opens them again. */
    @Override
    public void close() {
        closed = true;
        for (String dir : held.keySet()) {
            closeQuietly(held.remove(dir));
        }
    }

    private static void closeQuietly(Held dir) {
        if (dir != null) {
            try {
                dir.stream().close();
            } catch (IOException e) {
                // a directory opened read-only: nothing is lost
            }
        }
    }
}
