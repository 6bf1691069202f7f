package dev.xaccel.sample;

import java.nio.file.Path;
import java.util.List;

/**
 * One audiobook: a {@code Author/Title/} folder of the library.
 *
 * @param id            stable id derived from the folder's relative path
 * @param author        first-level folder name
 * @param title         second-level folder name
 * @param dir           the folder
 * @param cover         the cover image, or null
 * @param authorPicture the author's picture {@code Author/}{@value Library#AUTHOR_PICTURE}, or null
 * @param files         audio files, in natural order
 */
public record Book(String id, String author, String title, Path dir, Path cover, Path authorPicture,
                   List<Path> files) {

    public Book {
        files = List.copyOf(files);
    }
}
