package dev.xaccel.filter.internal.fs;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.FileTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import dev.xaccel.filter.SymlinkPolicy;

/**
 * The small-file cache behind the resolver's one-pass open, on Linux's real file system: kept only when settled,
 * answered from memory only while the file at its name is unchanged, bounded in bytes under churn, hot files kept.
 */
class SmallFileCacheTest {

    @TempDir
    Path tmp;
    Path root;
    SafePathResolver resolver;
    /** The cache {@link #resolver} uses, for a second resolver sharing it. */
    SmallFileCache shared;

    @BeforeEach
    void tree() throws IOException {
        root = Files.createDirectory(tmp.resolve("root")).toRealPath();
    }

    @AfterEach
    void close() {
        if (resolver != null) {
            resolver.directory().close();
        }
    }

    private SmallFileCache cache(long capacity, int maxFileSize, long settledMillis) throws IOException {
        SmallFileCache cache = new SmallFileCache(capacity, maxFileSize, settledMillis);
        shared = cache;
        resolver = new SafePathResolver(root, false, SymlinkPolicy.NEVER, 64, cache);
        return cache;
    }

    /** What the resolver answers, and whether from memory. */
    private record Read(byte[] bytes, boolean memory) {
    }

    private Read read(String path) throws IOException {
        return read(resolver, path);
    }

    private static Read read(SafePathResolver resolver, String path) throws IOException {
        Opening opening = resolver.open(path);
        assertTrue(opening.isOpen(), () -> path + ": " + opening.resolution());
        try (OpenFile file = opening.file()) {
            if (file.content() != null) {
                return new Read(file.content(), true);
            }
            ByteBuffer b = ByteBuffer.allocate((int) file.size());
            while (b.hasRemaining() && file.channel().read(b, b.position()) >= 0) {
                // until full
            }
            return new Read(b.array(), false);
        }
    }

    private Path write(String path, byte[] bytes, long ageMillis) throws IOException {
        Path file = root.resolve(path);
        Files.createDirectories(file.getParent());
        Files.write(file, bytes);
        Files.setLastModifiedTime(file, FileTime.fromMillis(System.currentTimeMillis() - ageMillis));
        return file;
    }

    /** Just written: read from the disk each time; a second later it is kept, then answered from memory. */
    @Test
    void aFileChangedWithinTheLastSecondIsNotKept() throws Exception {
        SmallFileCache cache = cache(1 << 20, 65536, SmallFileCache.SETTLED_MILLIS);
        byte[] v1 = "first".getBytes();
        // an old modification time does not make it settled: the change time (which no one can set) is now
        write("a/b/song.txt", v1, 60_000);
        assertEquals(false, read("a/b/song.txt").memory());
        assertEquals(false, read("a/b/song.txt").memory(), "not kept within the second");
        assertEquals(0, cache.files());
        Thread.sleep(SmallFileCache.SETTLED_MILLIS + 200);
        Read kept = read("a/b/song.txt");
        assertArrayEquals(v1, kept.bytes());
        assertEquals(0, cache.hits(), "read from the disk, then kept");
        Read hit = read("a/b/song.txt");
        assertTrue(hit.memory(), "settled and kept");
        assertArrayEquals(v1, hit.bytes());
        assertEquals(1, cache.hits());
        assertEquals(1, cache.files());
        assertEquals(v1.length + SmallFileCache.ENTRY_OVERHEAD, cache.bytes());
    }

    /** Each change of a kept file is seen on the next read: written in place, same size, same modification time. */
    @Test
    void aKeptFileWrittenInPlaceWithItsOldTimeIsReadAgain() throws Exception {
        SmallFileCache cache = cache(1 << 20, 65536, SmallFileCache.SETTLED_MILLIS);
        Path file = write("song.txt", "AAAA".getBytes(), 60_000);
        FileTime mtime = Files.getLastModifiedTime(file);
        Thread.sleep(SmallFileCache.SETTLED_MILLIS + 200);
        read("song.txt");
        assertTrue(read("song.txt").memory());
        Files.write(file, "BBBB".getBytes());
        Files.setLastModifiedTime(file, mtime);
        Read again = read("song.txt");
        assertArrayEquals("BBBB".getBytes(), again.bytes());
        assertEquals(false, again.memory(), "the change time told it");
        assertEquals(0, cache.files(), "the stale bytes dropped; the new ones are not settled yet");
    }

    /** Files larger than the per-file limit are never kept. */
    @Test
    void largerThanTheLimitIsNeverKept() throws Exception {
        SmallFileCache cache = cache(1 << 20, 100, 0);
        write("big.bin", new byte[101], 0);
        write("small.bin", new byte[100], 0);
        read("big.bin");
        read("small.bin");
        assertEquals(false, read("big.bin").memory());
        assertEquals(true, read("small.bin").memory());
        assertEquals(100 + SmallFileCache.ENTRY_OVERHEAD, cache.bytes());
    }

    /** Each kept file counts its overhead too: a thousand one-byte files cannot hold a thousand entries' memory. */
    @Test
    void tinyFilesCountWhatKeepsThem() throws Exception {
        long capacity = 10L * (1 + SmallFileCache.ENTRY_OVERHEAD);
        SmallFileCache cache = cache(capacity, 100, 0);
        for (int i = 0; i < 1000; i++) {
            write("tiny/t" + i, new byte[] {(byte) i}, 0);
        }
        for (int i = 0; i < 1000; i++) {
            assertEquals((byte) i, read("tiny/t" + i).bytes()[0]);
            assertTrue(cache.files() <= 10, () -> cache.files() + " files kept");
        }
        assertEquals(capacity, cache.bytes(), "full, to the byte");
    }

    /**
     * Threads reading 400 files of up to 4 KiB through a cache of 64 KiB: every answer has the file's bytes, and the
     * bytes kept never exceed the bound, looked at by another thread all along.
     */
    @Test
    void theBoundHoldsUnderChurnOfManyFiles() throws Exception {
        long capacity = 64 * 1024;
        SmallFileCache cache = cache(capacity, 4096, 0);
        Random random = new Random(34);
        List<byte[]> contents = new ArrayList<>();
        for (int i = 0; i < 400; i++) {
            byte[] b = new byte[1 + random.nextInt(4096)];
            random.nextBytes(b);
            contents.add(b);
            write(String.format("d%02d/f%03d.bin", i % 40, i), b, 0);
        }
        AtomicBoolean done = new AtomicBoolean();
        AtomicLong most = new AtomicLong();
        Thread watcher = new Thread(() -> {
            while (!done.get()) {
                most.accumulateAndGet(cache.bytes(), Math::max);
            }
        });
        watcher.start();
        ExecutorService pool = Executors.newFixedThreadPool(4);
        try {
            List<Future<Integer>> futures = new ArrayList<>();
            for (int t = 0; t < 4; t++) {
                int seed = t;
                futures.add(pool.submit(() -> {
                    Random r = new Random(seed);
                    for (int n = 0; n < 3000; n++) {
                        int i = r.nextInt(contents.size());
                        assertArrayEquals(contents.get(i), read(String.format("d%02d/f%03d.bin", i % 40, i)).bytes());
                        assertTrue(cache.bytes() <= capacity, () -> cache.bytes() + " bytes kept");
                    }
                    return 3000;
                }));
            }
            for (Future<Integer> f : futures) {
                assertEquals(3000, f.get(120, TimeUnit.SECONDS));
            }
        } finally {
            pool.shutdownNow();
            done.set(true);
            watcher.join();
        }
        assertTrue(most.get() <= capacity, most.get() + " bytes kept at most");
        assertTrue(most.get() > capacity / 2, "the cache was filled: " + most.get());
        assertTrue(cache.hits() > 0 && cache.misses() > 0, cache.hits() + " hits, " + cache.misses() + " misses");
    }

    /** The clock: files hit again between the others' reads stay kept while a scan of many others goes through. */
    @Test
    void hotFilesOutliveAScanOfManyOthers() throws Exception {
        SmallFileCache cache = cache(16 * 1024, 1024, 0);
        for (int i = 0; i < 4; i++) {
            write("hot/h" + i, new byte[1024], 0);
        }
        for (int i = 0; i < 200; i++) {
            write("cold/c" + i, new byte[1024], 0);
        }
        for (int i = 0; i < 4; i++) {
            read("hot/h" + i);
        }
        for (int i = 0; i < 200; i++) {
            read("cold/c" + i);
            for (int h = 0; h < 4; h++) {
                assertTrue(read("hot/h" + h).memory(), "hot/h" + h + " evicted at cold/c" + i);
            }
        }
        assertTrue(cache.bytes() <= 16 * 1024);
    }

    /**
     * A set of files a little larger than the cache, read round and round (a library's chapters, in order): the files
     * kept stay kept and answer from memory, the newcomers are turned away, where evicting for each newcomer would
     * have evicted every file just before its next read.
     */
    @Test
    void aSetALittleLargerThanTheCacheKeepsMostOfIt() throws Exception {
        int files = 40;
        long capacity = 36L * (1024 + SmallFileCache.ENTRY_OVERHEAD);
        SmallFileCache cache = cache(capacity, 1024, 0);
        for (int i = 0; i < files; i++) {
            write(String.format("a%02d/t/chapter.bin", i), new byte[1024], 0);
        }
        for (int round = 0; round < 2; round++) {
            for (int i = 0; i < files; i++) {
                read(String.format("a%02d/t/chapter.bin", i));
            }
        }
        long hitsBefore = cache.hits();
        for (int round = 0; round < 5; round++) {
            for (int i = 0; i < files; i++) {
                read(String.format("a%02d/t/chapter.bin", i));
                assertTrue(cache.bytes() <= capacity, () -> cache.bytes() + " bytes kept");
            }
        }
        long hits = cache.hits() - hitsBefore;
        assertTrue(hits >= 5 * 36 - 5, hits + " of " + 5 * files + " answered from memory");
        assertEquals(36, cache.files(), "full");
    }

    /** One name below two roots sharing the cache (a mapping's root inside a location's): two files, each its own. */
    @Test
    void oneNameBelowTwoRootsIsTwoFiles() throws Exception {
        SmallFileCache cache = cache(1 << 20, 1024, 0);
        write("song.txt", "outer".getBytes(), 0);
        write("inner/song.txt", "inner".getBytes(), 0);
        SafePathResolver inner = new SafePathResolver(root.resolve("inner"), false, SymlinkPolicy.NEVER, 64, shared);
        try {
            for (int i = 0; i < 3; i++) {
                assertArrayEquals("outer".getBytes(), read("song.txt").bytes());
                assertArrayEquals("inner".getBytes(), read(inner, "song.txt").bytes());
            }
            assertEquals(2, cache.files());
            assertEquals(4, cache.hits(), "each answered from memory after its first read");
            Files.write(root.resolve("inner/song.txt"), "INNER".getBytes());
            assertArrayEquals("INNER".getBytes(), read(inner, "song.txt").bytes(), "changed: read again");
            Read outer = read("song.txt");
            assertTrue(outer.memory(), "the other root's file stays kept");
            assertArrayEquals("outer".getBytes(), outer.bytes());
        } finally {
            inner.directory().close();
        }
    }

    /** A kept file removed is refused as before; one replaced by a link to a file outside is not followed. */
    @Test
    void aKeptFileGoneOrSwappedForALinkIsNotAnsweredFromMemory() throws Exception {
        cache(1 << 20, 65536, 0);
        Path outside = Files.writeString(tmp.resolve("secret"), "secret");
        Path file = write("a/song.txt", "inside".getBytes(), 0);
        read("a/song.txt");
        assertTrue(read("a/song.txt").memory());
        Files.delete(file);
        assertEquals(404, resolver.open("a/song.txt").resolution().status());
        write("a/song.txt", "inside".getBytes(), 0);
        read("a/song.txt");
        assertTrue(read("a/song.txt").memory());
        Files.delete(file);
        Files.createSymbolicLink(file, outside);
        Opening linked = resolver.open("a/song.txt");
        assertNull(linked.file(), "policy never: a link is refused, not answered from memory");
        assertEquals(404, linked.resolution().status());
        assertNotNull(linked.resolution());
    }

    /**
     * A hit looks at the file alone, not at the directories on the way: a directory moved out of the root, or swapped
     * for a link to another with a file of the same name and size, is not answered from memory. Moved out and linked
     * back, the very file kept is answered with its kept bytes (no other file's), until it changes there.
     */
    @Test
    void aKeptFilesDirectoryMovedOrSwappedForALink() throws Exception {
        SmallFileCache cache = cache(1 << 20, 65536, 0);
        write("a/b/song.txt", "inside".getBytes(), 0);
        read("a/b/song.txt");
        assertTrue(read("a/b/song.txt").memory());
        Path away = tmp.resolve("away");
        Files.move(root.resolve("a"), away, StandardCopyOption.ATOMIC_MOVE);
        assertEquals(404, resolver.open("a/b/song.txt").resolution().status(), "moved out of the root");

        Path other = Files.createDirectories(tmp.resolve("other/b"));
        Files.writeString(other.resolve("song.txt"), "secret");
        Files.createSymbolicLink(root.resolve("a"), other.getParent());
        Opening swapped = resolver.open("a/b/song.txt");
        assertNull(swapped.file(), "another file behind a link: the careful path refuses it");
        assertEquals(404, swapped.resolution().status());

        Files.delete(root.resolve("a"));
        Files.createDirectories(root.resolve("a"));
        Files.move(away.resolve("b"), root.resolve("a/b"), StandardCopyOption.ATOMIC_MOVE);
        read("a/b/song.txt");
        assertTrue(read("a/b/song.txt").memory(), "back in place, kept again");
        Files.move(root.resolve("a"), away.resolveSibling("away2"), StandardCopyOption.ATOMIC_MOVE);
        Files.createSymbolicLink(root.resolve("a"), away.resolveSibling("away2"));
        long hits = cache.hits();
        Read same = read("a/b/song.txt");
        assertTrue(same.memory(), "the very file kept, unchanged: its kept bytes");
        assertArrayEquals("inside".getBytes(), same.bytes());
        assertEquals(hits + 1, cache.hits());
        Files.writeString(away.resolveSibling("away2/b/song.txt"), "secret");
        Opening changed = resolver.open("a/b/song.txt");
        assertNull(changed.file(), "changed behind the link: refused, neither old nor new bytes");
        assertEquals(404, changed.resolution().status());
    }
}
