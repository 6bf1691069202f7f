package dev.xaccel.testsupport;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;

/** Where tests may write (the module's {@code target/}) and where the repository's own files are. */
public final class TestPaths {

    private TestPaths() {
    }

    /** The module's {@code target/} directory: {@code ${basedir}/target} under Maven, else {@code ./target}. */
    public static Path target() {
        String basedir = System.getProperty("basedir");
        Path base = basedir != null ? Path.of(basedir) : Path.of("");
        return base.resolve("target").toAbsolutePath();
    }

    /** A fresh, empty {@code target/<name>} directory (what an earlier run left there is deleted). */
    public static Path freshDir(String name) {
        return fresh(target().resolve(name));
    }

    /** {@code dir} deleted if it exists and created again, empty. */
    public static Path fresh(Path dir) {
        try {
            deleteRecursively(dir);
            return Files.createDirectories(dir);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Deletes a tree without following symbolic links (a link is deleted, not what it points to). */
    public static void deleteRecursively(Path dir) throws IOException {
        if (!Files.exists(dir, LinkOption.NOFOLLOW_LINKS)) {
            return;
        }
        Files.walkFileTree(dir, new SimpleFileVisitor<>() {
            @Override
            public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) throws IOException {
                Files.delete(file);
                return FileVisitResult.CONTINUE;
            }

            @Override
            public FileVisitResult postVisitDirectory(Path d, IOException e) throws IOException {
                if (e != null) {
                    throw e;
                }
                Files.delete(d);
                return FileVisitResult.CONTINUE;
            }
        });
    }

    /**
     * A file of the repository, e.g. {@code docs/nginx/xaccel.conf.template}, found from the working directory
     * upwards (a module's tests run in the module's directory).
     */
    public static Path repositoryFile(String relative) {
        Path start = Path.of("").toAbsolutePath();
        for (Path dir = start; dir != null; dir = dir.getParent()) {
            Path candidate = dir.resolve(relative);
            if (Files.isRegularFile(candidate)) {
                return candidate;
            }
        }
        throw new IllegalStateException(relative + " not found in " + start + " or above");
    }

    /** The last {@code max} characters of a text file for a failure message; never throws. */
    public static String tail(Path file, int max) {
        try {
            String s = Files.readString(file, StandardCharsets.ISO_8859_1);
            return s.length() <= max ? s : "..." + s.substring(s.length() - max);
        } catch (IOException e) {
            return "(" + file + ": " + e + ")";
        }
    }
}
