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

    private static long count(Path dir) throws Exception {
        try (Stream<Path> s = Files.list(dir)) {
            return s.count();
        }
    }
}
