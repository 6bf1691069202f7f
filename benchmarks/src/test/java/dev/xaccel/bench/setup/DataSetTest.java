package dev.xaccel.bench.setup;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

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

    private static long count(Path dir) throws Exception {
        try (Stream<Path> s = Files.list(dir)) {
            return s.count();
        }
    }
}
