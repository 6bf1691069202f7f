package dev.xaccel.sample;

import java.util.List;

/**
 * One audiobook: an {@code Author/Title/} folder of the library.
 *
 * @param id            stable id derived from the folder's relative path
 * @param author        first-level folder name
 * @param title         second-level folder name
 * @param cover         the cover image, or null
 * @param authorPicture the author's picture {@code Author/}{@value Library#AUTHOR_PICTURE}, or null
 * @param files         audio files, in natural order
 */
public record Book(String id, String author, String title, Library.Entry cover, Library.Entry authorPicture,
                   List<Library.Entry> files) {

    public Book {
        files = List.copyOf(files);
    }
}
