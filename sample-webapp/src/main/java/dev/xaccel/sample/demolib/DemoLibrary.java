package dev.xaccel.sample.demolib;

import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Generates the demo library: a few {@code Author/Title/} folders with playable WAV chapters (16-bit PCM
 * mono, several minutes of a speech-like signal) and Java2D covers, and a Java2D JPEG picture of every author
 * ({@code Author/}{@value #AUTHOR_PICTURE}). The names contain spaces, {@code #},
 * {@code %}, {@code ?}, {@code +} and non-ASCII characters on purpose: they exercise the encoding rules of
 * the X-Accel-Redirect header, the mapped URLs and Content-Disposition.
 *
 * <p>Deterministic (same bytes for the audio on every run) and fast. A marker file records a complete
 * generation, so the next start reuses the library.
 */
public final class DemoLibrary {

    /** Written last; its content is {@link #VERSION}. A hidden file, so the library scan ignores it. */
    public static final String MARKER = ".xaccel-demo-library";
    /** Bump when the generated content changes, to regenerate existing demo libraries. */
    public static final String VERSION = "3";
    public static final int SAMPLE_RATE = 11025;
    /** The name of an author's picture that the library scan reads ({@code Library.AUTHOR_PICTURE}). */
    public static final String AUTHOR_PICTURE = "author.jpg";

    private static final Logger LOG = Logger.getLogger(DemoLibrary.class.getName());

    /** One generated chapter. */
    public record Chapter(String fileName, int seconds) {
    }

    /** One generated book. */
    public record Book(String author, String title, String coverFile, float hue, double pitch,
                       List<Chapter> chapters) {
        public Path dir(Path root) {
            return root.resolve(author).resolve(title);
        }

        /** {@code Author/}{@value #AUTHOR_PICTURE}: every demo author has one. */
        public Path authorPicture(Path root) {
            return root.resolve(author).resolve(AUTHOR_PICTURE);
        }
    }

    public static final List<Book> BOOKS = List.of(
            new Book("Ada Lovelace", "Notes on the Analytical Engine", "cover.png", 0.58f, 190,
                    List.of(new Chapter("01 Sketch #1.wav", 180),
                            new Chapter("02 Note G – 100% Bernoulli.wav", 180))),
            new Book("Jules Verne", "Vingt mille lieues sous les mers", "Couverture été.jpg", 0.52f, 110,
                    List.of(new Chapter("Chapitre 1 – Un écueil fuyant.wav", 150),
                            new Chapter("Chapitre 2 – Le pour et le contre.wav", 150),
                            new Chapter("Chapitre 3 – Comme il plaira à monsieur.wav", 150))),
            new Book("Anonymous", "What? Why + How", "cover art #3.png", 0.05f, 150,
                    List.of(new Chapter("Part 1? Questions + answers.wav", 120),
                            new Chapter("Part 2 – 50% done.wav", 120),
                            new Chapter("Part 3 – Bonus%20track (literal).wav", 60))),
            new Book("Søren Kierkegaard", "Enten – Eller", "cover.png", 0.8f, 125,
                    List.of(new Chapter("Del 1 – Æstetik.wav", 180),
                            new Chapter("Del 2 – Etik & Ærlighed.wav", 180))));

    private DemoLibrary() {
    }

    /** True when {@code root} holds a complete demo library of this version. */
    public static boolean isComplete(Path root) {
        Path marker = root.resolve(MARKER);
        try {
            return Files.isRegularFile(marker)
                    && VERSION.equals(Files.readString(marker, StandardCharsets.UTF_8).trim());
        } catch (IOException e) {
            return false;
        }
    }

    /** Generates the library under {@code root} unless a complete one is there. Returns true if it wrote. */
    public static synchronized boolean ensure(Path root) throws IOException {
        if (isComplete(root)) {
            return false;
        }
        long start = System.nanoTime();
        generate(root);
        if (LOG.isLoggable(Level.INFO)) {
            LOG.info(String.format("Generated the demo library in %s (%d ms)", root,
                    (System.nanoTime() - start) / 1_000_000));
        }
        return true;
    }

    /** Writes every file (atomically, through a hidden temporary name), then the marker. */
    public static void generate(Path root) throws IOException {
        Files.createDirectories(root);
        if (Files.exists(root.resolve(MARKER))) {
            removeOtherFiles(root);                    // an older demo library: drop what is gone
        }
        int bookIndex = 0;
        for (Book book : BOOKS) {
            bookIndex++;
            Path dir = book.dir(root);
            Files.createDirectories(dir);
            String format = book.coverFile().endsWith(".jpg") ? "jpg" : "png";
            long coverSeed = 1000L + bookIndex;
            writeAtomically(dir.resolve(book.coverFile()), out -> CoverPainter.write(
                    CoverPainter.paint(book.author(), book.title(), book.hue(), coverSeed), format, out));
            writeAtomically(book.authorPicture(root), out -> CoverPainter.write(
                    AuthorPainter.paint(book.author(), book.hue()), "jpg", out));
            int chapterIndex = 0;
            for (Chapter chapter : book.chapters()) {
                chapterIndex++;
                long seed = bookIndex * 100L + chapterIndex;
                int samples = chapter.seconds() * SAMPLE_RATE;
                writeAtomically(dir.resolve(chapter.fileName()), out -> WavWriter.write(out, SAMPLE_RATE,
                        new SpeechLikeSignal(SAMPLE_RATE, seed, book.pitch()), samples));
            }
        }
        Files.writeString(root.resolve(MARKER), VERSION + "\n", StandardCharsets.UTF_8);
    }

    /**
     * Deletes files at Author/Title/ depth that the current list does not name, then empty folders (an author's
     * picture, one level up, is rewritten by every generation).
     */
    private static void removeOtherFiles(Path root) throws IOException {
        java.util.Set<Path> expected = new java.util.HashSet<>();
        for (Book b : BOOKS) {
            expected.add(b.dir(root).resolve(b.coverFile()));
            b.chapters().forEach(c -> expected.add(b.dir(root).resolve(c.fileName())));
        }
        List<Path> found;
        try (var walk = Files.walk(root, 3)) {
            found = walk.filter(p -> root.relativize(p).getNameCount() == 3).toList();
        }
        for (Path p : found) {
            if (Files.isRegularFile(p) && !expected.contains(p)) {
                Files.delete(p);
            }
        }
        List<Path> dirs;
        try (var walk = Files.walk(root, 2)) {
            dirs = walk.filter(p -> !p.equals(root) && Files.isDirectory(p))
                    .sorted(java.util.Comparator.reverseOrder()).toList();
        }
        for (Path d : dirs) {
            try (var children = Files.list(d)) {
                if (children.findAny().isEmpty()) {
                    Files.delete(d);
                }
            }
        }
    }

    private static void writeAtomically(Path target, Content content) throws IOException {
        Path tmp = target.resolveSibling(".partial-" + Integer.toHexString(target.getFileName().hashCode()));
        try (OutputStream out = new BufferedOutputStream(Files.newOutputStream(tmp), 1 << 16)) {
            content.writeTo(out);
        }
        Files.move(tmp, target, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    }

    @FunctionalInterface
    private interface Content {
        void writeTo(OutputStream out) throws IOException;
    }

    /** Generates the demo library into the directory given as argument (or prints where it would go). */
    public static void main(String[] args) throws IOException {
        if (args.length != 1) {
            System.err.println("usage: DemoLibrary <directory>");
            System.exit(2);
        }
        generate(Path.of(args[0]));
    }
}
