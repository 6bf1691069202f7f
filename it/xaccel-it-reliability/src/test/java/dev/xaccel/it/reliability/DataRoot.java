package dev.xaccel.it.reliability;

import dev.xaccel.testsupport.TestPaths;
import dev.xaccel.testsupport.load.StreamingGet;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * The data root of a scenario, {@code target/<name>/media} (a real path): {@value #SMALL} small files of 50 KiB
 * ({@code small-00.bin} ...) and one large file ({@code large.bin}) of a given size, each of its own pseudo-random
 * content, with their SHA-256.
 */
final class DataRoot {

    static final int SMALL = 20;
    static final int SMALL_BYTES = 50 * 1024;
    static final String LARGE = "large.bin";

    final Path dir;
    final List<String> smallHashes = new ArrayList<>();
    final String largeHash;
    final long largeBytes;

    private DataRoot(Path dir, String largeHash, long largeBytes) {
        this.dir = dir;
        this.largeHash = largeHash;
        this.largeBytes = largeBytes;
    }

    static DataRoot create(String name, long largeBytes) throws IOException {
        Path dir = TestPaths.freshDir(name + "/media").toRealPath();
        Random random = new Random(name.hashCode());
        List<String> small = new ArrayList<>();
        for (int i = 0; i < SMALL; i++) {
            byte[] b = new byte[SMALL_BYTES];
            random.nextBytes(b);
            Files.write(dir.resolve(small(i)), b);
            small.add(StreamingGet.sha256(b));
        }
        write(dir.resolve(LARGE), largeBytes, random);
        DataRoot root = new DataRoot(dir, StreamingGet.sha256(dir.resolve(LARGE)), largeBytes);
        root.smallHashes.addAll(small);
        return root;
    }

    /** Writes {@code bytes} of pseudo-random content to {@code file}. */
    static void write(Path file, long bytes, Random random) throws IOException {
        byte[] chunk = new byte[1 << 20];
        try (OutputStream out = Files.newOutputStream(file)) {
            for (long left = bytes; left > 0; left -= chunk.length) {
                random.nextBytes(chunk);
                out.write(chunk, 0, (int) Math.min(chunk.length, left));
            }
        }
    }

    static String small(int i) {
        return String.format("small-%02d.bin", i);
    }

    Path file(String name) {
        return dir.resolve(name);
    }
}
