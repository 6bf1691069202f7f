package dev.xaccel.filter.internal.fs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.ClosedDirectoryStreamException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SecureDirectoryStream;
import java.util.Optional;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import dev.xaccel.filter.SymlinkPolicy;

/** The root held open, on Linux's real file system: kept, replaced, gone, closed. */
class RootDirectoryTest {

    @TempDir
    Path tmp;
    Path root;

    @BeforeEach
    void tree() throws IOException {
        root = Files.createDirectory(tmp.resolve("root"));
        Files.createDirectories(root.resolve("a/b/c"));
        Files.writeString(root.resolve("a/b/c/song.mp3"), "old");
        Files.writeString(root.resolve("top.mp3"), "top");
    }

    @Test
    void theRootIsOpenedOnceAndFilesBelowItAreOpenedThroughIt() throws IOException {
        RootDirectory dir = new RootDirectory(root.toRealPath());
        SecureDirectoryStream<Path> first = dir.stream();
        assertNotNull(first, "Linux has SecureDirectoryStream");
        assertSame(first, dir.stream(), "held, not opened again");
        assertEquals("old", read(ConfinedOpener.openPlain(dir, "a/b/c/song.mp3")));
        assertEquals("top", read(ConfinedOpener.openPlain(dir, "top.mp3")));
        assertSame(first, dir.stream());
        dir.close();
    }

    /** A release swapped in by renames: the directory at the root's name is taken at the next use. */
    @Test
    void aReplacedRootIsTakenAtTheNextUse() throws IOException {
        RootDirectory dir = new RootDirectory(root.toRealPath());
        SecureDirectoryStream<Path> old = dir.stream();
        assertEquals("old", read(ConfinedOpener.openPlain(dir, "a/b/c/song.mp3")));
        Files.move(root, tmp.resolve("root.old"));
        Files.createDirectories(root.resolve("a/b/c"));
        Files.writeString(root.resolve("a/b/c/song.mp3"), "new");

        assertEquals("new", read(ConfinedOpener.openPlain(dir, "a/b/c/song.mp3")));
        assertNotSame(old, dir.stream());
        assertThrows(ClosedDirectoryStreamException.class, () -> old.newDirectoryStream(Path.of("a")),
                "the old root is closed, not leaked");
        dir.close();
    }

    /** A file only the new root has is opened at once through the resolver, not answered 404. */
    @Test
    void aFileCheckedByNameBelowANewRootIsOpenedAtOnce() throws IOException {
        SafePathResolver resolver = new SafePathResolver(root, false, SymlinkPolicy.NEVER);
        RootDirectory dir = resolver.directory();
        assertNotNull(dir.stream());
        Files.move(root, tmp.resolve("root.old"));
        Files.createDirectories(root);
        Files.writeString(root.resolve("only-new.mp3"), "fresh");
        Opening opening = resolver.open("only-new.mp3");
        assertTrue(opening.isOpen(), opening.resolution()::toString);
        opening.file().close();
        dir.close();
    }

    /** A root renamed away serves nothing, although the directory held open still exists elsewhere. */
    @Test
    void aMissingRootHoldsNothingAndOpensNothing() throws IOException {
        RootDirectory dir = new RootDirectory(root.toRealPath());
        assertNotNull(dir.stream());
        Files.move(root, tmp.resolve("root.gone"));
        assertNull(dir.stream());
        assertFalse(ConfinedOpener.openPlain(dir, "top.mp3").isPresent());
        Opening opening = ConfinedOpener.open(Resolution.ok(dir, root.resolve("top.mp3"), "top.mp3"));
        assertFalse(opening.isOpen());
        assertEquals(404, opening.resolution().status());

        Files.move(tmp.resolve("root.gone"), root);
        assertEquals("top", read(ConfinedOpener.openPlain(dir, "top.mp3")));
        dir.close();
    }

    @Test
    void aClosedRootIsOpenedAgainOnUse() throws IOException {
        RootDirectory dir = new RootDirectory(root.toRealPath());
        SecureDirectoryStream<Path> first = dir.stream();
        dir.close();
        assertThrows(ClosedDirectoryStreamException.class, () -> first.newDirectoryStream(Path.of("a")));
        assertEquals("top", read(ConfinedOpener.openPlain(dir, "top.mp3")));
        dir.close();
    }

    /** The resolver's one-pass open goes through its root held open, and a link below it is still refused. */
    @Test
    void theResolverOpensBelowItsHeldRootWithoutFollowingALink() throws IOException {
        Files.createSymbolicLink(root.resolve("a/b/link.mp3"), Path.of("c/song.mp3"));
        SafePathResolver resolver = new SafePathResolver(root, false, SymlinkPolicy.NEVER);
        Opening ok = resolver.open("a/b/c/song.mp3");
        assertTrue(ok.isOpen());
        assertSame(resolver.directory(), ok.resolution().directory());
        ok.file().close();
        Opening link = resolver.open("a/b/link.mp3");
        assertFalse(link.isOpen());
        assertEquals(404, link.resolution().status());
        resolver.directory().close();
    }

    private static String read(Optional<OpenFile> file) throws IOException {
        assertTrue(file.isPresent(), "opened");
        try (OpenFile f = file.get()) {
            ByteBuffer b = ByteBuffer.allocate((int) f.size());
            f.channel().read(b, 0);
            return new String(b.array(), StandardCharsets.UTF_8);
        }
    }
}
