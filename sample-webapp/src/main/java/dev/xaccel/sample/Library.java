package dev.xaccel.sample;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * The audiobook library: {@code Author/Title/} folders with audio files and a cover image, and optionally a picture
 * of the author, {@code Author/}{@value #AUTHOR_PICTURE} (exactly that name). Hidden files and folders (names
 * starting with a dot) are ignored. Two kinds, indexed by the same rules ({@link #index}):
 * <ul>
 * <li>{@link DirectoryLibrary}: a directory on a disk nginx reads (the files are offloaded to
 * {@code /_xaccel/library/});</li>
 * <li>{@link S3Library}: the objects below a prefix of an S3 bucket (listed with ListObjectsV2; every request is
 * answered with a URL presigned for seconds, which nginx fetches from the store).</li>
 * </ul>
 * Scanned on first use and again when the last scan is older than the refresh interval.
 */
public abstract sealed class Library permits DirectoryLibrary, S3Library {

    public static final Set<String> AUDIO = Set.of("mp3", "m4a", "m4b", "aac", "ogg", "oga", "opus", "flac",
            "wav", "webm");
    public static final Set<String> IMAGES = Set.of("jpg", "jpeg", "png", "webp", "gif");
    /**
     * The one name of an author's picture, in the author's folder. Exactly this name (the nginx location of
     * signed links admits no other file at that level).
     */
    public static final String AUTHOR_PICTURE = "author.jpg";

    /**
     * One file of the library.
     *
     * @param relative     its path below the library's root (or the bucket's prefix), {@code /}-separated, not
     *                     encoded; for a directory the real path (links inside the library resolved), because nginx
     *                     opens offloaded and signed files without following links
     * @param size         its size in bytes, as the scan saw it
     * @param lastModified when it was last modified, as the scan saw it
     */
    public record Entry(String relative, long size, Instant lastModified) {

        /** The last segment: the file's name. */
        public String name() {
            return relative.substring(relative.lastIndexOf('/') + 1);
        }
    }

    private static final Logger LOG = Logger.getLogger(Library.class.getName());
    private static final long REFRESH_NANOS = 10_000_000_000L;

    private volatile List<Book> books = List.of();
    private volatile long scannedAt;

    /** Where the library is, for log lines: a directory or {@code s3://bucket/prefix}. */
    public abstract String location();

    /**
     * The local directory the xaccel filter's {@code locations} and {@code mappings} name: the library itself, or
     * for a library in a store an empty directory (nothing is ever served from disk then).
     */
    public abstract Path root();

    /** Every file of the library, as a scan finds it now. */
    protected abstract List<Entry> list() throws java.io.IOException;

    public List<Book> books() {
        if (System.nanoTime() - scannedAt > REFRESH_NANOS) {
            try {
                rescan();
            } catch (java.io.IOException | RuntimeException e) {
                LOG.log(Level.WARNING, Messages.get("library.scanFailed", location()), e);
            }
        }
        return books;
    }

    public Optional<Book> find(String id) {
        return books().stream().filter(b -> b.id().equals(id)).findFirst();
    }

    public synchronized void rescan() throws java.io.IOException {
        List<Book> found = index(list());
        books = found;
        scannedAt = System.nanoTime();
        if (LOG.isLoggable(Level.FINE)) {
            LOG.fine(Messages.get("library.scanned", location(), found.size()));
        }
    }

    /**
     * The books among {@code entries}: each {@code Author/Title/} with at least one audio file is a book (its audio
     * files in natural order; its cover the first image in natural order, one named {@code cover*} or
     * {@code folder*} preferred), {@code Author/author.jpg} is the picture of every book of that author; any other
     * depth, any hidden segment and any other file is ignored. Books in natural order of author, then title.
     */
    static List<Book> index(List<Entry> entries) {
        Map<String, Entry> pictures = new LinkedHashMap<>();
        Map<String, Map<String, List<Entry>>> folders = new TreeMap<>(NaturalOrder.INSTANCE);
        for (Entry e : entries) {
            String[] s = e.relative().split("/", -1);
            if (List.of(s).stream().anyMatch(x -> x.isEmpty() || x.startsWith("."))) {
                continue;
            }
            if (s.length == 2 && s[1].equals(AUTHOR_PICTURE)) {
                pictures.put(s[0], e);
            } else if (s.length == 3) {
                folders.computeIfAbsent(s[0], a -> new TreeMap<>(NaturalOrder.INSTANCE))
                        .computeIfAbsent(s[1], t -> new ArrayList<>()).add(e);
            }
        }
        List<Book> found = new ArrayList<>();
        folders.forEach((author, titles) -> titles.forEach((title, files) -> {
            List<Entry> sorted = new ArrayList<>(files);
            sorted.sort(Comparator.comparing(Entry::name, NaturalOrder.INSTANCE));
            List<Entry> audio = new ArrayList<>();
            Entry cover = null;
            for (Entry f : sorted) {
                String ext = extension(f.name());
                if (AUDIO.contains(ext)) {
                    audio.add(f);
                } else if (IMAGES.contains(ext)
                        && (cover == null || isCoverName(f.name()) && !isCoverName(cover.name()))) {
                    cover = f;
                }
            }
            if (!audio.isEmpty()) {
                found.add(new Book(id(author + "/" + title), author, title, cover, pictures.get(author), audio));
            }
        }));
        return List.copyOf(found);
    }

    private static boolean isCoverName(String name) {
        String n = name.toLowerCase(Locale.ROOT);
        return n.startsWith("cover") || n.startsWith("folder");
    }

    static String extension(Path p) {
        return extension(p.getFileName().toString());
    }

    static String extension(String name) {
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
}
