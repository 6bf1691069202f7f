package dev.xaccel.bench.setup;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import dev.xaccel.bench.run.FileSet;

class DataSetTest {

    @Test
    void createsKeepsAndRepairsTheFiles(@TempDir Path dir) throws Exception {
        Path files = dir.resolve("files");
        DataSet d = DataSet.prepare(files, 3000, 5, 100, "3000");
        assertEquals(3000, Files.size(d.file(DataSet.BIG)));
        assertEquals(100, Files.size(d.file("small-004.bin")));
        assertEquals(6, count(files));
        byte[] kept = Files.readAllBytes(d.file("small-002.bin"));

        DataSet.prepare(files, 3000, 5, 100, "3000");
        assertArrayEquals(kept, Files.readAllBytes(d.file("small-002.bin")), "unchanged files are kept");

        Files.delete(d.file("small-003.bin"));
        Files.writeString(files.resolve(".small-5-100"), ""); // an old harness's marker
        DataSet.prepare(files, 4096, 3, 100, "4K");
        assertEquals(4096, Files.size(d.file(DataSet.BIG)));
        assertTrue(Files.exists(d.file("small-002.bin")));
        assertFalse(Files.exists(d.file("small-003.bin")), "no file beyond the count");
        assertFalse(Files.exists(files.resolve(".small-5-100")));
        assertEquals(4, count(files));
    }

    @Test
    void deepSetsLieThreeDirectoriesBelowTheRootAndAreKeptOrRewritten(@TempDir Path dir) throws Exception {
        Path files = dir.resolve("files");
        FileSet small = new FileSet("1K", 1024, true, 3);
        FileSet large = new FileSet("4K", 4096, true, 2);
        DataSet d = DataSet.prepare(files, 100, 2, 10, "100", List.of(small, large));
        assertEquals(files.toRealPath().resolve("deep/1K/files/file-002.bin"), d.file(small, 2));
        assertEquals(1024, Files.size(d.file(small, 2)));
        assertEquals(4096, Files.size(d.file(large, 1)));
        assertEquals(3, count(d.file(small, 0).getParent()));
        byte[] kept = Files.readAllBytes(d.file(small, 1));

        DataSet.prepare(files, 100, 2, 10, "100", List.of(small, large));
        assertArrayEquals(kept, Files.readAllBytes(d.file(small, 1)), "unchanged files are kept");

        Files.writeString(d.file(large, 0), "short");
        DataSet.prepare(files, 100, 2, 10, "100", List.of(small, new FileSet("4K", 4096, true, 1)));
        assertEquals(4096, Files.size(d.file(large, 0)), "a file of another size is written anew");
        assertEquals(1, count(d.file(large, 0).getParent()), "no file beyond the count");
    }

    @Test
    void aSpreadSetHasOneFilePerDirectoryAtTheDepthOfTheDeepSets(@TempDir Path dir) throws Exception {
        Path files = dir.resolve("files");
        FileSet spread = new FileSet("1K", 1024, FileSet.Layout.SPREAD, 25);
        DataSet d = DataSet.prepare(files, 100, 2, 10, "100", List.of(spread));
        assertEquals(files.toRealPath().resolve("spread-1K/Author002/Title04/chapter.bin"), d.file(spread, 24));
        assertEquals(3, count(files.resolve("spread-1K")), "authors 0-2");
        assertEquals(10, count(files.resolve("spread-1K/Author000")));
        assertEquals(5, count(files.resolve("spread-1K/Author002")));
        for (int i = 0; i < 25; i++) {
            assertEquals(1, count(d.file(spread, i).getParent()), "one file per directory");
            assertEquals(1024, Files.size(d.file(spread, i)));
        }
        assertEquals(d.file(new FileSet("1K", 1024, true, 1), 0).getNameCount(), d.file(spread, 0).getNameCount(),
                "as deep as the one-directory set");
        byte[] kept = Files.readAllBytes(d.file(spread, 3));
        Files.writeString(d.file(spread, 7), "short");
        Files.delete(d.file(spread, 8));
        DataSet.prepare(files, 100, 2, 10, "100", List.of(spread));
        assertArrayEquals(kept, Files.readAllBytes(d.file(spread, 3)), "unchanged files are kept");
        assertEquals(1024, Files.size(d.file(spread, 7)), "a file of another size is written anew");
        assertEquals(1024, Files.size(d.file(spread, 8)), "a missing one too");
    }

    private static long count(Path dir) throws Exception {
        try (Stream<Path> s = Files.list(dir)) {
            return s.count();
        }
    }
}
