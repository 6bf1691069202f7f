package dev.xaccel.sample.boot;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;

import org.springframework.stereotype.Component;

/**
 * The library's files: every regular, non-hidden file below {@code library.root}, numbered in the order of their
 * relative paths (so a URL carries a number, never a name). Read once at startup.
 */
@Component
public class Catalog {

    /** One file: its number, its path below the root ('/'-separated), its size. */
    public record Entry(int id, String path, long size) {

        /** The last segment of {@link #path()}. */
        public String name() {
            return path.substring(path.lastIndexOf('/') + 1);
        }
    }

    private final Path root;
    private final List<Entry> entries;

    public Catalog(LibraryProperties properties) {
        this.root = properties.getRoot().toAbsolutePath();
        try (Stream<Path> all = Files.walk(root)) {
            List<Path> files = all.filter(Files::isRegularFile)
                    .filter(p -> Stream.of(root.relativize(p).toString().split("/")).noneMatch(s -> s.startsWith(".")))
                    .sorted(Comparator.comparing(p -> root.relativize(p).toString()))
                    .toList();
            this.entries = java.util.stream.IntStream.range(0, files.size())
                    .mapToObj(i -> new Entry(i, root.relativize(files.get(i)).toString(), size(files.get(i))))
                    .toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public List<Entry> entries() {
        return entries;
    }

    public Optional<Entry> find(int id) {
        return id >= 0 && id < entries.size() ? Optional.of(entries.get(id)) : Optional.empty();
    }

    /** The file of an entry. */
    public Path file(Entry entry) {
        return root.resolve(entry.path());
    }

    private static long size(Path p) {
        try {
            return Files.size(p);
        } catch (IOException e) {
            return -1;
        }
    }
}
