package dev.xaccel.filter;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.security.MessageDigest;
import java.time.Duration;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.MethodSource;

import dev.xaccel.testsupport.HttpDate;
import dev.xaccel.testsupport.RawHttp;
import dev.xaccel.testsupport.TestPaths;
import dev.xaccel.testsupport.boundary.BoundaryCheck;
import dev.xaccel.testsupport.media.MediaFixture;
import dev.xaccel.testsupport.servlet.BearerAuthFilter;

/**
 * The remote-object scenarios, once through nginx ({@link RemoteOffloadIT}) and once with the filter streaming the
 * object itself ({@link RemoteDirectIT}): byte-exact objects with awkward keys, a single range, HEAD, a conditional
 * GET, the application's 401 without a byte of the object (and no request to the store), an expired presign and an
 * origin outside {@code remoteOrigins} without the store's error body, client credentials never at the store, and a
 * 256 MiB object that streams (nginx: without a temp file).
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class AbstractRemoteIT {

    static final int BIG = 256 * 1024 * 1024;
    private static final AtomicInteger IDS = new AtomicInteger();

    final RemoteStack stack;

    AbstractRemoteIT(String suite, boolean withNginx) {
        try {
            stack = RemoteStack.start(suite, withNginx);
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    @AfterAll
    void stop() throws Exception {
        stack.close();
    }

    /**
     * Every awkward file name of the local tests, plus what S3 keys have besides (empty and dot segments, a literal
     * {@code %2F}, a backslash, a control character), but the names longer than 200 bytes: jclouds' filesystem
     * backend writes a key through a temp file named key + 37 characters, which the file system refuses.
     */
    static List<String> keys() {
        List<String> keys = new java.util.ArrayList<>(MediaFixture.AWKWARD_NAMES);
        keys.removeIf(k -> k.getBytes(StandardCharsets.UTF_8).length > 200);
        keys.addAll(List.of("a//double slash.bin", "dot/./segment.bin", "%2F literal.bin", "back\\slash.bin",
                "trailing dot.", "ctrl\u0001char.bin"));
        return keys;
    }

    /** Uploads {@code content} under {@code key} and registers it: the application's URL for it. */
    String object(String key, byte[] content) throws Exception {
        stack.store.put(key, content);
        String id = "o" + IDS.incrementAndGet();
        stack.objects.key(id, key);
        return "/objects/" + id;
    }

    static RawHttp.Request authGet(String target) {
        return RawHttp.get(target).header("Authorization", BearerAuthFilter.AUTHORIZATION);
    }

    @ParameterizedTest
    @MethodSource("keys")
    void anAwkwardKeyIsServedByteExact(String key) throws Exception {
        byte[] content = BoundaryCheck.uniqueContent(key, 3000);
        String target = object(key, content);
        RawHttp.Response r = authGet(target).send(stack.port());
        assertEquals(200, r.status(), key + ": " + r);
        assertArrayEquals(content, r.body(), key);
        assertEquals(Integer.toString(content.length), r.header("Content-Length"));
        assertEquals("nosniff", r.header("X-Content-Type-Options"));
        assertTrue(r.header("Content-Security-Policy").contains("sandbox"), r.toString());
        assertNull(r.header("x-amz-request-id"), "the store's headers stay hidden");
        assertNull(r.header("x-amz-storage-class"));
        assertFalse(String.valueOf(r.header("Server")).contains("Jetty"), r.toString());
    }

    @Test
    void theApplicationsTypeAndDispositionWin() throws Exception {
        String target = object("chapters/Chapter 1.mp3", BoundaryCheck.uniqueContent("chapter", 2000));
        RawHttp.Response r = authGet(target + "?download=1").send(stack.port());
        assertEquals(200, r.status(), r.toString());
        assertEquals("audio/mpeg", r.header("Content-Type"));
        assertEquals(1, r.headers("Content-Disposition").size(), r.toString());
        assertTrue(r.header("Content-Disposition").startsWith("attachment;"), r.toString());
        assertTrue(r.header("Content-Disposition").contains("filename=\"Chapter 1.mp3\""), r.toString());
    }

    @Test
    void aSingleRangeIsAnsweredByTheStore() throws Exception {
        byte[] content = BoundaryCheck.uniqueContent("range", 10_000);
        String target = object("range.bin", content);
        RawHttp.Response r = authGet(target).header("Range", "bytes=1000-1999").send(stack.port());
        assertEquals(206, r.status(), r.toString());
        assertEquals("bytes 1000-1999/10000", r.header("Content-Range"));
        assertArrayEquals(Arrays.copyOfRange(content, 1000, 2000), r.body());
    }

    @Test
    void headGivesTheLengthAndNoBody() throws Exception {
        String target = object("head.bin", BoundaryCheck.uniqueContent("head", 4321));
        RawHttp.Response r = RawHttp.head(target).header("Authorization", BearerAuthFilter.AUTHORIZATION)
                .send(stack.port());
        assertEquals(200, r.status(), r.toString());
        assertEquals("4321", r.header("Content-Length"));
        assertEquals(0, r.body().length);
    }

    @Test
    void aConditionalGetIsAnsweredNotModified() throws Exception {
        String target = object("conditional.bin", BoundaryCheck.uniqueContent("conditional", 1000));
        String etag = authGet(target).send(stack.port()).header("ETag");
        assertNotNull(etag);
        RawHttp.Response r = authGet(target).header("If-None-Match", etag).send(stack.port());
        assertEquals(304, r.status(), r.toString());
        assertEquals(0, r.body().length);
    }

    /**
     * Conditional headers that are not HTTP dates or entity tags are ignored, as RFC 9110 has it: the client gets the
     * object, never the 502 of a store that refuses them; an invalid If-Range makes its range ignored too.
     */
    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "If-Modified-Since   | garbage",
        "If-Modified-Since   | Sun, 31 Foo 2024 25:61:61 GMT",
        "If-Unmodified-Since | garbage",
        "If-None-Match       | garbage",
        "If-None-Match       | \"unterminated",
        "If-Match            | garbage",
        "If-Match            | W/ nope",
        "If-Range            | garbage",
    })
    void anInvalidConditionalHeaderIsIgnored(String name, String value) throws Exception {
        byte[] content = BoundaryCheck.uniqueContent("invalid " + name + value, 3000);
        String target = object("invalid-conditional.bin", content);
        RawHttp.Response r = authGet(target).header(name, value).header("Range", "bytes=0-9").send(stack.port());
        if (name.equals("If-Range")) {
            assertEquals(200, r.status(), name + ": " + value + " -> " + r);
            assertArrayEquals(content, r.body());
        } else {
            assertEquals(206, r.status(), name + ": " + value + " -> " + r);
            assertArrayEquals(Arrays.copyOf(content, 10), r.body());
        }
        S3Store.Received at = stack.store.received().stream()
                .filter(q -> q.target().startsWith("/media/invalid-conditional.bin?")).reduce((a, b) -> b)
                .orElseThrow();
        assertFalse(at.headers().keySet().stream().anyMatch(n -> n.equalsIgnoreCase(name)),
                name + " reached the store: " + at);
    }

    /** Valid conditional headers still reach the store, which answers them. */
    @Test
    void validConditionalHeadersStillReachTheStore() throws Exception {
        byte[] content = BoundaryCheck.uniqueContent("valid conditionals", 3000);
        String target = object("valid-conditional.bin", content);
        RawHttp.Response first = authGet(target).send(stack.port());
        String etag = first.header("ETag");
        String lastModified = first.header("Last-Modified");
        assertNotNull(etag, first.toString());
        assertNotNull(lastModified, first.toString());
        // a second later: the store keeps the object's time in milliseconds, Last-Modified has whole seconds
        String later = HttpDate.format(HttpDate.parse(lastModified) + 1000);
        assertEquals(304, authGet(target).header("If-Modified-Since", later).send(stack.port()).status());
        assertEquals(304, authGet(target).header("If-None-Match", etag).send(stack.port()).status());
        assertEquals(412, authGet(target).header("If-Match", "\"nope\"").send(stack.port()).status());
        assertEquals(412, authGet(target).header("If-Unmodified-Since", "Thu, 01 Jan 1970 00:00:00 GMT")
                .send(stack.port()).status());
        RawHttp.Response part = authGet(target).header("If-Range", etag).header("Range", "bytes=0-9")
                .send(stack.port());
        assertEquals(206, part.status(), part.toString());
        assertArrayEquals(Arrays.copyOf(content, 10), part.body());
        S3Store.Received at = stack.store.received().stream()
                .filter(q -> q.target().startsWith("/media/valid-conditional.bin?")).reduce((a, b) -> b)
                .orElseThrow();
        assertTrue(at.headers().entrySet().stream()
                .anyMatch(h -> h.getKey().equalsIgnoreCase("If-Range") && h.getValue().equals(etag)), at.toString());
    }

    @Test
    void theApplicationsDenialCarriesNoByteAndNeverReachesTheStore() throws Exception {
        byte[] content = BoundaryCheck.uniqueContent("denied", 5000);
        String target = object("denied.bin", content);
        int before = stack.store.received().size();
        RawHttp.Response r = RawHttp.get(target).send(stack.port());
        assertEquals(401, r.status(), r.toString());
        assertEquals(-1, RawHttp.indexOf(r.raw(), Arrays.copyOfRange(content, 100, 132), 0));
        assertEquals(before, stack.store.received().size(), "no request reached the store");
    }

    @Test
    void anExpiredPresignGivesACleanErrorWithoutTheStoresBody() throws Exception {
        stack.store.put("expired.bin", BoundaryCheck.uniqueContent("expired", 1000));
        URI url = stack.store.presignGet("expired.bin", Duration.ofSeconds(1));
        Thread.sleep(2100);
        stack.objects.fixed("expired", url);
        RawHttp.Response r = authGet("/objects/expired").send(stack.port());
        assertEquals(502, r.status(), r.toString());
        String text = new String(r.raw(), StandardCharsets.ISO_8859_1);
        for (String storeSays : List.of("<Error>", "AccessDenied", "expired", "xml", "Jetty")) {
            assertFalse(text.toLowerCase(Locale.ROOT).contains(storeSays.toLowerCase(Locale.ROOT)),
                    storeSays + " in " + text);
        }
        assertTrue(stack.store.received().stream().anyMatch(q -> q.target().startsWith("/media/expired.bin?")),
                "the store did refuse it");
    }

    @Test
    void anOriginOutsideTheAllowListIsRefused() throws Exception {
        stack.store.put("elsewhere.bin", BoundaryCheck.uniqueContent("elsewhere", 1000));
        URI url = stack.store.presignGet("elsewhere.bin", Duration.ofSeconds(30));
        stack.objects.fixed("elsewhere", URI.create(url.toString().replace("//127.0.0.1:", "//localhost:")));
        int before = stack.store.received().size();
        RawHttp.Response r = authGet("/objects/elsewhere").send(stack.port());
        assertEquals(500, r.status(), r.toString());
        assertEquals(before, stack.store.received().size(), "nothing was fetched");
    }

    @Test
    void theClientsCredentialsNeverReachTheStore() throws Exception {
        String target = object("credentials.bin", BoundaryCheck.uniqueContent("credentials", 1000));
        RawHttp.Response r = authGet(target).header("Cookie", "JSESSIONID=client-session")
                .header("X-Amz-Security-Token", "client-token").header("X-Amz-Date", "20200101T000000Z")
                .send(stack.port());
        assertEquals(200, r.status(), r.toString());
        S3Store.Received at = stack.store.received().stream()
                .filter(q -> q.target().startsWith("/media/credentials.bin?")).reduce((a, b) -> b).orElseThrow();
        for (String name : at.headers().keySet()) {
            String n = name.toLowerCase(Locale.ROOT);
            assertFalse(n.equals("authorization") || n.equals("cookie") || n.startsWith("x-amz-"),
                    name + " reached the store: " + at);
        }
    }

    @Test
    void a256MiBObjectStreams() throws Exception {
        Path file = TestPaths.target().resolve("big-" + getClass().getSimpleName() + ".bin");
        String expected = writePattern(file, BIG);
        String target;
        try {
            stack.store.put("big/object.bin", file);
            String id = "big";
            stack.objects.key(id, "big/object.bin");
            target = "/objects/" + id;
        } finally {
            java.nio.file.Files.deleteIfExists(file);
        }
        HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
        HttpResponse<InputStream> r = client.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + stack.port()
                + target)).header("Authorization", BearerAuthFilter.AUTHORIZATION).build(),
                HttpResponse.BodyHandlers.ofInputStream());
        assertEquals(200, r.statusCode());
        MessageDigest sha = MessageDigest.getInstance("SHA-256");
        long total = 0;
        try (InputStream in = r.body()) {
            byte[] buffer = new byte[1 << 16];
            int n;
            while ((n = in.read(buffer)) >= 0) {
                sha.update(buffer, 0, n);
                total += n;
                if (total >= 8 << 20 && total - n < 8 << 20) {
                    whileStreaming(); // 8 MiB in, the rest still on its way
                }
            }
        }
        assertEquals(BIG, total);
        assertEquals(expected, HexFormat.of().formatHex(sha.digest()));
        afterStreaming();
    }

    /** Called once while the big object is being read (slowly): nginx's checks of its temp files. */
    void whileStreaming() throws Exception {
    }

    void afterStreaming() throws Exception {
    }

    /** Writes {@code size} bytes of a counter pattern in 1 MiB chunks; returns their SHA-256. */
    static String writePattern(Path file, int size) throws Exception {
        MessageDigest sha = MessageDigest.getInstance("SHA-256");
        ByteBuffer chunk = ByteBuffer.allocate(1 << 20);
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                StandardOpenOption.TRUNCATE_EXISTING)) {
            for (int written = 0, block = 0; written < size; written += chunk.capacity(), block++) {
                chunk.clear();
                while (chunk.hasRemaining()) {
                    chunk.putInt(block * 31 + chunk.position());
                }
                sha.update(chunk.array());
                chunk.flip();
                while (chunk.hasRemaining()) {
                    ch.write(chunk);
                }
            }
        }
        return HexFormat.of().formatHex(sha.digest());
    }
}
