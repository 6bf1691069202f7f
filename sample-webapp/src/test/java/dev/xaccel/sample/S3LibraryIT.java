package dev.xaccel.sample;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

import jakarta.json.JsonArray;
import jakarta.json.JsonObject;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import dev.xaccel.sample.demolib.DemoLibrary;
import dev.xaccel.test.XAccelAssertions;
import dev.xaccel.testsupport.Poll;

/**
 * The sample with its library in an S3 store, deployed as users deploy it (the Tomcat distribution, the shipped
 * server.xml, web.xml and nginx config): the demo library imported into s3proxy (a child JVM, filesystem backend),
 * XACCEL_LIBRARY=s3://…, the store's origin in the filter's remoteOrigins and in nginx's map. Every file request is
 * authorized by the application, which presigns a GET for seconds: nginx fetches the object from the store (Tomcat
 * sends no byte), or, for a client talking to Tomcat directly, the filter streams it.
 */
class S3LibraryIT {

    static final String ADA = "Ada Lovelace";
    static final String NOTES = "Notes on the Analytical Engine";
    static final Http http = new Http();
    static SampleStack stack;

    @BeforeAll
    static void deploy() throws Exception {
        stack = SampleStack.startS3("s3", Map.of("XACCEL_DEMO_USERS", "demo:demo, admin:admin:admin"));
    }

    @AfterAll
    static void undeploy() throws Exception {
        if (stack != null) {
            stack.close();
        }
    }

    static String adaId() {
        return Library.id(ADA + "/" + NOTES);
    }

    static byte[] chapter() throws Exception {
        DemoLibrary.Book ada = DemoLibrary.BOOKS.get(0);
        return Files.readAllBytes(ada.dir(stack.library).resolve(ada.chapters().get(0).fileName()));
    }

    /** GETs of objects of the library (not the application's listings) the store received. */
    static long objectGets() throws Exception {
        return stack.store.requests().stream()
                .filter(r -> r.startsWith("GET /" + SampleStack.BUCKET + "/" + SampleStack.S3_PREFIX + "/")).count();
    }

    @Test
    void theApplicationReadsItsLibraryFromTheStore() {
        String log = stack.tomcat.log();
        assertTrue(log.contains("Serving the library in the store s3://" + SampleStack.BUCKET + "/"
                + SampleStack.S3_PREFIX + "/"), log);
        assertTrue(log.contains("signed links name local files for nginx, so they stay off"), log);
    }

    @Test
    void withoutLoginEveryFileIs401WithoutAByteAndWithoutAStoreRequest() throws Exception {
        long before = objectGets();
        byte[] wav = chapter();
        for (String url : List.of("/api/items", "/api/items/" + adaId() + "/file/0",
                "/api/items/" + adaId() + "/file/0?download=1", "/api/items/" + adaId() + "/cover",
                "/api/items/" + adaId() + "/author-picture")) {
            for (String[] headers : List.of(new String[0], new String[] {"Authorization", "Bearer forged"})) {
                HttpResponse<byte[]> r = http.get(stack.url(url), headers);
                assertEquals(401, r.statusCode(), url);
                assertTrue(r.body().length < 200, url);
                assertEquals(-1, indexOf(r.body(), Arrays.copyOfRange(wav, 5000, 5032)), url);
            }
        }
        String internal = "/_xaccel/remote/http/127.0.0.1:" + stack.store.port() + "/" + SampleStack.BUCKET + "/"
                + SampleStack.S3_PREFIX + "/Ada%20Lovelace/author.jpg";
        assertEquals(404, http.get(stack.url(internal)).statusCode(), "the remote location is internal");
        assertEquals(before, objectGets(), "the store was asked: " + stack.store.requests());
    }

    @Test
    void theItemListNamesTheApiUrlsOnly() throws Exception {
        HttpResponse<byte[]> r = http.get(stack.url("/api/items"), "Authorization", stack.bearer("demo", "demo"));
        assertEquals(200, r.statusCode(), Http.text(r));
        JsonArray items = Http.array(r);
        assertEquals(DemoLibrary.BOOKS.size(), items.size(), Http.text(r));
        JsonObject ada = items.stream().map(v -> (JsonObject) v).filter(i -> i.getString("id").equals(adaId()))
                .findFirst().orElseThrow();
        assertEquals(NOTES, ada.getString("title"));
        assertEquals("/api/items/" + adaId() + "/cover", ada.getString("cover"), "no signed link for S3");
        assertEquals("/api/items/" + adaId() + "/author-picture", ada.getString("authorPicture"));
        assertTrue(!ada.containsKey("feed") || ada.isNull("feed"), "no podcast feed for S3: " + ada);
        JsonObject file = ada.getJsonArray("files").getJsonObject(0);
        assertEquals(DemoLibrary.BOOKS.get(0).chapters().get(0).fileName(), file.getString("name"));
        assertEquals(chapter().length, file.getJsonNumber("size").longValue());
        assertEquals("audio/wav", file.getString("contentType"));
        assertTrue(!file.containsKey("library") || file.isNull("library"), "no mapped /library/ URL: " + file);
    }

    @Test
    void aChapterIsOffloadedToTheStoreByteExact() throws Exception {
        String auth = stack.bearer("demo", "demo");
        long before = objectGets();
        int mark = stack.nginx.accessLog().size();
        HttpResponse<byte[]> r = http.get(stack.url("/api/items/" + adaId() + "/file/0"), "Authorization", auth);
        assertEquals(200, r.statusCode());
        assertArrayEquals(chapter(), r.body());
        assertEquals("audio/wav", r.headers().firstValue("Content-Type").orElse(""));
        assertEquals("nosniff", r.headers().firstValue("X-Content-Type-Options").orElse(""));
        assertTrue(r.headers().firstValue("x-amz-request-id").isEmpty(), "the store's headers stay hidden");
        String line = stack.nginx.awaitAccessLogLine(l -> stack.nginx.accessLog().indexOf(l) >= mark
                && l.contains("/api/items/" + adaId() + "/file/0 "), "of the chapter");
        assertTrue(line.contains("uri=\"/_xaccel/remote/http/127.0.0.1:" + stack.store.port() + "/"
                + SampleStack.BUCKET + "/" + SampleStack.S3_PREFIX + "/Ada%20Lovelace/"), line);
        assertTrue(line.contains(" ulen=0 : " + chapter().length + " "), "Tomcat sent 0 bytes, the store all: " + line);
        assertFalse(line.contains("X-Amz-"), "no signature in the access log: " + line);
        assertEquals(before + 1, objectGets());

        // the cover too: through the API URL, offloaded the same way
        HttpResponse<byte[]> cover = http.get(stack.url("/api/items/" + adaId() + "/cover"), "Authorization", auth);
        assertEquals(200, cover.statusCode());
        assertEquals("image/png", cover.headers().firstValue("Content-Type").orElse(""));
        DemoLibrary.Book ada = DemoLibrary.BOOKS.get(0);
        assertArrayEquals(Files.readAllBytes(ada.dir(stack.library).resolve(ada.coverFile())), cover.body());
    }

    /**
     * A chapter nginx fetched from the store is receipted like a local one: nginx's receipt line from the remote
     * location reaches the tally, tagged with the chapter and the user, and the client never sees the identifier.
     */
    @Test
    void aChapterFromTheStoreReachesTheStatsThroughItsReceipt() throws Exception {
        DemoLibrary.Book ada = DemoLibrary.BOOKS.get(0);
        long size = Files.size(ada.dir(stack.library).resolve(ada.chapters().get(1).fileName()));
        HttpResponse<byte[]> r = http.get(stack.url("/api/items/" + adaId() + "/file/1"), "Authorization",
                stack.bearer("demo", "demo"));
        assertEquals(200, r.statusCode());
        assertEquals(size, r.body().length);
        assertTrue(r.headers().firstValue("X-Xaccel-Receipt").isEmpty(), "the identifier never reaches the client");
        String admin = stack.bearer("admin", "admin");
        JsonObject[] chapter = new JsonObject[1];
        JsonObject[] deliveries = new JsonObject[1];
        boolean seen = Poll.until(Duration.ofSeconds(30), Duration.ofMillis(200), () -> {
            deliveries[0] = deliveries(admin);
            chapter[0] = deliveries[0] == null ? null : chapter(deliveries[0], adaId(), 1);
            return chapter[0] != null && chapter[0].getJsonNumber("complete").longValue() >= 1;
        });
        assertTrue(seen, "no receipt of the chapter within 30 s: " + deliveries[0]);
        assertEquals(1, chapter[0].getJsonNumber("complete").longValue(), deliveries[0].toString());
        assertEquals(0, chapter[0].getJsonNumber("aborted").longValue(), deliveries[0].toString());
        long bytes = deliveries[0].getJsonObject("bytesPerUser").getJsonNumber("demo").longValue();
        assertTrue(bytes >= size, "demo's bytes " + bytes + ": " + deliveries[0]);
    }

    private static JsonObject deliveries(String admin) {
        try {
            HttpResponse<byte[]> s = http.get(stack.url("/api/stats"), "Authorization", admin);
            assertEquals(200, s.statusCode(), Http.text(s));
            JsonObject o = Http.object(s);
            return o.containsKey("deliveries") && !o.isNull("deliveries") ? o.getJsonObject("deliveries") : null;
        } catch (Exception e) {
            throw new AssertionError(e);
        }
    }

    /** The tally of one chapter, or null while it has none. */
    private static JsonObject chapter(JsonObject deliveries, String book, int index) {
        for (JsonObject c : deliveries.getJsonArray("chapters").getValuesAs(JsonObject.class)) {
            if (book.equals(c.getString("book")) && c.getInt("chapter") == index) {
                return c;
            }
        }
        return null;
    }

    @Test
    void aSeekIsA206FromTheStore() throws Exception {
        HttpResponse<byte[]> r = http.get(stack.url("/api/items/" + adaId() + "/file/0?download=1"), "Authorization",
                stack.bearer("demo", "demo"), "Range", "bytes=1000000-1999999");
        assertEquals(206, r.statusCode());
        byte[] wav = chapter();
        assertEquals("bytes 1000000-1999999/" + wav.length, r.headers().firstValue("Content-Range").orElse(""));
        assertArrayEquals(Arrays.copyOfRange(wav, 1000000, 2000000), r.body());
        String disposition = r.headers().firstValue("Content-Disposition").orElse("");
        assertTrue(disposition.startsWith("attachment;") && disposition.contains("filename=\"01 Sketch #1.wav\""),
                disposition);
    }

    /** Without nginx (a client talking to Tomcat) the filter streams the object from the store itself. */
    @Test
    void withoutNginxTheFilterStreamsTheObject() throws Exception {
        String auth = stack.bearer("demo", "demo");
        String url = stack.tomcat.url("/api/items/" + adaId() + "/file/0");
        HttpResponse<byte[]> r = http.get(url, "Authorization", auth);
        XAccelAssertions.assertThat(r).servedDirectly().withContentType("audio/wav");
        assertArrayEquals(chapter(), r.body());
        HttpResponse<byte[]> range = http.get(url, "Authorization", auth, "Range", "bytes=100-199");
        assertEquals(206, range.statusCode());
        assertArrayEquals(Arrays.copyOfRange(chapter(), 100, 200), range.body());
        // what nginx gets when it asks: an empty answer naming the remote location, the presigned query included
        HttpResponse<byte[]> decision = http.get(url, "Authorization", auth, "X-Sendfile-Type", "X-Accel-Redirect");
        XAccelAssertions.assertThat(decision).isOffloaded().withAccelExpires("0");
        assertEquals(0, decision.body().length);
        String redirect = decision.headers().firstValue("X-Accel-Redirect").orElse("");
        assertTrue(redirect.startsWith("/_xaccel/remote/http/127.0.0.1:" + stack.store.port() + "/"
                + SampleStack.BUCKET + "/" + SampleStack.S3_PREFIX + "/Ada%2520Lovelace/"), redirect);
        assertTrue(redirect.contains("X-Amz-Expires=10&"), "presigned for 10 s: " + redirect);
    }

    static int indexOf(byte[] haystack, byte[] needle) {
        outer:
        for (int i = 0; i + needle.length <= haystack.length; i++) {
            for (int j = 0; j < needle.length; j++) {
                if (haystack[i + j] != needle[j]) {
                    continue outer;
                }
            }
            return i;
        }
        return -1;
    }

}
