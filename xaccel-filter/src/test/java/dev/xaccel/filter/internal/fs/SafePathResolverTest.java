package dev.xaccel.filter.internal.fs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import java.util.stream.Stream;

import dev.xaccel.filter.SymlinkPolicy;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Real files and symbolic links in a temporary directory. Request paths are written as the container hands
 * them to the resolver: decoded once, so {@code %2e%2e%2f} arrives literally.
 */
class SafePathResolverTest {

    static final String NFC = "\u00fc.mp3";
    static final String NFD = "u\u0308.mp3";
    static final String LONG = "x".repeat(251) + ".mp3"; // 255 bytes, the usual NAME_MAX

    @TempDir
    static Path tmp;
    static Path root;
    static Path outside;

    @BeforeAll
    static void tree() throws IOException, InterruptedException {
        root = Files.createDirectory(tmp.resolve("root"));
        outside = Files.createDirectory(tmp.resolve("outside"));
        Files.writeString(outside.resolve("secret.txt"), "secret");
        Files.writeString(tmp.resolve("passwd"), "top secret");

        for (String name : new String[] {"a.mp3", "a;b.mp3", "a b.mp3", "a#b.mp3", "50%.mp3", "a?b.mp3",
                "a+b.mp3", "q\"uo'te.mp3", NFC, NFD, LONG, "%2e%2e%2fsecret.txt", "a..;b.mp3" }) {
            Files.writeString(root.resolve(name), name);
        }
        Files.createDirectories(root.resolve("sub"));
        Files.writeString(root.resolve("sub/b.mp3"), "b");
        Files.writeString(root.resolve("sub/.hidden"), "h");
        Files.writeString(root.resolve(".env"), "SECRET=1");
        Files.createDirectories(root.resolve(".git"));
        Files.writeString(root.resolve(".git/config"), "[core]");
        Files.createSymbolicLink(root.resolve("link-in"), Path.of("a.mp3"));
        Files.createSymbolicLink(root.resolve("linkdir-in"), Path.of("sub"));
        Files.createSymbolicLink(root.resolve("link-out"), outside.resolve("secret.txt"));
        Files.createSymbolicLink(root.resolve("linkdir-out"), outside);
        Files.createSymbolicLink(root.resolve("link-rel-out"), Path.of("../outside/secret.txt"));
        Files.createSymbolicLink(root.resolve("link-hidden"), Path.of(".env"));
        Files.createSymbolicLink(root.resolve("link-root"), Path.of("."));
        Files.createSymbolicLink(root.resolve("link-dangling"), Path.of("nowhere.mp3"));
        Files.createDirectories(root.resolve("sub/deeper"));
        Files.writeString(root.resolve("sub/deeper/c.mp3"), "c");
        Files.createSymbolicLink(root.resolve("sub/linkdir-out2"), outside);
        Files.createSymbolicLink(root.resolve("sub/deeper/link-up"), Path.of("../b.mp3"));
        Process p = new ProcessBuilder("mkfifo", root.resolve("fifo").toString()).inheritIO().start();
        assertEquals(0, p.waitFor(), "mkfifo");
    }

    static SafePathResolver resolver(boolean hidden, SymlinkPolicy policy) throws IOException {
        return new SafePathResolver(root, hidden, policy);
    }

    static Stream<Arguments> attacks() {
        return Stream.of(
                // parent traversal in its many spellings, as they arrive after one decoding
                Arguments.of("../outside/secret.txt", 404),
                Arguments.of("../passwd", 404),
                Arguments.of("../../../../../../etc/passwd", 404),
                Arguments.of("..", 404),
                Arguments.of("../", 404),
                Arguments.of("..%2foutside%2fsecret.txt", 404), // %2f decoded literally stays %2f
                Arguments.of("%2e%2e%2foutside/secret.txt", 404),
                Arguments.of("%2e%2e/outside/secret.txt", 404),
                Arguments.of("%252e%252e/outside/secret.txt", 404),
                Arguments.of(".%2e/outside/secret.txt", 404),
                Arguments.of("%2e./outside/secret.txt", 404),
                Arguments.of("..\\outside\\secret.txt", 400),
                Arguments.of("sub\\..\\..\\outside\\secret.txt", 400),
                Arguments.of("a.mp3\u0000.txt", 400),
                Arguments.of("\u0000", 400),
                Arguments.of("..\u0000/outside/secret.txt", 400),
                Arguments.of("\u00c0\u00ae\u00c0\u00ae/outside/secret.txt", 404), // overlong '.' as chars
                Arguments.of("\u00c0\u00af", 404),
                Arguments.of("\uff0e\uff0e/outside/secret.txt", 404), // fullwidth dots are literal
                Arguments.of("..\u2215outside\u2215secret.txt", 404),
                Arguments.of("/etc/passwd", 404),
                Arguments.of("//etc/passwd", 404),
                Arguments.of("C:\\Windows\\win.ini", 400),
                Arguments.of("C:/Windows/win.ini", 404),
                Arguments.of("c:", 404),
                Arguments.of("./.", 404),
                Arguments.of("./a.mp3", 404),
                Arguments.of("a/../../x", 404),
                Arguments.of("sub/../a.mp3", 404),
                Arguments.of("sub/./b.mp3", 404),
                Arguments.of("sub/b.mp3/../../../outside/secret.txt", 404),
                Arguments.of("...", 404),
                Arguments.of(".../outside/secret.txt", 404),
                Arguments.of("..../", 404),
                Arguments.of("a.mp3/..", 404),
                Arguments.of("..;/outside/secret.txt", 404),
                Arguments.of("a.mp3;jsessionid=1", 404),
                // empty and malformed
                Arguments.of("", 404),
                Arguments.of("/", 404),
                Arguments.of("sub//b.mp3", 404),
                Arguments.of("sub/", 404),
                Arguments.of("a.mp3/", 404),
                Arguments.of("a.mp3\r\nX-Injected: 1", 400),
                Arguments.of("a\tb.mp3", 400),
                Arguments.of("a\u007fb.mp3", 400),
                Arguments.of("\ud800.mp3", 400),
                Arguments.of("\udc00.mp3", 400),
                Arguments.of("a\ufffd.mp3", 400),
                // hidden files
                Arguments.of(".env", 404),
                Arguments.of(".git/config", 404),
                Arguments.of("sub/.hidden", 404),
                Arguments.of("link-hidden", 404),
                // not regular files or missing
                Arguments.of("sub", 404),
                Arguments.of("link-root", 404),
                Arguments.of("fifo", 404),
                Arguments.of("missing.mp3", 404),
                Arguments.of("link-dangling", 404),
                Arguments.of("a.mp3::$DATA", 404),
                Arguments.of("x".repeat(300), 404),
                // symbolic links leaving the root
                Arguments.of("link-out", 404),
                Arguments.of("link-rel-out", 404),
                Arguments.of("linkdir-out/secret.txt", 404),
                Arguments.of("sub/linkdir-out2/secret.txt", 404),
                Arguments.of("sub/b.mp3/secret.txt", 404), // a file used as a directory
                Arguments.of("link-root/../outside/secret.txt", 404));
    }

    static Stream<String> servable() {
        return Stream.of("a.mp3", "sub/b.mp3", "a;b.mp3", "a b.mp3", "a#b.mp3", "50%.mp3", "a?b.mp3",
                "a+b.mp3", "q\"uo'te.mp3", NFC, NFD, LONG, "%2e%2e%2fsecret.txt", "a..;b.mp3");
    }

    @ParameterizedTest
    @MethodSource("attacks")
    void rejectsAttacks(String payload, int status) throws IOException {
        for (SymlinkPolicy policy : SymlinkPolicy.values()) {
            for (boolean finalNameOnly : new boolean[] {false, true}) {
                if (finalNameOnly && THROUGH_DIRECTORY_LINK_OUT.contains(payload)) {
                    continue; // finalNameOnlyLeavesDirectoryLinksToTheOpener
                }
                Resolution r = resolver(false, policy).resolve(payload, finalNameOnly);
                assertFalse(r.isOk(), () -> policy + " served " + r.file());
                assertEquals(status, r.status(), () -> policy + ": " + r.reason());
                assertNull(r.file());
                assertNull(r.relativePath());
            }
        }
    }

    /**
     * {@link SafePathResolver#named} (a hand-off by the names alone): what the names decide is refused with the
     * walk's status; everything else is named as requested below the real root, without a file-system call, and
     * an open that follows no link and takes only a regular file (nginx's {@code disable_symlinks on}, modelled by
     * {@link ConfinedOpener}) refuses every one of those attacks.
     */
    @ParameterizedTest
    @MethodSource("attacks")
    void namedRefusesTheNamesAndLeavesTheRestToAnOpenThatFollowsNoLink(String payload, int status)
            throws IOException {
        Resolution r = resolver(false, SymlinkPolicy.NEVER).named(payload);
        if (!r.isOk()) {
            assertEquals(status, r.status(), r::reason);
            return;
        }
        assertEquals(payload, r.relativePath(), "named as requested");
        assertEquals(root.toRealPath().resolve(payload), r.file(), "below the real root, never a real path outside");
        assertFalse(r.hasAttributes(), "no size or time: nothing was read");
        assertThrows(IOException.class, () -> ConfinedOpener.open(r.root(), r.relativePath()).channel().close(),
                payload);
    }

    @Test
    void namedMakesNoFileSystemCall() throws IOException {
        Resolution r = resolver(false, SymlinkPolicy.NEVER).named("sub/not-there.mp3");
        assertTrue(r.isOk(), "a missing file is named: whoever opens it answers");
        assertEquals("sub/not-there.mp3", r.relativePath());
        assertEquals(resolver(false, SymlinkPolicy.NEVER).resolve("sub/b.mp3").file(),
                resolver(false, SymlinkPolicy.NEVER).named("sub/b.mp3").file(), "the walk's file, by its name");
    }

    /** The attacks that pass through a link to a directory outside the root (not a link as the file's name). */
    static final Set<String> THROUGH_DIRECTORY_LINK_OUT = Set.of("linkdir-out/secret.txt",
            "sub/linkdir-out2/secret.txt");

    /**
     * {@code frontEndConfines}: the directories are not checked, so a link to a directory outside the root is
     * named as it was requested (never by its real path outside), and whoever opens the name without following
     * links refuses it: nginx's {@code disable_symlinks} for an offload, {@link ConfinedOpener} when served
     * directly.
     */
    @Test
    void finalNameOnlyLeavesDirectoryLinksToTheOpener() throws IOException {
        for (SymlinkPolicy policy : SymlinkPolicy.values()) {
            for (String path : THROUGH_DIRECTORY_LINK_OUT) {
                Resolution r = resolver(false, policy).resolve(path, true);
                assertTrue(r.isOk(), r::toString);
                assertEquals(path, r.relativePath(), "named as requested");
                assertTrue(r.file().startsWith(root.toRealPath()), "never the real path outside");
                assertThrows(ConfinedOpener.Refused.class, () -> ConfinedOpener.open(r.root(), r.relativePath()));
            }
        }
    }

    @Test
    void finalNameOnlyStillResolvesOrRefusesALinkAsTheFileName() throws IOException {
        SafePathResolver within = resolver(false, SymlinkPolicy.WITHIN_ROOT);
        assertEquals("a.mp3", within.resolve("link-in", true).relativePath());
        assertEquals("sub/b.mp3", within.resolve("sub/deeper/link-up", true).relativePath());
        assertEquals(404, within.resolve("link-out", true).status());
        assertEquals(404, within.resolve("link-hidden", true).status());
        assertEquals(404, resolver(false, SymlinkPolicy.NEVER).resolve("link-in", true).status());
        assertEquals("sub/deeper/c.mp3", within.resolve("sub/deeper/c.mp3", true).relativePath());
    }

    @Test
    void linksDeeperDownAreFoundByTheWalk() throws IOException {
        Resolution up = resolver(false, SymlinkPolicy.WITHIN_ROOT).resolve("sub/deeper/link-up");
        assertEquals("sub/b.mp3", up.relativePath(), "a link as the file's name: the real path");
        assertEquals(404, resolver(false, SymlinkPolicy.NEVER).resolve("sub/deeper/link-up").status());
        Resolution plain = resolver(false, SymlinkPolicy.NEVER).resolve("sub/deeper/c.mp3");
        assertEquals(root.toRealPath().resolve("sub/deeper/c.mp3"), plain.file());
    }

    @Test
    void nullIsNotFound() throws IOException {
        assertEquals(404, resolver(false, SymlinkPolicy.WITHIN_ROOT).resolve(null).status());
    }

    @ParameterizedTest
    @MethodSource("servable")
    void servesOrdinaryAndOddNamesLiterally(String name) throws IOException {
        for (SymlinkPolicy policy : SymlinkPolicy.values()) {
            Resolution r = resolver(false, policy).resolve(name);
            assertTrue(r.isOk(), () -> policy + ": " + r);
            assertEquals(name, r.relativePath());
            assertEquals(root.toRealPath().resolve(name), r.file());
            assertEquals(200, r.status());
            assertNull(r.reason());
            if (!name.equals("sub/b.mp3")) {
                assertEquals(name, Files.readString(r.file(), StandardCharsets.UTF_8), "content identifies the file");
            }
        }
    }

    @Test
    void nfcAndNfdAreDifferentFiles() throws IOException {
        SafePathResolver resolver = resolver(false, SymlinkPolicy.WITHIN_ROOT);
        assertEquals(NFC, Files.readString(resolver.resolve(NFC).file()));
        assertEquals(NFD, Files.readString(resolver.resolve(NFD).file()));
    }

    @ParameterizedTest
    @ValueSource(strings = {"link-in", "linkdir-in/b.mp3"})
    void symlinksInsideTheRoot(String path) throws IOException {
        Resolution within = resolver(false, SymlinkPolicy.WITHIN_ROOT).resolve(path);
        assertTrue(within.isOk(), within::toString);
        assertFalse(within.relativePath().contains("link"), "relative path is the real one: " + within);
        assertEquals(root.toRealPath().resolve(within.relativePath()), within.file());

        Resolution never = resolver(false, SymlinkPolicy.NEVER).resolve(path);
        assertEquals(404, never.status());
    }

    @Test
    void allowHiddenServesDotFilesButNeverDotSegments() throws IOException {
        SafePathResolver resolver = resolver(true, SymlinkPolicy.WITHIN_ROOT);
        assertEquals(".env", resolver.resolve(".env").relativePath());
        assertEquals(".git/config", resolver.resolve(".git/config").relativePath());
        assertEquals(".env", resolver.resolve("link-hidden").relativePath());
        for (String p : new String[] {"..", "../outside/secret.txt", "./a.mp3", "...", ".git/../a.mp3"}) {
            assertEquals(404, resolver.resolve(p).status(), p);
        }
    }

    @Test
    void rootIsMadeReal() throws IOException {
        Path alias = tmp.resolve("alias");
        if (!Files.exists(alias, java.nio.file.LinkOption.NOFOLLOW_LINKS)) {
            Files.createSymbolicLink(alias, root);
        }
        SafePathResolver resolver = new SafePathResolver(alias, false, SymlinkPolicy.NEVER);
        assertEquals(root.toRealPath(), resolver.root());
        assertEquals("a.mp3", resolver.resolve("a.mp3").relativePath());
    }

    @Test
    void constructorRejectsBadRoots() {
        assertThrows(IOException.class,
                () -> new SafePathResolver(tmp.resolve("missing"), false, SymlinkPolicy.WITHIN_ROOT));
        assertThrows(IllegalArgumentException.class,
                () -> new SafePathResolver(root.resolve("a.mp3"), false, SymlinkPolicy.WITHIN_ROOT));
    }

    // ---- declared files ----

    @Test
    void declaredFileInsideTheRoot() throws IOException {
        for (SymlinkPolicy policy : SymlinkPolicy.values()) {
            Resolution r = resolver(false, policy).resolveDeclared(root.resolve("sub/b.mp3"));
            assertTrue(r.isOk(), r::toString);
            assertEquals("sub/b.mp3", r.relativePath());
        }
    }

    @Test
    void declaredFileThroughAnAliasOfTheRootIsAllowedEvenWithNever() throws IOException {
        Path alias = tmp.resolve("alias2");
        if (!Files.exists(alias, java.nio.file.LinkOption.NOFOLLOW_LINKS)) {
            Files.createSymbolicLink(alias, root);
        }
        Resolution r = resolver(false, SymlinkPolicy.NEVER).resolveDeclared(alias.resolve("a.mp3"));
        assertTrue(r.isOk(), r::toString);
        assertEquals("a.mp3", r.relativePath());
    }

    @Test
    void declaredNamesBelowTheRootAreWalkedWithoutRealpath() throws IOException {
        SafePathResolver within = resolver(false, SymlinkPolicy.WITHIN_ROOT);
        Path real = root.toRealPath();
        Resolution r = within.resolveNamedBelow(real.resolve("sub/deeper/c.mp3"), false);
        assertEquals("sub/deeper/c.mp3", r.relativePath());
        assertEquals(real.resolve("sub/deeper/c.mp3"), r.file());
        assertNull(within.resolveNamedBelow(real.resolve("link-in"), false), "a link: decided on the real path");
        assertNull(within.resolveNamedBelow(real.resolve("linkdir-in/b.mp3"), false));
        assertNull(within.resolveNamedBelow(outside.toRealPath().resolve("secret.txt"), false), "not below");
        assertNull(within.resolveNamedBelow(real, false), "the root itself");
        assertNull(within.resolveNamedBelow(Path.of("a.mp3"), false), "relative");
        assertNull(within.resolveNamedBelow(real.resolve("sub/../../outside/secret.txt"), false), "dots: real path");
        assertEquals(404, within.resolveNamedBelow(real.resolve(".env"), false).status());
        assertEquals(404, within.resolveNamedBelow(real.resolve("missing.mp3"), false).status());
        Resolution confined = within.resolveNamedBelow(real.resolve("linkdir-out/secret.txt"), true);
        assertEquals("linkdir-out/secret.txt", confined.relativePath(), "frontEndConfines: named as declared");
    }

    @Test
    void aDeclaredNameBelowTheRootThatALinkTakesOutIsRefusedByThePolicy() throws IOException {
        SafePathResolver within = resolver(false, SymlinkPolicy.WITHIN_ROOT);
        SafePathResolver never = resolver(false, SymlinkPolicy.NEVER);
        Path linkOut = root.resolve("link-out");
        Path throughDir = root.resolve("linkdir-out/secret.txt");
        Path linkIn = root.resolve("link-in");
        Path throughDirIn = root.resolve("linkdir-in/b.mp3");
        assertEquals(404, within.refuseLinkedName(linkOut, linkOut.toRealPath()).status(), "link out");
        assertEquals(404, within.refuseLinkedName(throughDir, throughDir.toRealPath()).status(), "directory out");
        assertEquals(404, within.refuseLinkedName(root.resolve("link-root"), root).status(), "the root itself");
        assertNull(within.refuseLinkedName(linkIn, linkIn.toRealPath()), "followed: within the root");
        assertNull(within.refuseLinkedName(throughDirIn, throughDirIn.toRealPath()));
        assertEquals(404, never.refuseLinkedName(linkIn, linkIn.toRealPath()).status(), "never: any link");
        assertEquals(404, never.refuseLinkedName(linkOut, linkOut.toRealPath()).status());
        // not its decision: a dot segment (the application joined input to the root) or a name outside the root
        assertNull(within.refuseLinkedName(root.resolve("sub/../link-out"), linkOut.toRealPath()));
        Path secret = outside.resolve("secret.txt");
        assertNull(within.refuseLinkedName(secret, secret.toRealPath()));
    }

    @Test
    void declaredRejections() throws IOException {
        SafePathResolver within = resolver(false, SymlinkPolicy.WITHIN_ROOT);
        SafePathResolver never = resolver(false, SymlinkPolicy.NEVER);
        assertEquals(500, within.resolveDeclared(Path.of("a.mp3")).status(), "relative");
        assertEquals("not absolute", within.resolveDeclared(Path.of("a.mp3")).reason());
        assertEquals(500, within.resolveDeclared(null).status());
        assertEquals(500, within.resolveDeclared(outside.resolve("secret.txt")).status(), "outside");
        assertEquals(404, within.resolveDeclared(root.resolve("link-out")).status(), "link to outside");
        assertEquals(404, within.resolveDeclared(root.resolve("linkdir-out/secret.txt")).status(), "through one");
        assertEquals(500, within.resolveDeclared(root).status(), "the root itself");
        assertEquals(404, within.resolveDeclared(root.resolve("missing.mp3")).status());
        assertEquals(404, within.resolveDeclared(root.resolve("sub")).status(), "directory");
        assertEquals(404, within.resolveDeclared(root.resolve("fifo")).status());
        assertEquals(404, within.resolveDeclared(root.resolve(".env")).status(), "hidden");
        assertEquals(404, within.resolveDeclared(root.resolve(".git/config")).status(), "hidden dir");
        assertEquals(404, within.resolveDeclared(root.resolve("link-hidden")).status(), "link to hidden");
        assertEquals(404, within.resolveDeclared(root.resolve("sub/../a.mp3")).status(), "dot segments");
        assertEquals(404, within.resolveDeclared(root.resolve("../outside/secret.txt")).status());
        assertTrue(within.resolveDeclared(root.resolve("link-in")).isOk());
        assertEquals(404, never.resolveDeclared(root.resolve("link-in")).status(), "link under NEVER");
        assertEquals(404, never.resolveDeclared(root.resolve("linkdir-in/b.mp3")).status());
        assertTrue(resolver(true, SymlinkPolicy.NEVER).resolveDeclared(root.resolve(".env")).isOk());
    }
}
