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
 * <p>At most {@link #CAPACITY} directories are held (two descriptors each); beyond, some are closed and opened
 * again when asked for. A directory closed while another thread uses it makes that use throw
 * {@link ClosedDirectoryStreamException}, which the caller answers by asking again. Thread-safe.
 */
final class HeldDirectories implements Closeable {

    /** Directories held per root: 128 descriptors at most. */
    static final int CAPACITY = 64;

    private static final LinkOption[] NO_FOLLOW = {LinkOption.NOFOLLOW_LINKS};

    private final SecureDirectoryStream<Path> root;
    private final ConcurrentHashMap<String, Held> held = new ConcurrentHashMap<>();
    private volatile boolean closed;

    /** A directory held open: its parent ({@code null}: the root), its name there, its identity. */
    private record Held(Held parent, Path name, SecureDirectoryStream<Path> stream, Object key) {
    }

    /** @param root the root directory held open; not closed here */
    HeldDirectories(SecureDirectoryStream<Path> root) {
        this.root = root;
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
        if (dir.parent() != null && !isAtItsName(dir.parent())) {
            return false;
        }
        try {
            BasicFileAttributes now = streamOf(dir.parent())
                    .getFileAttributeView(dir.name(), BasicFileAttributeView.class, NO_FOLLOW).readAttributes();
            return now.isDirectory() && dir.key().equals(now.fileKey());
        } catch (IOException | ClosedDirectoryStreamException e) {
            return false;
        }
    }

    private SecureDirectoryStream<Path> streamOf(Held dir) {
        return dir == null ? root : dir.stream();
    }

    /** Over capacity: closes some held directories (not the one just opened); their children are opened again. */
    private void trim(String keep) {
        Iterator<Map.Entry<String, Held>> it = held.entrySet().iterator();
        while (held.size() > CAPACITY && it.hasNext()) {
            Map.Entry<String, Held> e = it.next();
            if (!e.getKey().equals(keep) && held.remove(e.getKey(), e.getValue())) {
                closeQuietly(e.getValue());
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
