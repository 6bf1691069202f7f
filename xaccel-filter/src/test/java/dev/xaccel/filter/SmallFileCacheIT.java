package dev.xaccel.filter;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.FileTime;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import javax.management.ObjectName;

import org.apache.catalina.servlets.DefaultServlet;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import dev.xaccel.testsupport.RawHttp;
import dev.xaccel.testsupport.TestPaths;
import dev.xaccel.testsupport.servlet.WebApp;
import dev.xaccel.testsupport.tomcat.EmbeddedTomcat;

/**
 * Small files answered from memory (the default {@code smallFileCacheSize}) against real Tomcat, each change made to
 * a file whose bytes are kept and were just answered from memory: written in place with its old size and time,
 * replaced by a rename, truncated, swapped for a link out of the root, rewritten twice within one second. Each next
 * answer has the new bytes or the refusal the path rules give, never the old bytes. Beside it Tomcat's
 * {@link DefaultServlet} serving the same directory answers the old bytes after the same in-place change: its
 * resource cache looks only at the size and the modification time (and only every {@code cacheTtl}, 5 s).
 */
class SmallFileCacheIT {

    private static final String JMX = "dev.xaccel:type=XAccelFilter,name=smallFileCacheIT";

    static Path media;
    static Path outside;
    static EmbeddedTomcat tomcat;

    @BeforeAll
    static void start() throws Exception {
        Path dir = TestPaths.freshDir("e2e-small-file-cache");
        // the filter's root is the static context's document root: both serve the same files
        media = Files.createDirectories(dir.resolve("tomcat/webapps/static")).toRealPath();
        outside = Files.writeString(Files.createDirectories(dir.resolve("outside")).resolve("secret.txt"),
                "secret bytes from outside the root");
        for (String name : new String[] {"inplace", "renamed", "truncated", "linked", "twice", "stale"}) {
            Files.createDirectories(media.resolve("books/" + name));
            Files.write(media.resolve("books/" + name + "/chapter.txt"), old(name));
        }
        Map<String, String> params = new HashMap<>();
        params.put("locations", media + "/ => /_xaccel/media/");
        params.put("mappings", "/library/ => " + media + "/");
        params.put("offload", "never");
        params.put("jmxName", JMX);
        tomcat = EmbeddedTomcat.builder(dir.resolve("tomcat"))
                .webapp(WebApp.at("/files").containerMimeMappings().xaccelFilter(params)
                        .defaultServlet(new ChainServlet()))
                .webapp(WebApp.at("/static").containerMimeMappings().defaultServlet(new DefaultServlet()))
                .start();
        // settled: a file changed within the last second is not kept
        Thread.sleep(1300);
    }

    @AfterAll
    static void stop() {
        if (tomcat != null) {
            tomcat.close();
        }
    }

    /** The first bytes of a file: 4 KiB, its name in them. */
    static byte[] old(String name) {
        byte[] b = new byte[4096];
        Arrays.fill(b, (byte) 'o');
        byte[] n = name.getBytes(StandardCharsets.US_ASCII);
        System.arraycopy(n, 0, b, 0, n.length);
        return b;
    }

    /** Other bytes of the same length. */
    static byte[] changed(String name) {
        byte[] b = old(name);
        Arrays.fill(b, n(name), b.length, (byte) 'N');
        return b;
    }

    private static int n(String name) {
        return name.length();
    }

    static Path file(String name) {
        return media.resolve("books/" + name + "/chapter.txt");
    }

    static RawHttp.Response get(String target) {
        return RawHttp.get(target).send(tomcat.port());
    }

    static RawHttp.Response library(String name) {
        return get("/files/library/books/" + name + "/chapter.txt");
    }

    static long hits() throws Exception {
        return (Long) ManagementFactory.getPlatformMBeanServer().getAttribute(new ObjectName(JMX),
                "SmallFileCacheHits");
    }

    /** Read until an answer comes from memory (the first read keeps the bytes): the state each test changes. */
    static void kept(String name) throws Exception {
        assertArrayEquals(old(name), library(name).body());
        long before = hits();
        RawHttp.Response r = library(name);
        assertEquals(200, r.status(), r.toString());
        assertArrayEquals(old(name), r.body());
        assertEquals(before + 1, hits(), name + ": answered from memory");
    }

    /** The same length and the same modification time: only the change time (and the inode's data) differ. */
    @Test
    void writtenInPlaceWithItsOldSizeAndTime() throws Exception {
        kept("inplace");
        FileTime mtime = Files.getLastModifiedTime(file("inplace"));
        Files.write(file("inplace"), changed("inplace"));
        Files.setLastModifiedTime(file("inplace"), mtime);
        long before = hits();
        RawHttp.Response r = library("inplace");
        assertEquals(200, r.status(), r.toString());
        assertArrayEquals(changed("inplace"), r.body());
        assertEquals(before, hits(), "not from memory");
    }

    @Test
    void replacedByARename() throws Exception {
        kept("renamed");
        Path next = Files.write(file("renamed").resolveSibling("next.tmp"), changed("renamed"));
        Files.setLastModifiedTime(next, Files.getLastModifiedTime(file("renamed")));
        Files.move(next, file("renamed"), StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        assertArrayEquals(changed("renamed"), library("renamed").body());
    }

    @Test
    void truncated() throws Exception {
        kept("truncated");
        Files.write(file("truncated"), new byte[0]);
        RawHttp.Response r = library("truncated");
        assertEquals(200, r.status(), r.toString());
        assertEquals(0, r.body().length, r.toString());
        assertEquals("0", r.header("Content-Length"));
    }

    /** A link out of the root in the file's place: 404 (within-root), neither the old bytes nor the link's target. */
    @Test
    void swappedForALinkOutOfTheRoot() throws Exception {
        kept("linked");
        Path tmp = file("linked").resolveSibling("link.tmp");
        Files.createSymbolicLink(tmp, outside);
        Files.move(tmp, file("linked"), StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        RawHttp.Response r = library("linked");
        assertEquals(404, r.status(), r.toString());
        assertFalse(r.bodyText().contains("secret") || r.bodyText().contains("oooo"), r.toString());
    }

    /**
     * Rewritten twice within one second, the size and modification time kept each time: every answer has the bytes
     * on disk at that moment, and none comes from memory (a file changed within the last second is not kept).
     */
    @Test
    void rewrittenTwiceWithinOneSecond() throws Exception {
        kept("twice");
        FileTime mtime = Files.getLastModifiedTime(file("twice"));
        long before = hits();
        byte[] second = changed("twice");
        byte[] third = old("twice");
        third[third.length - 1] = '3';
        Files.write(file("twice"), second);
        Files.setLastModifiedTime(file("twice"), mtime);
        assertArrayEquals(second, library("twice").body());
        assertArrayEquals(second, library("twice").body());
        Files.write(file("twice"), third);
        Files.setLastModifiedTime(file("twice"), mtime);
        assertArrayEquals(third, library("twice").body());
        assertArrayEquals(third, library("twice").body());
        assertEquals(before, hits(), "nothing changed within the second is answered from memory");
    }

    /**
     * The comparison: the same in-place change (same size, same modification time) seen by Tomcat's
     * DefaultServlet, which keeps answering the old bytes from its resource cache, and by the filter, which does
     * not.
     */
    @Test
    void defaultServletAnswersStaleBytesWhereTheFilterDoesNot() throws Exception {
        String target = "/static/books/stale/chapter.txt";
        assertArrayEquals(old("stale"), get(target).body());
        assertArrayEquals(old("stale"), get(target).body());
        kept("stale");
        FileTime mtime = Files.getLastModifiedTime(file("stale"));
        Files.write(file("stale"), changed("stale"));
        Files.setLastModifiedTime(file("stale"), mtime);

        RawHttp.Response fromDefault = get(target);
        assertEquals(200, fromDefault.status(), fromDefault.toString());
        assertArrayEquals(old("stale"), fromDefault.body(), "DefaultServlet answered from its resource cache");
        RawHttp.Response fromFilter = library("stale");
        assertArrayEquals(changed("stale"), fromFilter.body(), "the filter answered the file on disk");
        assertTrue(Files.size(file("stale")) == old("stale").length);
    }
}
