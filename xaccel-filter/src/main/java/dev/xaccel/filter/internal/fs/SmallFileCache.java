package dev.xaccel.filter.internal.fs;

import java.io.IOException;
import java.nio.ByteBuffer;
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
 * validated by one {@code lstat} of the file's name, not following a link: its device, inode, size, modification
 * and change time (nanoseconds) must be the ones seen when its bytes were read. A file written, truncated, replaced
 * by a rename, swapped for a link, linked again or given other permissions has another inode or a later change time
 * (which no user can set back), so it is opened again, never answered from memory.
 *
 * <p>Only bytes read by the one-pass open are kept, which walked the name below the root with no link on the way.
 * A hit does not walk the directories again (four system calls of five for a file three deep): whatever way the
 * name reaches the file now, an equal look is that very file, unchanged since it was read, so the bytes answered are
 * the ones the checked open read, even where a directory on the way has since been made a link to where that same
 * file now lies (which the careful path refuses): no other file's bytes can be answered so. A name that no longer
 * reaches it (its directory moved away or swapped for another, the root replaced) has another look or none, and is
 * opened by the careful path.
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

    /**
     * How many kept files the clock hand looks at for each file offered to a full cache before it turns the newcomer
     * away: the hits of files already kept outweigh a newcomer, so a set of files a little larger than the cache
     * (thousands of 8 KiB chapters in 16 MiB) keeps most of them instead of evicting each before its next request.
     */
    static final int HAND_STEPS = 8;

    private final long capacity;
    private final int maxFileSize;
    private final long settledMillis;
    /**
     * Keyed by the checked relative path as the request gave it (its hash kept by the string), so a hit makes no
     * {@link Path}; the few files with one name below two roots (a mapping's root inside a location's) are chained.
     */
    private final ConcurrentHashMap<String, Entry> entries = new ConcurrentHashMap<>();
    private final LongAdder hits = new LongAdder();
    private final LongAdder misses = new LongAdder();
    /** Bytes of the entries in {@link #entries}, each with its overhead; changed only under this instance's lock. */
    private long bytes;
    /** Files kept, one name below two roots counted twice; changed only under this instance's lock. */
    private int files;
    private Iterator<Map.Entry<String, Entry>> hand;

    /** A file's bytes, where they were read and what one {@code lstat} of its name said then; immutable but used. */
    private static final class Entry {
        final RootDirectory root;
        final String relative;
        final Path file;
        final byte[] content;
        final long dev;
        final long ino;
        final FileTime modified;
        final FileTime changed;
        /** The same name below another root; replaced, never changed. */
        final Entry next;
        /** Set by a hit, cleared by the clock hand. */
        volatile boolean used;

        Entry(RootDirectory root, String relative, Path file, byte[] content, Map<String, Object> look, Entry next) {
            this.root = root;
            this.relative = relative;
            this.file = file;
            this.content = content;
            this.dev = (Long) look.get("dev");
            this.ino = (Long) look.get("ino");
            this.modified = (FileTime) look.get("lastModifiedTime");
            this.changed = (FileTime) look.get("ctime");
            this.next = next;
        }

        Entry withNext(Entry other) {
            Entry e = new Entry(root, relative, file, content, other, this);
            e.used = used;
            return e;
        }

        private Entry(RootDirectory root, String relative, Path file, byte[] content, Entry next, Entry from) {
            this.root = root;
            this.relative = relative;
            this.file = file;
            this.content = content;
            this.dev = from.dev;
            this.ino = from.ino;
            this.modified = from.modified;
            this.changed = from.changed;
            this.next = next;
        }

        /** Whether an {@code lstat} now shows the file the bytes were read from: compared field by field. */
        boolean isSeenIn(Map<String, Object> look) {
            return look.get("size") instanceof Long size && size == content.length
                    && look.get("ino") instanceof Long i && i == ino && look.get("dev") instanceof Long d && d == dev
                    && changed.equals(look.get("ctime")) && modified.equals(look.get("lastModifiedTime"));
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

    /** One {@code lstat} of the name, not following a link. */
    private static Map<String, Object> look(Path file) throws IOException {
        return Files.readAttributes(file, LOOK, NO_FOLLOW);
    }

    /**
     * The file's bytes, when they are kept and the file at its name is still the one they were read from.
     *
     * @param root     the real root, held open
     * @param relative the file's checked path below the root, '/'-separated (the key)
     * @return the kept file, whose {@link Kept#file()} is the path to answer with, or {@code null}: open it
     */
    Kept lookup(RootDirectory root, String relative) {
        Entry e = entries.get(relative);
        while (e != null && e.root != root) {
            e = e.next;
        }
        if (e == null) {
            misses.increment();
            return null;
        }
        boolean same;
        try {
            same = e.isSeenIn(look(e.file));
        } catch (IOException e1) {
            same = false;
        }
        if (!same) {
            remove(e);
            misses.increment();
            return null;
        }
        if (!e.used) {
            e.used = true;
        }
        hits.increment();
        return new Kept(e.file, OpenFile.inMemory(e.content, e.modified.toMillis()));
    }

    /** A hit: the file's path as it was kept, and its bytes. */
    record Kept(Path file, OpenFile open) {
    }

    /**
     * Keeps the bytes of a file just opened when it is small and settled: read from the open file between two looks
     * at its name that agree, with a change time at least {@link #SETTLED_MILLIS} old.
     *
     * @param root      the real root, held open
     * @param relative  the key, as for {@link #lookup}
     * @param candidate the root resolved with {@code relative}
     * @param opened    the file opened below its root; closed here when its bytes are kept
     * @return the file in memory when kept, else {@code opened}, still open (read only by position, so what the
     *         caller sends from it does not depend on this read)
     */
    OpenFile offer(RootDirectory root, String relative, Path candidate, OpenFile opened) {
        long size = opened.size();
        if (size > maxFileSize || size + ENTRY_OVERHEAD > capacity) {
            return opened;
        }
        byte[] content;
        Map<String, Object> before;
        try {
            long readAt = System.currentTimeMillis();
            before = look(candidate);
            if (!(before.get("size") instanceof Long s && s == size)
                    || ((FileTime) before.get("ctime")).toMillis() > readAt - settledMillis) {
                return opened;
            }
            content = readAll(opened, (int) size);
            if (content == null || !before.equals(look(candidate))) {
                return opened;
            }
        } catch (IOException e) {
            // the look failed (the name is gone meanwhile): the open file answers as it would have
            return opened;
        }
        Entry kept = new Entry(root, relative, candidate, content, before, null);
        put(kept);
        try {
            opened.close();
        } catch (IOException e) {
            // opened read-only: nothing is lost
        }
        // the time the hits will answer with, so that this answer and theirs carry one validator
        return OpenFile.inMemory(content, kept.modified.toMillis());
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

    /** Keeps {@code e} in place of what its root had at its name, when the clock hand makes room for it. */
    private synchronized void put(Entry e) {
        Entry first = entries.get(e.relative);
        Entry old = find(first, e.root);
        Entry chain = e;
        for (Entry o = first; o != null; o = o.next) {
            if (o != old) {
                chain = o.withNext(chain);
            }
        }
        entries.put(e.relative, chain);
        bytes += e.cost() - (old == null ? 0 : old.cost());
        files += old == null ? 1 : 0;
        if (!makeRoom(e.relative) && removeEntry(e.relative, e.root)) {
            // turned away: what was kept is worth more than the newcomer
            bytes -= e.cost();
            files--;
        }
    }

    private static Entry find(Entry first, RootDirectory root) {
        Entry e = first;
        while (e != null && e.root != root) {
            e = e.next;
        }
        return e;
    }

    private synchronized void remove(Entry e) {
        if (find(entries.get(e.relative), e.root) == e && removeEntry(e.relative, e.root)) {
            bytes -= e.cost();
            files--;
        }
    }

    /** Takes the entry of {@code root} out of the chain at {@code relative}; its bytes are the caller's to count. */
    private boolean removeEntry(String relative, RootDirectory root) {
        Entry first = entries.get(relative);
        if (find(first, root) == null) {
            return false;
        }
        Entry chain = null;
        for (Entry o = first; o != null; o = o.next) {
            if (o.root != root) {
                chain = chain == null ? o.withNext(null) : o.withNext(chain);
            }
        }
        if (chain == null) {
            entries.remove(relative);
        } else {
            entries.put(relative, chain);
        }
        return true;
    }

    /**
     * Over capacity: the clock hand clears the mark of each file hit since it last passed and evicts the ones it
     * finds unmarked (never the newcomer's name), looking at {@link #HAND_STEPS} names for each evicted one.
     *
     * @return whether the bound holds again; if not, the caller turns the newcomer away, so the bound holds anyway
     */
    private boolean makeRoom(String keep) {
        int steps = 0;
        while (bytes > capacity) {
            if (steps++ >= HAND_STEPS) {
                return false;
            }
            if (hand == null || !hand.hasNext()) {
                hand = entries.entrySet().iterator();
            }
            Map.Entry<String, Entry> next = hand.next();
            if (next.getKey().equals(keep)) {
                continue;
            }
            boolean used = false;
            for (Entry e = next.getValue(); e != null; e = e.next) {
                used |= e.used;
                e.used = false;
            }
            if (!used && entries.remove(next.getKey(), next.getValue())) {
                for (Entry e = next.getValue(); e != null; e = e.next) {
                    bytes -= e.cost();
                    files--;
                }
                steps = 0;
            }
        }
        return true;
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
    public synchronized int files() {
        return files;
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
