package dev.xaccel.bench.setup;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.SplittableRandom;

import dev.xaccel.bench.run.FileSet;
import dev.xaccel.bench.run.Log;

/**
 * The files every setup serves, in {@code work/data/files}: {@code big.bin} of the large-file size,
 * {@code small-000.bin} ... of the small-file size, the deep sets ({@link FileSet}:
 * {@code deep/<size>/files/file-000.bin} ...) and the spread sets ({@code spread-<size>/Author000/Title00/chapter.bin}
 * ...), random bytes. Kept between runs while names and sizes match; read
 * once before the run so that every setup serves them from the page cache.
 */
public final class DataSet {

    public static final String BIG = "big.bin";

    private final Path dir;
    private final int smallCount;
    private final List<FileSet> deep;

    private DataSet(Path dir, int smallCount, List<FileSet> deep) {
        this.dir = dir;
        this.smallCount = smallCount;
        this.deep = List.copyOf(deep);
    }

    /** Creates what is missing or of another size, warms the page cache, and returns the data set. */
    public static DataSet prepare(Path files, long bigBytes, int smallCount, long smallBytes, String sizeText) {
        return prepare(files, bigBytes, smallCount, smallBytes, sizeText, List.of());
    }

    /** The same with the deep and spread sets {@code deep}. */
    public static DataSet prepare(Path files, long bigBytes, int smallCount, long smallBytes, String sizeText,
            List<FileSet> deep) {
        try {
            Files.createDirectories(files);
            Path big = files.resolve(BIG);
            if (!Files.exists(big) || Files.size(big) != bigBytes) {
                Log.info("creating " + sizeText + " of random data in " + big);
                write(big, bigBytes, new SplittableRandom());
            }
            if (!smallFilesMatch(files, smallCount, smallBytes)) {
                deleteSmall(files);
                SplittableRandom random = new SplittableRandom();
                for (int i = 0; i < smallCount; i++) {
                    write(files.resolve(smallName(i)), smallBytes, random);
                }
            }
            for (FileSet set : deep) {
                if (set.spread()) {
                    prepareSpread(files, set);
                } else {
                    prepareDeep(files, set);
                }
            }
            DataSet d = new DataSet(files.toRealPath(), smallCount, deep);
            d.warmPageCache();
            return d;
        } catch (IOException e) {
            throw new UncheckedIOException("preparing the data in " + files, e);
        }
    }

    static String smallName(int i) {
        return String.format("small-%03d.bin", i);
    }

    /** The directory, with symbolic links resolved (what nginx's alias and the filter's mapping get). */
    public Path dir() {
        return dir;
    }

    public Path file(String name) {
        return dir.resolve(name);
    }

    int smallCount() {
        return smallCount;
    }

    /** A file of a set: its path relative to the root, resolved. */
    public Path file(FileSet set, int i) {
        return dir.resolve(set.path(i));
    }

    private void warmPageCache() throws IOException {
        byte[] buf = new byte[1 << 20];
        warm(dir, buf);
        for (FileSet set : deep) {
            if (set.spread()) {
                for (int i = 0; i < set.count(); i++) {
                    read(dir.resolve(set.path(i)), buf);
                }
            } else {
                warm(dir.resolve(set.directory()), buf);
            }
        }
    }

    private static void read(Path f, byte[] buf) throws IOException {
        try (InputStream in = Files.newInputStream(f)) {
            while (in.read(buf) >= 0) {
                // only reading
            }
        }
    }

    private static void warm(Path directory, byte[] buf) throws IOException {
        try (DirectoryStream<Path> s = Files.newDirectoryStream(directory, "*.bin")) {
            for (Path f : s) {
                try (InputStream in = Files.newInputStream(f)) {
                    while (in.read(buf) >= 0) {
                        // only reading
                    }
                }
            }
        }
    }

    /**
     * Every file of a spread set at its path with its size; a missing or wrong one is written (directories of a
     * larger {@code --spread-dirs} of an earlier run are left: no request reaches them).
     */
    private static void prepareSpread(Path files, FileSet set) throws IOException {
        SplittableRandom random = new SplittableRandom();
        int written = 0;
        for (int i = 0; i < set.count(); i++) {
            Path f = files.resolve(set.path(i));
            if (Files.isRegularFile(f, LinkOption.NOFOLLOW_LINKS) && Files.size(f) == set.bytes()) {
                continue;
            }
            if (written++ == 0) {
                Log.info("creating " + set.count() + " files of " + set.size() + " in as many directories below "
                        + files.resolve(set.directory()));
            }
            Files.createDirectories(f.getParent());
            write(f, set.bytes(), random);
        }
    }

    /** Exactly the set's files of its size in its directory, else the directory written anew. */
    private static void prepareDeep(Path files, FileSet set) throws IOException {
        Path d = files.resolve(set.directory());
        Files.createDirectories(d);
        Set<String> expected = new HashSet<>();
        for (int i = 0; i < set.count(); i++) {
            expected.add(files.resolve(set.path(i)).getFileName().toString());
        }
        Set<String> found = new HashSet<>();
        boolean sizes = true;
        try (DirectoryStream<Path> s = Files.newDirectoryStream(d)) {
            for (Path f : s) {
                found.add(f.getFileName().toString());
                sizes &= Files.isRegularFile(f) && Files.size(f) == set.bytes();
            }
        }
        if (sizes && found.equals(expected)) {
            return;
        }
        Log.info("creating " + set.count() + " files of " + set.size() + " in " + d);
        try (DirectoryStream<Path> s = Files.newDirectoryStream(d)) {
            for (Path f : s) {
                Files.delete(f);
            }
        }
        SplittableRandom random = new SplittableRandom();
        for (int i = 0; i < set.count(); i++) {
            write(files.resolve(set.path(i)), set.bytes(), random);
        }
    }

    /** Exactly small-000.bin ... of the count, each of the size (BenchServer signs a link for every one there is). */
    private static boolean smallFilesMatch(Path files, int count, long bytes) throws IOException {
        Set<String> expected = new HashSet<>();
        for (int i = 0; i < count; i++) {
            expected.add(smallName(i));
        }
        Set<String> found = new HashSet<>();
        try (DirectoryStream<Path> s = Files.newDirectoryStream(files, "small-*.bin")) {
            for (Path f : s) {
                if (Files.size(f) != bytes) {
                    return false;
                }
                found.add(f.getFileName().toString());
            }
        }
        return found.equals(expected);
    }

    private static void deleteSmall(Path files) throws IOException {
        // .small-* are the markers of earlier versions of the harness
        try (DirectoryStream<Path> s = Files.newDirectoryStream(files, "{small-*.bin,.small-*}")) {
            for (Path f : s) {
                Files.delete(f);
            }
        }
    }

    private static void write(Path target, long bytes, SplittableRandom random) throws IOException {
        Path tmp = target.resolveSibling(target.getFileName() + ".tmp");
        byte[] buf = new byte[1 << 20];
        try (OutputStream out = Files.newOutputStream(tmp)) {
            for (long left = bytes; left > 0; left -= buf.length) {
                for (int i = 0; i < buf.length; i += 8) {
                    long r = random.nextLong();
                    for (int k = 0; k < 8; k++) {
                        buf[i + k] = (byte) (r >>> (8 * k));
                    }
                }
                out.write(buf, 0, (int) Math.min(buf.length, left));
            }
        }
        Files.move(tmp, target, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    }
}
