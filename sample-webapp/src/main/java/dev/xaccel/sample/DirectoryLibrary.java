package dev.xaccel.sample;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * A library in a directory: {@code ROOT/Author/Title/…} and {@code ROOT/Author/author.jpg}, read with the links
 * inside it followed (an entry's {@link Library.Entry#relative()} is its real path below the real root when that
 * lies inside it).
 */
public final class DirectoryLibrary extends Library {

    private final Path root;

    public DirectoryLibrary(Path root) throws IOException {
        this.root = root.toRealPath();
        rescan();
    }

    @Override
    public String location() {
        return root.toString();
    }

    @Override
    public Path root() {
        return root;
    }

    /** The file of an entry. */
    public Path file(Library.Entry e) {
        return root.resolve(e.relative());
    }

    @Override
    protected List<Library.Entry> list() throws IOException {
        List<Library.Entry> out = new ArrayList<>();
        for (Path author : children(root)) {
            if (!Files.isDirectory(author)) {
                continue;
            }
            for (Path child : children(author)) {
                if (Files.isDirectory(child)) {
                    for (Path f : children(child)) {
                        if (Files.isRegularFile(f)) {
                            entry(f, out);
                        }
                    }
                } else if (Files.isRegularFile(child)) {
                    entry(child, out);
                }
            }
        }
        return out;
    }

    private void entry(Path file, List<Library.Entry> out) throws IOException {
        try {
            Path p = file;
            Path real = file.toRealPath();
            if (real.startsWith(root)) {
                p = real;
            }
            String relative = root.relativize(p).toString().replace(file.getFileSystem().getSeparator(), "/");
            out.add(new Library.Entry(relative, Files.size(file), Files.getLastModifiedTime(file).toInstant()));
        } catch (java.nio.file.NoSuchFileException vanished) {
            // removed while scanning: not part of the library
        }
    }

    private static List<Path> children(Path dir) throws IOException {
        List<Path> children = new ArrayList<>();
        try (DirectoryStream<Path> ds = Files.newDirectoryStream(dir)) {
            for (Path p : ds) {
                if (!p.getFileName().toString().startsWith(".")) {
                    children.add(p);
                }
            }
        }
        return children;
    }
}
