package dev.xaccel.filter.internal.fs;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.ClosedDirectoryStreamException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.Iterator;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;

/**
 * The bytes of small files kept in memory for the answers the filter sends itself, never stale: each hit is
 * validated by the look the one-pass open makes anyway and one {@code lstat} more. The directory of the file is
 * asked of {@link RootDirectory#directory} (the root and every held directory on the way still the one at its name,
 * no link), then the file's name is looked at without following a link: its device, inode, size, modification and
 * change time (nanoseconds) must be the ones seen when its bytes were read. A file written, truncated, replaced by
 * a rename, swapped for a link or given other permissions has another inode or a later change time (which no user
 * can set back), so it is opened again, never answered from memory.
 *
 * <p>Timestamps have a granularity: a write in the same clock tick as the read that kept the bytes could leave the
 * change time as it was. So a file changed less than {@link #SETTLED_MILLIS} before it is read is not kept, and a
 * file whose look differs after its bytes were read from the one before is not kept either.
 *
 * <p>Bounded: at most {@code capacity} bytes of files, each counted with {@link #ENTRY_OVERHEAD} more for what
 * keeps it (init-param {@code smallFileCacheSize}), none larger than
 * {@code maxFileSize} ({@code smallFileMaxSize}). Beyond, a clock hand evicts the files not hit since it last passed
 * them. Keyed by the file's name below its real root, as the one-pass open has it. Thread-safe: hits take no lock.
 */
public final class SmallFileCache {

    /** How long a file must have been left alone before its bytes are kept: more than any timestamp tick. */
    static final long SETTLED_MILLIS = 1000;

    /**
     * What each kept file costs besides its bytes (its key, its look, the map's node), counted in the bound so that
     * many tiny files cannot hold much more memory than the option says.
     */
    static final int ENTRY_OVERHEAD = 512;

    /** What is compared: the identity, size and both times of the file at the name, as one {@code lstat} gives. */
    private static final String LOOK = "unix:dev,ino,size,lastModifiedTime,ctime";
    private static final LinkOption[] NO_FOLLOW = {LinkOption.NOFOLLOW_LINKS};

    private final long capacity;
    private final int maxFileSize;
    private final long settledMillis;
    private final ConcurrentHashMap<Path, Entry> entries = new ConcurrentHashMap<>();
    private final LongAdder hits = new LongAdder();
    private final LongAdder misses = new LongAdder();
    /** Bytes of the entries in {@link #entries}, each with its overhead; changed only under this instance's lock. */
    private long bytes;
    private Iterator<Map.Entry<Path, Entry>> hand;

    /** What one {@code lstat} of the file's name says, compared whole: identity, size, both times in nanoseconds. */
    private record Look(Object dev, Object ino, Object size, FileTime modified, FileTime changed) {
        static Look of(Path file) throws IOException {
            Map<String, Object> a = Files.readAttributes(file, LOOK, NO_FOLLOW);
            return new Look(a.get("dev"), a.get("ino"), a.get("size"), (FileTime) a.get("lastModifiedTime"),
                    (FileTime) a.get("ctime"));
        }
    }

    /** A file's bytes and the look of the file they were read from. */
    private static final class Entry {
        final byte[] content;
        final Look look;
        /** Set by a hit, cleared by the clock hand. */
        volatile boolean used;

        Entry(byte[] content, Look look) {
            this.content = content;
            this.look = look;
        }

        long cost() {
            return content.length + ENTRY_OVERHEAD;
        }
    }

    /**
     * @param capacity    total bytes of files kept, at least 1
     * @param maxFileSize the largest file kept, at least 1
     */
    public SmallFileCache(long capacity, int maxFileSize) {
        this(capacity, maxFileSize, SETTLED_MILLIS);
    }

    /** @param settledMillis {@link #SETTLED_MILLIS}; 0 only in tests of the bound, where no file changes */
    SmallFileCache(long capacity, int maxFileSize, long settledMillis) {
        if (capacity < 1 || maxFileSize < 1) {
            throw new IllegalArgumentException(capacity + "/" + maxFileSize);
        }
        this.capacity = capacity;
        this.maxFileSize = maxFileSize;
        this.settledMillis = settledMillis;
    }

    /**
     * The file's bytes, when they are kept and the file at its name is still the one they were read from.
     *
     * @param root      the real root, held open
     * @param parent    the file's directory below the root, '/'-separated, empty for the root itself
     * @param candidate the root resolved with the file's checked relative path (the key)
     * @return the file in memory, or {@code null}: open it
     */
    OpenFile lookup(RootDirectory root, String parent, Path candidate) {
        Entry e = entries.get(candidate);
        if (e == null) {
            misses.increment();
            return null;
        }
        Look now;
        try {
            if (root.directory(parent) == null) {
                misses.increment();
                return null;
            }
            now = Look.of(candidate);
        } catch (IOException | ClosedDirectoryStreamException e1) {
            now = null;
        }
        if (now == null || !now.equals(e.look)) {
            remove(candidate, e);
            misses.increment();
            return null;
        }
        if (!e.used) {
            e.used = true;
        }
        hits.increment();
        return OpenFile.inMemory(e.content, e.look.modified().toMillis());
    }

    /**
     * Keeps the bytes of a file just opened when it is small and settled: read from the open file between two looks
     * at its name that agree, with a change time at least {@link #SETTLED_MILLIS} old.
     *
     * @param candidate the key, as for {@link #lookup}
     * @param opened    the file opened below its root; closed here when its bytes are kept
     * @return the file in memory when kept, else {@code opened}, still open (read only by position, so what the
     *         caller sends from it does not depend on this read)
     */
    OpenFile offer(Path candidate, OpenFile opened) {
        long size = opened.size();
        if (size > maxFileSize || size + ENTRY_OVERHEAD > capacity) {
            return opened;
        }
        byte[] content;
        Look before;
        try {
            long readAt = System.currentTimeMillis();
            before = Look.of(candidate);
            if (!before.size().equals(size) || before.changed().toMillis() > readAt - settledMillis) {
                return opened;
            }
            content = readAll(opened, (int) size);
            if (content == null || !before.equals(Look.of(candidate))) {
                return opened;
            }
        } catch (IOException e) {
            // the look failed (the name is gone meanwhile): the open file answers as it would have
            return opened;
        }
        put(candidate, new Entry(content, before));
        try {
            opened.close();
        } catch (IOException e) {
            // opened read-only: nothing is lost
        }
        // the time the hits will answer with, so that this answer and theirs carry one validator
        return OpenFile.inMemory(content, before.modified().toMillis());
    }

    /** The whole file from position 0, or {@code null} when it is not {@code size} bytes long now. */
    private static byte[] readAll(OpenFile opened, int size) throws IOException {
        ByteBuffer buffer = ByteBuffer.allocate(size + 1);
        long position = 0;
        while (buffer.hasRemaining()) {
            int n = opened.channel().read(buffer, position);
            if (n < 0) {
                break;
            }
            position += n;
        }
        return position == size ? java.util.Arrays.copyOf(buffer.array(), size) : null;
    }

    private synchronized void put(Path key, Entry e) {
        Entry old = entries.put(key, e);
        if (old != null) {
            bytes -= old.cost();
        }
        bytes += e.cost();
        evict(key);
    }

    private synchronized void remove(Path key, Entry e) {
        if (entries.remove(key, e)) {
            bytes -= e.cost();
        }
    }

    /**
     * Over capacity: the clock hand clears the mark of each entry hit since it last passed and evicts the first it
     * finds unmarked (never the one just kept); after two rounds it evicts regardless, so the bound holds.
     */
    private void evict(Path keep) {
        int looked = 0;
        while (bytes > capacity) {
            if (hand == null || !hand.hasNext()) {
                hand = entries.entrySet().iterator();
            }
            Map.Entry<Path, Entry> next = hand.next();
            looked++;
            Entry e = next.getValue();
            if (next.getKey().equals(keep) && entries.size() > 1) {
                continue;
            }
            if (e.used && looked <= 2 * entries.size() + 2) {
                e.used = false;
            } else if (entries.remove(next.getKey(), e)) {
                bytes -= e.cost();
            }
        }
    }

    /** Answers from memory since start. */
    public long hits() {
        return hits.sum();
    }

    /** Direct answers of a plain file whose bytes were not kept, or kept but stale, since start. */
    public long misses() {
        return misses.sum();
    }

    /** Bytes of files kept now, each with {@link #ENTRY_OVERHEAD}. */
    public synchronized long bytes() {
        return bytes;
    }

    /** Files kept now. */
    public int files() {
        return entries.size();
    }

    /** The bound on {@link #bytes()}. */
    public long capacity() {
        return capacity;
    }

    /** The largest file kept. */
    public int maxFileSize() {
        return maxFileSize;
    }
}
