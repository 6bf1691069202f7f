package dev.xaccel.filter;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;

/** Where integration tests may write: the module's {@code target/} directory. */
final class TestPaths {

    private TestPaths() {
    }

    static Path target() {
        String basedir = System.getProperty("basedir");
        Path base = basedir != null ? Path.of(basedir) : Path.of("").toAbsolutePath();
        return base.resolve("target").toAbsolutePath();
    }

    /** A fresh, empty {@code target/<name>} directory. */
    static Path freshDir(String name) {
        Path dir = target().resolve(name);
        try {
            deleteRecursively(dir);
            return Files.createDirectories(dir);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Deletes a tree without following symbolic links. */
    static void deleteRecursively(Path dir) throws IOException {
        if (!Files.exists(dir, java.nio.file.LinkOption.NOFOLLOW_LINKS)) {
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
}
