package dev.xaccel.filter.internal.fs;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.SeekableByteChannel;
import java.nio.file.AccessDeniedException;
import java.nio.file.ClosedDirectoryStreamException;
import java.nio.file.DirectoryStream;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import java.nio.file.Path;
import java.nio.file.SecureDirectoryStream;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributeView;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.Optional;
import java.util.Set;

import dev.xaccel.filter.internal.util.Messages;

/**
 * Opens a file below a root directory without following a symbolic link anywhere below the root, so that the
 * file served is the file the filter checked: the root is opened as a directory, then every directory on the way
 * and finally the file are opened relative to their parent with {@code O_NOFOLLOW} ({@link SecureDirectoryStream},
 * {@code openat(2)} on Linux). A link swapped into the path after the check (a directory exchanged with a link to
 * elsewhere) makes the open fail instead of leading out of the root. The relative path is the file's <em>real</em>
 * path below the real root (links inside the root were resolved and checked before), so a legitimate file never
 * needs a link to be followed here.
 *
 * <p>Where the platform has no {@link SecureDirectoryStream} (Windows, some BSDs), the file is opened by name with
 * {@link LinkOption#NOFOLLOW_LINKS}, which protects the last component only; {@link #isConfined(Path)} tells which
 * (the filter logs it once at startup).
 */
public final class ConfinedOpener {

    private static final java.util.logging.Logger LOG =
            java.util.logging.Logger.getLogger(ConfinedOpener.class.getName());

    private static final Set<java.nio.file.OpenOption> READ_NOFOLLOW = Set.of(StandardOpenOption.READ,
            LinkOption.NOFOLLOW_LINKS);

    private ConfinedOpener() {
    }

    /** The open failed because of the file system, not because of I/O trouble: answer 404. */
    public static final class Refused extends IOException {
        private static final long serialVersionUID = 1L;

        public Refused(String reason) {
            super(reason);
        }
    }

    /** Whether files below {@code root} are opened link by link (true) or by name (false, best effort). */
    public static boolean isConfined(Path root) {
        try (DirectoryStream<Path> ds = Files.newDirectoryStream(root)) {
            return ds instanceof SecureDirectoryStream;
        } catch (IOException e) {
            return false;
        }
    }

    /**
     * @param root         the real root directory
     * @param relativePath the real path of the file below the root, '/'-separated, no leading '/', no empty or dot
     *                     segments (as {@link SafePathResolver} produces it)
     * @return the opened regular file
     * @throws Refused     (reason for the debug log, never a path) when a component is missing, a symbolic link,
     *                     not a directory, or the file is not a regular file
     * @throws IOException for other I/O errors
     */
    public static OpenFile open(Path root, String relativePath) throws IOException {
        String[] names = relativePath.split("/", -1);
        try (DirectoryStream<Path> rootStream = Files.newDirectoryStream(root)) {
            if (!(rootStream instanceof SecureDirectoryStream<Path> dir)) {
                return openByName(root.resolve(relativePath));
            }
            return openBelow(dir, names, 0);
        } catch (NoSuchFileException | NotDirectoryException e) {
            throw new Refused("not found");
        } catch (FileSystemException e) {
            // ELOOP from O_NOFOLLOW: a symbolic link where the check saw none
            throw new Refused("not accessible without following a link: " + e.getReason());
        }
    }

    /**
     * Opens a checked file: below its root link by link ({@link #open(Path, String)}), or by its real name when it
     * lies outside every root ({@link #openUnconfined}).
     *
     * @param file a checked file ({@link Resolution#isOk()})
     * @return the open file, or a 404 rejection when it can no longer be opened as it was checked (it vanished, a
     *         link or another kind of file took its place, it is no longer readable)
     * @throws IOException for other I/O errors
     */
    public static Opening open(Resolution file) throws IOException {
        try {
            OpenFile open;
            if (file.root() == null) {
                open = openUnconfined(file.file());
            } else if (file.directory() != null) {
                open = open(file.directory(), file.relativePath());
            } else {
                open = open(file.root(), file.relativePath());
            }
            return Opening.opened(file, open);
        } catch (Refused | AccessDeniedException e) {
            return Opening.refused(Resolution.rejected(404, "vanished: " + e.getMessage()));
        }
    }

    /** {@link #open(Path, String)} below a root held open; by the root's name when it holds none. */
    private static OpenFile open(RootDirectory root, String relativePath) throws IOException {
        for (int attempt = 0; attempt < 2; attempt++) {
            SecureDirectoryStream<Path> dir = root.stream();
            if (dir == null) {
                break;
            }
            try {
                return openBelow(dir, relativePath.split("/", -1), 0);
            } catch (NoSuchFileException | NotDirectoryException e) {
                throw new Refused("not found");
            } catch (FileSystemException e) {
                throw new Refused("not accessible without following a link: " + e.getReason());
            } catch (ClosedDirectoryStreamException e) {
                // the root was replaced meanwhile and the old directory closed: once more below the new one
            }
        }
        return open(root.path(), relativePath);
    }

    /**
     * The one-pass open of a path with no link below the root: the file's directory as
     * {@link RootDirectory#directory} holds it (each directory on the way the one at its name now, opened relative
     * to its parent with {@code O_NOFOLLOW}), then the file with {@code O_NOFOLLOW} if it is a regular file. Empty
     * when anything on the way is not plain (missing, a link, not a directory, not a regular file, not readable) or
     * no root is held open (no {@link SecureDirectoryStream} here, the root missing): the caller then judges the path
     * by its checks and opens its real path with {@link #open}, which gives the precise answer.
     *
     * @param root         the real root directory, held open
     * @param relativePath checked segments below the root, '/'-separated, no leading '/', no empty or dot segments
     */
    public static Optional<OpenFile> openPlain(RootDirectory root, String relativePath) {
        int slash = relativePath.lastIndexOf('/');
        String parent = slash < 0 ? "" : relativePath.substring(0, slash);
        Path name = Path.of(relativePath.substring(slash + 1));
        for (int attempt = 0; attempt < 2; attempt++) {
            try {
                SecureDirectoryStream<Path> dir = root.directory(parent);
                return dir == null ? Optional.empty() : Optional.of(openFile(dir, name));
            } catch (IOException e) {
                return Optional.empty();
            } catch (ClosedDirectoryStreamException e) {
                // a directory held was replaced or let go meanwhile and closed: once more, from the names
            }
        }
        return Optional.empty();
    }

    private static OpenFile openBelow(SecureDirectoryStream<Path> dir, String[] names, int index)
            throws IOException {
        Path name = Path.of(names[index]);
        if (index < names.length - 1) {
            try (SecureDirectoryStream<Path> next = dir.newDirectoryStream(name, LinkOption.NOFOLLOW_LINKS)) {
                return openBelow(next, names, index + 1);
            }
        }
        return openFile(dir, name);
    }

    /** Opens a regular file in a directory without following a link. */
    private static OpenFile openFile(SecureDirectoryStream<Path> dir, Path name) throws IOException {
        BasicFileAttributes attrs = dir.getFileAttributeView(name, BasicFileAttributeView.class,
                LinkOption.NOFOLLOW_LINKS).readAttributes();
        if (!attrs.isRegularFile()) {
            throw new Refused(attrs.isSymbolicLink() ? "symbolic link" : "not a regular file");
        }
        SeekableByteChannel ch = dir.newByteChannel(name, READ_NOFOLLOW);
        if (!(ch instanceof FileChannel channel)) {
            ch.close();
            throw new IOException(Messages.get("opener.notFileChannel", ch.getClass().getName()));
        }
        return new OpenFile(channel, channel.size(), attrs.lastModifiedTime().toMillis());
    }

    private static OpenFile openByName(Path file) throws IOException {
        BasicFileAttributes attrs = Files.readAttributes(file, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
        if (!attrs.isRegularFile()) {
            throw new Refused(attrs.isSymbolicLink() ? "symbolic link" : "not a regular file");
        }
        FileChannel channel = FileChannel.open(file, READ_NOFOLLOW);
        return new OpenFile(channel, channel.size(), attrs.lastModifiedTime().toMillis());
    }

    /** A file outside every root ({@code allowUnmapped=true}): opened by its real name, last component not a link. */
    public static OpenFile openUnconfined(Path realFile) throws IOException {
        try {
            return openByName(realFile);
        } catch (NoSuchFileException | NotDirectoryException e) {
            throw new Refused("not found");
        } catch (FileSystemException e) {
            throw new Refused("not accessible: " + e.getReason());
        }
    }
}
