package dev.xaccel.filter.internal.fs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.ClosedDirectoryStreamException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.SecureDirectoryStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import dev.xaccel.filter.SymlinkPolicy;
import dev.xaccel.testsupport.OpenFiles;
import dev.xaccel.testsupport.fs.SymlinkSwapper;

/** The directories below a root held open, on Linux's real file system: kept, replaced, refused, bounded. */
class HeldDirectoriesTest {

    /** A small capacity, so that the bound is reached with few directories. */
    private static final int CAPACITY = 64;

    @TempDir
    Path tmp;
    Path root;
    Path outside;
    SecureDirectoryStream<Path> rootStream;
    HeldDirectories held;

    @BeforeEach
    void tree() throws IOException {
        root = Files.createDirectory(tmp.resolve("root")).toRealPath();
        Files.createDirectories(root.resolve("a/b/c"));
        Files.writeString(root.resolve("a/b/c/song.mp3"), "inside");
        outside = Files.createDirectories(tmp.resolve("outside/c")).getParent();
        Files.writeString(outside.resolve("c/song.mp3"), "secret");
        rootStream = (SecureDirectoryStream<Path>) Files.newDirectoryStream(root);
        held = new HeldDirectories(rootStream, CAPACITY);
    }

    @AfterEach
    void close() throws IOException {
        held.close();
        rootStream.close();
    }

    @Test
    void eachDirectoryOnTheWayIsOpenedOnceAndKept() throws IOException {
        SecureDirectoryStream<Path> c = held.directory("a/b/c");
        assertSame(c, held.directory("a/b/c"));
        assertEquals(3, held.size(), "a, a/b and a/b/c");
        assertEquals("inside", read(c, "song.mp3"));
        SecureDirectoryStream<Path> b = held.directory("a/b");
        assertSame(b, held.directory("a/b"));
        assertEquals(3, held.size());
    }

    /** A directory in the middle of the way replaced by renames: the one now at the name is used, the old closed. */
    @Test
    void aDirectoryReplacedOnTheWayIsOpenedAgain() throws IOException {
        SecureDirectoryStream<Path> old = held.directory("a/b/c");
        Files.move(root.resolve("a/b"), root.resolve("a/b.old"));
        Files.createDirectories(root.resolve("a/b/c"));
        Files.writeString(root.resolve("a/b/c/song.mp3"), "new");

        SecureDirectoryStream<Path> now = held.directory("a/b/c");
        assertNotSame(old, now);
        assertEquals("new", read(now, "song.mp3"));
        assertThrows(ClosedDirectoryStreamException.class, () -> old.newDirectoryStream(Path.of("x")),
                "the directory no longer at its name is closed, not leaked");
    }

    @Test
    void aDirectoryRemovedAndMadeAgainIsTheNewOne() throws IOException {
        held.directory("a/b/c");
        Files.delete(root.resolve("a/b/c/song.mp3"));
        Files.delete(root.resolve("a/b/c"));
        Files.createDirectory(root.resolve("a/b/c"));
        Files.writeString(root.resolve("a/b/c/song.mp3"), "again");
        assertEquals("again", read(held.directory("a/b/c"), "song.mp3"));
    }

    /** A link put where a directory was is not followed: the open fails as opening the names one by one would. */
    @Test
    void aLinkInPlaceOfAHeldDirectoryIsNotFollowed() throws IOException {
        held.directory("a/b/c");
        Files.move(root.resolve("a/b"), root.resolve("a/b.old"));
        Files.createSymbolicLink(root.resolve("a/b"), outside);
        assertThrows(FileSystemException.class, () -> held.directory("a/b/c"));
        assertThrows(FileSystemException.class, () -> held.directory("a/b"));

        Files.delete(root.resolve("a/b"));
        assertThrows(NoSuchFileException.class, () -> held.directory("a/b/c"));
        Files.move(root.resolve("a/b.old"), root.resolve("a/b"));
        assertEquals("inside", read(held.directory("a/b/c"), "song.mp3"), "the directory back at its name");
    }

    @Test
    void atMostCapacityDirectoriesAreHeldAndEveryFileIsStillFound() throws IOException {
        List<String> dirs = new ArrayList<>();
        for (int i = 0; i < CAPACITY * 2; i++) {
            String dir = String.format("many/d%03d", i);
            Files.createDirectories(root.resolve(dir));
            Files.writeString(root.resolve(dir + "/f"), dir);
            dirs.add(dir);
        }
        for (int round = 0; round < 2; round++) {
            for (String dir : dirs) {
                assertEquals(dir, read(held.directory(dir), "f"));
                assertTrue(held.size() <= CAPACITY, () -> held.size() + " held");
            }
        }
        if (OpenFiles.available()) {
            long heldBelow = OpenFiles.targets(OpenFiles.self()).stream().filter(t -> t.startsWith(root + "/")).count();
            assertTrue(heldBelow <= 2L * CAPACITY, heldBelow + " descriptors below the root");
        }
        held.close();
        assertEquals(0, held.size());
        if (OpenFiles.available()) {
            assertFalse(OpenFiles.targets(OpenFiles.self()).stream().anyMatch(t -> t.startsWith(root + "/")),
                    "closed: nothing below the root held");
        }
    }

    /**
     * The clock: directories used again since the hand last passed stay held while a scan of many others goes
     * through, so a library's popular books are not closed by one visitor reading every other book once.
     */
    @Test
    void directoriesInUseOutliveAScanOfManyOthers() throws IOException {
        List<String> hot = new ArrayList<>();
        for (int i = 0; i < CAPACITY / 4; i++) {
            String dir = String.format("hot/h%02d", i);
            Files.createDirectories(root.resolve(dir));
            hot.add(dir);
        }
        for (int i = 0; i < CAPACITY * 4; i++) {
            Files.createDirectories(root.resolve(String.format("cold/c%03d", i)));
        }
        List<SecureDirectoryStream<Path>> first = new ArrayList<>();
        for (String dir : hot) {
            first.add(held.directory(dir));
        }
        for (int i = 0; i < CAPACITY * 4; i++) {
            held.directory(String.format("cold/c%03d", i));
            assertTrue(held.size() <= CAPACITY, () -> held.size() + " held");
            if (i % 8 == 0) {
                for (String dir : hot) {
                    held.directory(dir);
                }
            }
        }
        for (int i = 0; i < hot.size(); i++) {
            assertSame(first.get(i), held.directory(hot.get(i)), hot.get(i) + " was closed and opened again");
        }
    }

    /** {@code heldDirectories} as the bound: one directory held, every file still found; at 0 none held at all. */
    @Test
    void theBoundIsTheOptionDownToOneAndZeroHoldsNone() throws IOException {
        Files.createDirectories(root.resolve("x/y"));
        Files.writeString(root.resolve("x/y/f"), "xy");
        try (HeldDirectories one = new HeldDirectories(rootStream, 1)) {
            assertEquals("inside", read(one.directory("a/b/c"), "song.mp3"));
            assertEquals("xy", read(one.directory("x/y"), "f"));
            assertEquals(1, one.size());
        }
        RootDirectory none = new RootDirectory(root, 0);
        try {
            assertEquals(null, none.directory("a/b/c"), "nothing below the root held");
            assertTrue(none.directory("") != null, "the root itself still is");
        } finally {
            none.close();
        }
        SafePathResolver resolver = new SafePathResolver(root, false, SymlinkPolicy.NEVER, 0, null);
        try {
            Opening opening = resolver.open("a/b/c/song.mp3");
            assertTrue(opening.isOpen(), () -> opening.resolution().toString());
            assertEquals("inside", read(opening.file()), "opened by the careful path");
            if (OpenFiles.available()) {
                assertFalse(OpenFiles.targets(OpenFiles.self()).stream().anyMatch(t -> t.startsWith(root + "/a")),
                        "no directory below the root held");
            }
        } finally {
            resolver.directory().close();
        }
    }

    /** Threads opening files in more directories than are held, so that each closes directories others use. */
    @Test
    void concurrentOpensInMoreDirectoriesThanAreHeldAllSucceed() throws Exception {
        int dirs = CAPACITY * 2;
        for (int i = 0; i < dirs; i++) {
            Path dir = Files.createDirectories(root.resolve(String.format("x/y%02d/z", i)));
            Files.writeString(dir.resolve("f.bin"), "file " + i);
        }
        SafePathResolver resolver = new SafePathResolver(root, false, SymlinkPolicy.NEVER, CAPACITY, null);
        ExecutorService pool = Executors.newFixedThreadPool(4);
        try {
            List<Future<Integer>> done = new ArrayList<>();
            for (int t = 0; t < 4; t++) {
                int seed = t;
                done.add(pool.submit(() -> {
                    int ok = 0;
                    for (int n = 0; n < 2000; n++) {
                        int i = (n * 7 + seed * 31) % dirs;
                        Opening opening = resolver.open(String.format("x/y%02d/z/f.bin", i));
                        assertTrue(opening.isOpen(), () -> opening.resolution().toString());
                        assertEquals("file " + i, read(opening.file()));
                        ok++;
                    }
                    return ok;
                }));
            }
            for (Future<Integer> f : done) {
                assertEquals(2000, f.get(60, TimeUnit.SECONDS));
            }
        } finally {
            pool.shutdownNow();
            resolver.directory().close();
        }
    }

    /**
     * The resolver's one-pass open through held directories while a directory on the way and a link out of the root
     * are exchanged in a loop: the file inside or a 404, never a byte from outside, under both link policies.
     */
    @Test
    void noByteFromOutsideWhileADirectoryOnTheWayIsSwappedForALink() throws IOException {
        Files.createSymbolicLink(root.resolve("a/b-link"), outside);
        for (SymlinkPolicy policy : new SymlinkPolicy[] {SymlinkPolicy.NEVER, SymlinkPolicy.WITHIN_ROOT}) {
            SafePathResolver resolver = new SafePathResolver(root, false, policy);
            int inside = 0;
            int refused = 0;
            Set<String> reasons = new TreeSet<>();
            long swaps;
            try (SymlinkSwapper swapper = SymlinkSwapper.start(root.resolve("a/b"), root.resolve("a/b-link"))) {
                // until both outcomes and enough swaps were seen, not a fixed count of opens: a loaded machine may
                // starve the swapper for longer than 3,000 opens take, with either name in place all that time
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
                for (int i = 0; (i < 3000 || swapper.swaps() < 500 || inside == 0 || refused == 0)
                        && System.nanoTime() < deadline; i++) {
                    Opening opening = resolver.open("a/b/c/song.mp3");
                    if (opening.isOpen()) {
                        assertEquals("inside", read(opening.file()), policy + ": a byte from outside the root");
                        inside++;
                    } else {
                        assertEquals(404, opening.resolution().status());
                        reasons.add(opening.resolution().toString());
                        refused++;
                    }
                }
                swaps = swapper.swaps();
            } finally {
                resolver.directory().close();
            }
            assertTrue(swaps >= 500, policy + ": only " + swaps + " swaps");
            assertTrue(inside > 0 && refused > 0,
                    policy + ": " + inside + " inside, " + refused + " refused " + reasons);
        }
    }

    private static String read(SecureDirectoryStream<Path> dir, String name) throws IOException {
        try (var ch = dir.newByteChannel(Path.of(name), java.util.Set.of(java.nio.file.StandardOpenOption.READ))) {
            ByteBuffer b = ByteBuffer.allocate((int) ch.size());
            ch.read(b);
            return new String(b.array(), StandardCharsets.UTF_8);
        }
    }

    private static String read(OpenFile file) throws IOException {
        try (file) {
            ByteBuffer b = ByteBuffer.allocate((int) file.size());
            file.channel().read(b, 0);
            return new String(b.array(), StandardCharsets.UTF_8);
        }
    }
}
