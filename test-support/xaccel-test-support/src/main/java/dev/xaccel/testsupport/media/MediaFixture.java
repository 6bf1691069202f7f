package dev.xaccel.testsupport.media;

import dev.xaccel.testsupport.RawHttp;
import dev.xaccel.testsupport.TestPaths;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

/**
 * The files of one suite under {@code target/e2e-<suite>/}:
 * <pre>
 * media/                 the data root (mapped at /library/, location /_xaccel/media/)
 *   big.bin              8 MiB of seeded random bytes
 *   typed.xat, song.mp3  content types known to the web app
 *   AWKWARD names...     one file per awkward name, distinct content
 *   sub dir/nested file.bin
 *   .hidden-canary       canary inside the root but hidden
 *   link-in -> small.txt, link-out -> ../outside/canary.txt, dir-out -> ../outside
 * media-secret/canary.txt  a sibling whose name extends the root's name
 * outside/canary.txt       outside the root
 * canary.txt               next to the root
 * </pre>
 * Every canary file holds a token unique to this run; no response may ever contain it. The served files were
 * modified an hour before the run ({@link #SERVED_FILES_MODIFIED}).
 */
public final class MediaFixture {

    public static final int BIG_SIZE = 8 * 1024 * 1024;

    /**
     * The modification time of the served files: an hour before the run, as a file being downloaded usually is.
     * A file written in the same second as the request meets the clocks of the parts instead of the rules of
     * the filter: Apache evaluates If-Modified-Since against the backend's {@code Date}, which Undertow caches
     * (pinned by ApacheFactsIT, docs/front-ends.md).
     */
    static final FileTime SERVED_FILES_MODIFIED = FileTime.from(Instant.now().minus(Duration.ofHours(1))
            .truncatedTo(ChronoUnit.SECONDS));

    /** Same visible name, two distinct files: precomposed and decomposed u-umlaut. */
    public static final String NFC_NAME = "\u00fcber.bin";
    public static final String NFD_NAME = "u\u0308ber.bin";

    /** Awkward names stored on disk (NFC and NFD forms are distinct files). */
    public static final List<String> AWKWARD_NAMES = List.of(
            "with space.txt",
            "100%.bin",
            "50%25 literal.bin",
            "what?.bin",
            "hash#tag.bin",
            "a+b.bin",
            "a b.bin",
            "semi;colon.bin",
            "single'quote.bin",
            "double\"quote.bin",
            "amp&eq=.bin",
            "paren (1) [2] {3}.bin",
            "colon:comma,at@dollar$excl!tilde~.bin",
            NFC_NAME,
            NFD_NAME,
            "\u65e5\u672c\u8a9e \u30d5\u30a1\u30a4\u30eb.bin",
            "\ud83c\udfb5 song.mp3",
            "sub dir/nested file.bin",
            longName());

    public final Path dir;
    public final Path media;
    public final String canaryToken;
    public final Path canaryOutside;
    public final Path canarySibling;
    public final Path canaryNextToRoot;
    private final Map<String, byte[]> files = new LinkedHashMap<>();

    private MediaFixture(Path dir, String canaryToken) {
        this.dir = dir;
        this.media = dir.resolve("media");
        this.canaryToken = canaryToken;
        this.canaryOutside = dir.resolve("outside/canary.txt");
        this.canarySibling = dir.resolve("media-secret/canary.txt");
        this.canaryNextToRoot = dir.resolve("canary.txt");
    }

    public static MediaFixture create(String suite) {
        Path dir = TestPaths.freshDir("e2e-" + suite);
        String token = "XACCEL-CANARY-" + HexFormat.of().formatHex(randomBytes(new Random(), 12));
        MediaFixture f = new MediaFixture(dir, token);
        try {
            f.populate();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return f;
    }

    private void populate() throws IOException {
        Files.createDirectories(media);
        write("big.bin", randomBytes(new Random(42), BIG_SIZE));
        write("small.txt", "hello from xaccel\n".getBytes(StandardCharsets.UTF_8));
        write("typed.xat", "typed content\n".getBytes(StandardCharsets.UTF_8));
        write("song.mp3", randomBytes(new Random(7), 4096));
        write("report.pdf", randomBytes(new Random(8), 2048));
        write("nested/deeper/file.bin", randomBytes(new Random(9), 1000));
        Random r = new Random(1234);
        for (String name : AWKWARD_NAMES) {
            byte[] head = ("file: " + name + "\n").getBytes(StandardCharsets.UTF_8);
            byte[] tail = randomBytes(r, 3000);
            byte[] content = new byte[head.length + tail.length];
            System.arraycopy(head, 0, content, 0, head.length);
            System.arraycopy(tail, 0, content, head.length, tail.length);
            write(name, content);
        }
        Files.createDirectories(media.resolve("emptydir"));
        byte[] canary = canaryContent();
        Files.createDirectories(canaryOutside.getParent());
        Files.write(canaryOutside, canary);
        Files.createDirectories(canarySibling.getParent());
        Files.write(canarySibling, canary);
        Files.write(canaryNextToRoot, canary);
        Files.write(media.resolve(".hidden-canary"), canary);
        Files.createDirectories(media.resolve(".hidden-dir"));
        Files.write(media.resolve(".hidden-dir/canary.txt"), canary);
        Files.createSymbolicLink(media.resolve("link-in"), Path.of("small.txt"));
        Files.createSymbolicLink(media.resolve("link-out"), Path.of("../outside/canary.txt"));
        Files.createSymbolicLink(media.resolve("dir-out"), Path.of("../outside"));
        Files.createSymbolicLink(media.resolve("abs-link-out"), canaryOutside.toAbsolutePath());
    }

    private void write(String relative, byte[] content) throws IOException {
        Path p = media.resolve(relative);
        Files.createDirectories(p.getParent());
        Files.write(p, content);
        Files.setLastModifiedTime(p, SERVED_FILES_MODIFIED);
        files.put(relative, content);
    }

    public byte[] canaryContent() {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < 8; i++) {
            sb.append(canaryToken).append(" secret outside the media root\n");
        }
        return sb.toString().getBytes(StandardCharsets.US_ASCII);
    }

    /** Content of a file created under the media root. */
    public byte[] content(String relative) {
        byte[] c = files.get(relative);
        if (c == null) {
            throw new IllegalArgumentException("no fixture file " + relative);
        }
        return c;
    }

    /** True when the bytes contain the canary token (or its first half, to catch partial ranges). */
    public boolean leaksCanary(byte[] bytes) {
        byte[] token = canaryToken.getBytes(StandardCharsets.US_ASCII);
        return RawHttp.indexOf(bytes, token, 0) >= 0;
    }

    /** Percent-encodes every UTF-8 byte outside {@code A-Za-z0-9-._~} and keeps {@code /}. */
    public static String encodePath(String path) {
        StringBuilder sb = new StringBuilder();
        for (byte b : path.getBytes(StandardCharsets.UTF_8)) {
            int c = b & 0xff;
            if (c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
                    || c == '-' || c == '.' || c == '_' || c == '~' || c == '/') {
                sb.append((char) c);
            } else {
                sb.append('%').append(Character.toUpperCase(Character.forDigit(c >> 4, 16)))
                        .append(Character.toUpperCase(Character.forDigit(c & 0xf, 16)));
            }
        }
        return sb.toString();
    }

    public static String sha256(byte[] bytes) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    public static byte[] randomBytes(Random random, int size) {
        byte[] b = new byte[size];
        random.nextBytes(b);
        return b;
    }

    /** A name of more than 200 UTF-8 bytes (mixed ASCII and two-byte characters), below NAME_MAX. */
    private static String longName() {
        String name = "long " + "\u00e4".repeat(60) + " " + "n".repeat(100) + ".bin";
        int bytes = name.getBytes(StandardCharsets.UTF_8).length;
        if (bytes < 200 || bytes > 250) {
            throw new IllegalStateException("long name has " + bytes + " bytes");
        }
        return name;
    }
}
