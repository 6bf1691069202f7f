package dev.xaccel.sample.demolib;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.xaccel.sample.Library;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.List;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DemoLibraryTest {

    @TempDir
    static Path dir;
    static Path root;

    @BeforeAll
    static void generate() throws IOException {
        System.setProperty("java.awt.headless", "true");
        root = dir.resolve("lib");
        assertTrue(DemoLibrary.ensure(root));
    }

    @Test
    void generatesEveryBookWithinModerateSize() throws IOException {
        long total = 0;
        for (DemoLibrary.Book b : DemoLibrary.BOOKS) {
            assertTrue(Files.isRegularFile(b.dir(root).resolve(b.coverFile())), b.coverFile());
            for (DemoLibrary.Chapter c : b.chapters()) {
                Path f = b.dir(root).resolve(c.fileName());
                assertEquals(44L + 2L * DemoLibrary.SAMPLE_RATE * c.seconds(), Files.size(f), c.fileName());
                total += Files.size(f);
            }
        }
        assertTrue(total <= 60L * 1024 * 1024, "library too large: " + total);
        assertTrue(DemoLibrary.isComplete(root));
        assertFalse(DemoLibrary.ensure(root), "a complete library is reused");
        try (var s = Files.list(root.resolve("Ada Lovelace/Notes on the Analytical Engine"))) {
            assertTrue(s.noneMatch(p -> p.getFileName().toString().startsWith(".partial")));
        }
    }

    @Test
    void namesExerciseTheEncodingRules() {
        String all = String.join("|", DemoLibrary.BOOKS.stream()
                .flatMap(b -> java.util.stream.Stream.concat(java.util.stream.Stream.of(b.author(), b.title(),
                        b.coverFile()), b.chapters().stream().map(DemoLibrary.Chapter::fileName))).toList());
        for (String c : List.of(" ", "#", "%", "?", "+", "%20", "é", "ø", "Æ", "–")) {
            assertTrue(all.contains(c), "no demo name contains [" + c + "]");
        }
    }

    @Test
    void wavHeaderIsPcm16Mono() throws IOException {
        DemoLibrary.Book b = DemoLibrary.BOOKS.get(0);
        Path f = b.dir(root).resolve(b.chapters().get(0).fileName());
        byte[] head = new byte[44];
        try (var in = Files.newInputStream(f)) {
            assertEquals(44, in.readNBytes(head, 0, 44));
        }
        ByteBuffer h = ByteBuffer.wrap(head).order(ByteOrder.LITTLE_ENDIAN);
        assertEquals("RIFF", new String(head, 0, 4, java.nio.charset.StandardCharsets.US_ASCII));
        assertEquals(Files.size(f) - 8, h.getInt(4));
        assertEquals("WAVEfmt ", new String(head, 8, 8, java.nio.charset.StandardCharsets.US_ASCII));
        assertEquals(1, h.getShort(20));               // PCM
        assertEquals(1, h.getShort(22));               // mono
        assertEquals(DemoLibrary.SAMPLE_RATE, h.getInt(24));
        assertEquals(16, h.getShort(34));
        assertEquals(Files.size(f) - 44, h.getInt(40));
    }

    @Test
    void audioIsDeterministicAndNotSilent() throws Exception {
        byte[] a = render(7, 150, 30);
        byte[] b = render(7, 150, 30);
        assertArrayEquals(a, b);
        assertFalse(java.util.Arrays.equals(a, render(8, 150, 30)));
        ByteBuffer s = ByteBuffer.wrap(a, 44, a.length - 44).order(ByteOrder.LITTLE_ENDIAN);
        int loud = 0;
        int peak = 0;
        while (s.remaining() >= 2) {
            int v = Math.abs(s.getShort());
            peak = Math.max(peak, v);
            if (v > 1000) {
                loud++;
            }
        }
        assertTrue(peak > 4000 && peak < 32767, "peak " + peak);
        assertTrue(loud > a.length / 2 / 20, "mostly silent: " + loud);
        // a fixed digest: the same bytes on every JVM (sine table from StrictMath)
        assertEquals(64, HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(a)).length());
    }

    @Test
    void coversAreReadableImagesOfTheRightSize() throws IOException {
        for (DemoLibrary.Book b : DemoLibrary.BOOKS) {
            BufferedImage img = ImageIO.read(b.dir(root).resolve(b.coverFile()).toFile());
            assertEquals(CoverPainter.SIZE, img.getWidth(), b.coverFile());
            assertEquals(CoverPainter.SIZE, img.getHeight());
        }
    }

    @Test
    void everyAuthorHasAJpegPicture() throws IOException {
        assertEquals(Library.AUTHOR_PICTURE, DemoLibrary.AUTHOR_PICTURE);
        for (DemoLibrary.Book b : DemoLibrary.BOOKS) {
            Path picture = b.authorPicture(root);
            assertEquals(b.dir(root).getParent().resolve("author.jpg"), picture);
            byte[] bytes = Files.readAllBytes(picture);
            assertEquals(0xFF, bytes[0] & 0xff, "JPEG SOI");
            assertEquals(0xD8, bytes[1] & 0xff, "JPEG SOI");
            BufferedImage img = ImageIO.read(picture.toFile());
            assertEquals(AuthorPainter.SIZE, img.getWidth(), b.author());
            assertEquals(AuthorPainter.SIZE, img.getHeight(), b.author());
        }
        assertEquals("AL", AuthorPainter.initials("Ada Lovelace"));
        assertEquals("SK", AuthorPainter.initials("Søren Kierkegaard"));
        assertEquals("A", AuthorPainter.initials("Anonymous"));
    }

    @Test
    void theLibraryScanFindsTheDemoBooks() throws IOException {
        Library lib = new dev.xaccel.sample.DirectoryLibrary(root);
        assertEquals(DemoLibrary.BOOKS.size(), lib.books().size());
        for (var book : lib.books()) {
            assertTrue(book.cover() != null, book.title());
            assertTrue(book.authorPicture() != null, book.author());
            DemoLibrary.Book spec = DemoLibrary.BOOKS.stream().filter(x -> x.title().equals(book.title()))
                    .findFirst().orElseThrow();
            assertEquals(spec.chapters().size(), book.files().size());
        }
    }

    private static byte[] render(long seed, double pitch, int seconds) throws IOException {
        var out = new java.io.ByteArrayOutputStream();
        WavWriter.write(out, DemoLibrary.SAMPLE_RATE, new SpeechLikeSignal(DemoLibrary.SAMPLE_RATE, seed, pitch),
                seconds * DemoLibrary.SAMPLE_RATE);
        return out.toByteArray();
    }
}
