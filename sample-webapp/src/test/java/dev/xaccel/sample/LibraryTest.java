package dev.xaccel.sample;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LibraryTest {

    @TempDir
    Path root;

    private Path file(String rel) throws IOException {
        Path p = root.resolve(rel);
        Files.createDirectories(p.getParent());
        Files.writeString(p, rel);
        return p;
    }

    @Test
    void scansAuthorTitleFoldersWithAudioAndCover() throws IOException {
        file("Jane Doe/Book #1/Chapter 10.mp3");
        file("Jane Doe/Book #1/Chapter 2.mp3");
        file("Jane Doe/Book #1/back.jpg");
        file("Jane Doe/Book #1/Cover.png");
        file("Jane Doe/Book #1/notes.txt");
        file("Jane Doe/Book #1/.hidden.mp3");
        file("Jane Doe/No audio/cover.jpg");
        file("Ålfred/Ünïcode ?+%/a.m4b");
        file(".trash/Old/x.mp3");

        DirectoryLibrary lib = new DirectoryLibrary(root);
        List<Book> books = lib.books();
        assertEquals(2, books.size());
        Book b = books.stream().filter(x -> x.title().equals("Book #1")).findFirst().orElseThrow();
        assertEquals("Jane Doe", b.author());
        assertEquals(List.of("Chapter 2.mp3", "Chapter 10.mp3"),
                b.files().stream().map(Library.Entry::name).toList());
        assertEquals("Cover.png", b.cover().name());
        assertEquals("Jane Doe/Book #1/Chapter 2.mp3", b.files().get(0).relative());
        assertEquals(root.toRealPath().resolve("Jane Doe/Book #1/Chapter 2.mp3"), lib.file(b.files().get(0)));
        assertEquals("Jane Doe/Book #1/Chapter 2.mp3".length(), b.files().get(0).size());

        Book u = books.stream().filter(x -> x.author().equals("Ålfred")).findFirst().orElseThrow();
        assertNull(u.cover());
        assertNull(u.authorPicture());
        assertNull(b.authorPicture());
        assertEquals(u, lib.find(u.id()).orElseThrow());
        assertTrue(lib.find("nope").isEmpty());
    }

    /** Exactly Author/author.jpg: no other name, no other level, no directory of that name. */
    @Test
    void anAuthorPictureIsAuthorJpgInTheAuthorsFolder() throws IOException {
        file("Jane Doe/Book 1/a.mp3");
        file("Jane Doe/Book 2/a.mp3");
        Path picture = file("Jane Doe/" + Library.AUTHOR_PICTURE);
        file("John Roe/Book/a.mp3");
        file("John Roe/Author.JPG");
        file("John Roe/portrait.jpg");
        file("John Roe/Book/" + Library.AUTHOR_PICTURE);
        Files.createDirectories(root.resolve("Max Poe/" + Library.AUTHOR_PICTURE));
        file("Max Poe/Book/a.mp3");

        DirectoryLibrary lib = new DirectoryLibrary(root);
        for (Book b : lib.books()) {
            if (b.author().equals("Jane Doe")) {
                assertEquals(picture.toRealPath(), lib.file(b.authorPicture()), b.title());
                assertEquals("Jane Doe/author.jpg", b.authorPicture().relative());
            } else {
                assertNull(b.authorPicture(), b.author());
            }
        }
        assertEquals(4, lib.books().size());
        assertEquals("author.jpg", Library.AUTHOR_PICTURE);
    }

    /** The keys of a bucket index like the folders of a disk (S3Library lists them flat). */
    @Test
    void flatKeysAreIndexedLikeFolders() {
        java.time.Instant t = java.time.Instant.EPOCH;
        List<Book> books = Library.index(List.of(new Library.Entry("Jane Doe/Book/Chapter 10.mp3", 1, t),
                new Library.Entry("Jane Doe/Book/Chapter 2.mp3", 2, t),
                new Library.Entry("Jane Doe/Book/back.jpg", 3, t),
                new Library.Entry("Jane Doe/Book/folder.png", 4, t), new Library.Entry("Jane Doe/author.jpg", 5, t),
                new Library.Entry("Jane Doe/Author.JPG", 6, t), new Library.Entry("Jane Doe/.x/Book/a.mp3", 7, t),
                new Library.Entry("Jane Doe/Book/.hidden.mp3", 8, t),
                new Library.Entry("Jane Doe/Book/deep/a.mp3", 9, t),
                new Library.Entry("Jane Doe//a.mp3", 10, t), new Library.Entry("Other/No audio/cover.jpg", 11, t),
                new Library.Entry("Abe/T/x.ogg", 12, t)));
        assertEquals(List.of("Abe", "Jane Doe"), books.stream().map(Book::author).toList());
        Book b = books.get(1);
        assertEquals(List.of("Chapter 2.mp3", "Chapter 10.mp3"), b.files().stream().map(Library.Entry::name).toList());
        assertEquals("folder.png", b.cover().name());
        assertEquals("Jane Doe/author.jpg", b.authorPicture().relative());
        assertNull(books.get(0).cover());
        assertEquals(Library.id("Jane Doe/Book"), b.id());
    }

    @Test
    void idsAreStableAndShort() {
        assertEquals(Library.id("Jane Doe/Book #1"), Library.id("Jane Doe/Book #1"));
        assertEquals(12, Library.id("x").length());
        assertTrue(!Library.id("a/b").equals(Library.id("a/c")));
    }
}
