package dev.xaccel.sample;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * The audiobook library: {@code ROOT/Author/Title/} folders with audio files and a cover image, and optionally a
 * picture of the author, {@code ROOT/Author/}{@value #AUTHOR_PICTURE} (exactly that name). Scanned
 * on first use and again when the last scan is older than the refresh interval. Hidden files and folders
 * (names starting with a dot) are ignored.
 */
public final class Library {

    public static final Set<String> AUDIO = Set.of("mp3", "m4a", "m4b", "aac", "ogg", "oga", "opus", "flac",
            "wav", "webm");
    public static final Set<String> IMAGES = Set.of("jpg", "jpeg", "png", "webp", "gif");
    /**
     * The one name of an author's picture, in the author's folder. Exactly this name (the nginx location of
     * signed links admits no other file at that level).
     */
    public static final String AUTHOR_PICTURE = "author.jpg";

    private static final Logger LOG = Logger.getLogger(Library.class.getName());
    private static final long REFRESH_NANOS = 10_000_000_000L;

    private final Path root;
    private volatile List<Book> books;
    private volatile long scannedAt;

    public Library(Path root) throws IOException {
        this.root = root.toRealPath();
        rescan();
    }

    public Path root() {
        return root;
    }

    public List<Book> books() {
        if (System.nanoTime() - scannedAt > REFRESH_NANOS) {
            try {
                rescan();
            } catch (IOException e) {
                LOG.log(Level.WARNING, Messages.get("library.scanFailed", root), e);
            }
        }
        return books;
    }

    public Optional<Book> find(String id) {
        return books().stream().filter(b -> b.id().equals(id)).findFirst();
    }

    /**
     * The path of {@code file} relative to the library root, with {@code /} separators: its real path when that
     * lies inside the root (links inside the library resolved), because nginx opens signed and offloaded files
     * without following links ({@code disable_symlinks on}).
     */
    public String relative(Path file) {
        Path p = file;
        try {
            Path real = file.toRealPath();
            if (real.startsWith(root)) {
                p = real;
            }
        } catch (IOException e) {
            // a file that vanished keeps its scanned path: the filter answers 404 for it
        }
        return root.relativize(p).toString().replace(file.getFileSystem().getSeparator(), "/");
    }

    public synchronized void rescan() throws IOException {
        List<Book> found = new ArrayList<>();
        for (Path authorDir : sortedChildren(root)) {
            if (!Files.isDirectory(authorDir)) {
                continue;
            }
            Path picture = authorDir.resolve(AUTHOR_PICTURE);
            Path authorPicture = Files.isRegularFile(picture) ? picture : null;
            for (Path titleDir : sortedChildren(authorDir)) {
                if (Files.isDirectory(titleDir)) {
                    book(authorDir, titleDir, authorPicture).ifPresent(found::add);
                }
            }
        }
        books = List.copyOf(found);
        scannedAt = System.nanoTime();
        if (LOG.isLoggable(Level.FINE)) {
            LOG.fine(Messages.get("library.scanned", root, found.size()));
        }
    }

    private Optional<Book> book(Path authorDir, Path titleDir, Path authorPicture) throws IOException {
        List<Path> audio = new ArrayList<>();
        Path cover = null;
        for (Path f : sortedChildren(titleDir)) {
            if (!Files.isRegularFile(f)) {
                continue;
            }
            String ext = extension(f);
            if (AUDIO.contains(ext)) {
                audio.add(f);
            } else if (IMAGES.contains(ext) && (cover == null || isCoverName(f) && !isCoverName(cover))) {
                cover = f;
            }
        }
        if (audio.isEmpty()) {
            return Optional.empty();
        }
        String author = authorDir.getFileName().toString();
        String title = titleDir.getFileName().toString();
        return Optional.of(new Book(id(author + "/" + title), author, title, titleDir, cover, authorPicture,
                audio));
    }

    private static boolean isCoverName(Path p) {
        String name = p.getFileName().toString().toLowerCase(Locale.ROOT);
        return name.startsWith("cover") || name.startsWith("folder");
    }

    static String extension(Path p) {
        String name = p.getFileName().toString();
        int dot = name.lastIndexOf('.');
        return dot < 0 ? "" : name.substring(dot + 1).toLowerCase(Locale.ROOT);
    }

    /** A stable, short id (12 hex digits of SHA-256) of a relative path: books' ids, feed items' guids. */
    public static String id(String relative) {
        try {
            byte[] d = MessageDigest.getInstance("SHA-256").digest(relative.getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(d, 0, 6);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    private static List<Path> sortedChildren(Path dir) throws IOException {
        List<Path> children = new ArrayList<>();
        try (DirectoryStream<Path> ds = Files.newDirectoryStream(dir)) {
            for (Path p : ds) {
                if (!p.getFileName().toString().startsWith(".")) {
                    children.add(p);
                }
            }
        }
        children.sort(Comparator.comparing(p -> p.getFileName().toString(), NaturalOrder.INSTANCE));
        return children;
    }
}
