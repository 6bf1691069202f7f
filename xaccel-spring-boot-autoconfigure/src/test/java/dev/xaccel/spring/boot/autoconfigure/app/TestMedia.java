package dev.xaccel.spring.boot.autoconfigure.app;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.text.Normalizer;
import java.util.List;
import java.util.Random;

/**
 * The data root of the test application: files with awkward names (blank, {@code #}, {@code %}, {@code ?},
 * {@code +}, the same name in NFC and NFD, non-ASCII, more than 200 bytes), each with its own deterministic
 * content, numbered in {@link #NAMES} order; one of them in a sub directory with a blank.
 */
public final class TestMedia {

    /** Relative paths below the root. */
    public static final List<String> NAMES = List.of(
            "blank name.bin",
            "hash#tag.bin",
            "percent%41 100%.bin",
            "question?mark.bin",
            "plus+sign and =.bin",
            Normalizer.normalize("Café NFC.bin", Normalizer.Form.NFC),
            Normalizer.normalize("Café NFD.bin", Normalizer.Form.NFD),
            "日本語 ファイル.bin",
            "L" + "ü".repeat(110) + ".bin",
            "sub dir/Chapter 1 – intro.mp3");

    private TestMedia() {
    }

    /** Creates (or re-creates) the files under {@code root}; returns its real path. */
    public static Path create(Path root) {
        try {
            Files.createDirectories(root);
            for (int i = 0; i < NAMES.size(); i++) {
                Path file = root.resolve(NAMES.get(i));
                Files.createDirectories(file.getParent());
                Files.write(file, content(i));
            }
            return root.toRealPath();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The bytes of file {@code i}: 40 to 130 KiB, seeded by {@code i}. */
    public static byte[] content(int i) {
        Random random = new Random(1000 + i);
        byte[] bytes = new byte[40 * 1024 + i * 10 * 1024 + 17];
        random.nextBytes(bytes);
        return bytes;
    }

    /** The name part (after the last '/') of file {@code i}. */
    public static String fileName(int i) {
        String name = NAMES.get(i);
        return name.substring(name.lastIndexOf('/') + 1);
    }

    /** UTF-8 length of the longest name (the test wants one over 200 bytes). */
    public static int longestNameBytes() {
        return NAMES.stream().mapToInt(n -> n.getBytes(StandardCharsets.UTF_8).length).max().orElse(0);
    }
}
