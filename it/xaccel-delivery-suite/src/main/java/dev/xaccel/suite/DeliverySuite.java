package dev.xaccel.suite;

import static dev.xaccel.testsupport.media.MediaFixture.encodePath;
import static dev.xaccel.testsupport.media.MediaFixture.sha256;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;

import dev.xaccel.testsupport.HttpDate;
import dev.xaccel.testsupport.RawHttp;
import dev.xaccel.testsupport.frontend.FrontEnd;
import dev.xaccel.testsupport.media.MediaFixture;
import dev.xaccel.testsupport.servlet.BearerAuthFilter;
import dev.xaccel.testsupport.servlet.SuiteApp;

/**
 * The client-visible contract of a file download through the front end ({@link SuiteEnvironment}), held identical
 * for the offloaded path (the front end serves the file after the offload header) and the direct path (the filter
 * serves it, offload {@code never}). Each subclass only says how the filter is configured and whether the front
 * end's access log must show an offload ({@link FrontEnd.Delivery}). Every scenario runs for the mapped URL
 * ({@code /library/...}) and for the declared API ({@code /files/...} via {@code XAccel.sendFile}).
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
public abstract class DeliverySuite {

    /** How the file is asked for. */
    public enum Api {
        MAPPED(SuiteApp.MAPPED_PREFIX), DECLARED(SuiteApp.DECLARED_PREFIX);

        final String prefix;

        Api(String prefix) {
            this.prefix = prefix;
        }

        String target(String relative) {
            return prefix + encodePath(relative);
        }
    }

    private static final AtomicInteger REQUEST_IDS = new AtomicInteger();

    DeliveryStack stack;
    MediaFixture media;

    /** Names the suite's directories under target/. */
    protected abstract String suite();

    /** Init-params added to the shared locations/mappings. */
    protected abstract Map<String, String> filterParams();

    /** True when the front end, not the container, must have sent the file bytes. */
    protected abstract boolean offloaded();

    @BeforeAll
    void startStack() throws Exception {
        stack = DeliveryStack.start(suite(), filterParams(), true);
        media = stack.media;
    }

    @AfterAll
    void stopStack() {
        if (stack != null) {
            stack.close();
        }
    }

    /** A tracked, authorized request through nginx. */
    final class Exchange {
        final String id = suite() + "-" + REQUEST_IDS.incrementAndGet();
        final RawHttp.Request request;
        RawHttp.Response response;

        Exchange(String method, String target) {
            request = RawHttp.request(method, target).header("Authorization", BearerAuthFilter.AUTHORIZATION)
                    .header("X-Request-Id", id);
        }

        Exchange header(String name, String value) {
            request.header(name, value);
            return this;
        }

        RawHttp.Response send() {
            response = request.send(stack.frontEndPort());
            return response;
        }

        /** Sends the request with {@code body} as a form's ({@code application/x-www-form-urlencoded}). */
        RawHttp.Response sendForm(String body) {
            byte[] form = body.getBytes(StandardCharsets.US_ASCII);
            request.header("Content-Type", "application/x-www-form-urlencoded")
                    .header("Content-Length", Integer.toString(form.length));
            byte[] head = request.bytes();
            byte[] raw = Arrays.copyOf(head, head.length + form.length);
            System.arraycopy(form, 0, raw, head.length, form.length);
            response = RawHttp.send(stack.frontEndPort(), request.method(), raw);
            return response;
        }

        /** Checks from the front end's access log who delivered the file. */
        void assertDeliveredByExpectedSide(boolean withBody) {
            assertDeliveredBy(offloaded(), withBody);
        }

        /** Checks who delivered the file: the front end ({@code frontEnd}) or the container. */
        void assertDeliveredBy(boolean frontEnd, boolean withBody) {
            FrontEnd.Delivery d = stack.frontEnd().delivery(id);
            if (frontEnd) {
                assertTrue(d.offloaded(), "not offloaded: " + d.logLine());
                assertFalse(d.backendSentBody(), "offloaded response had a body: " + d.logLine());
            } else {
                assertFalse(d.offloaded(), "offloaded: " + d.logLine());
                if (withBody) {
                    assertTrue(d.backendSentBody(), "the container sent no body: " + d.logLine());
                }
            }
        }
    }

    Exchange get(String target) {
        return new Exchange("GET", target);
    }

    Exchange head(String target) {
        return new Exchange("HEAD", target);
    }

    // ---------------------------------------------------------------- whole files

    @ParameterizedTest
    @EnumSource(Api.class)
    void multiMegabyteFileIsByteExact(Api api) {
        Exchange x = get(api.target("big.bin"));
        RawHttp.Response r = x.send();
        assertEquals(200, r.status(), r.toString());
        assertEquals(MediaFixture.BIG_SIZE, r.body().length, "body length");
        assertEquals(sha256(media.content("big.bin")), sha256(r.body()), "SHA-256 of the download");
        assertEquals(String.valueOf(MediaFixture.BIG_SIZE), r.header("Content-Length"));
        assertEquals(List.of("bytes"), r.headers("Accept-Ranges"), "Accept-Ranges exactly once");
        assertEquals(1, r.headers("Content-Type").size(), r.toString());
        assertEquals(1, r.headers("ETag").size(), "one strong validator: " + r);
        assertEquals(1, r.headers("Last-Modified").size(), r.toString());
        assertNoAccelHeaders(r);
        x.assertDeliveredByExpectedSide(true);
    }

    Stream<Arguments> awkwardNames() {
        return MediaFixture.AWKWARD_NAMES.stream()
                .flatMap(name -> Arrays.stream(Api.values()).map(api -> Arguments.of(api, name)));
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("awkwardNames")
    void awkwardFileNameIsServedByteExact(Api api, String name) {
        Exchange x = get(api.target(name));
        RawHttp.Response r = x.send();
        if (!SuiteEnvironment.container().passesName(name)) {
            // the container answers this name itself (its factory says so, measured): never with the file
            assertTrue(r.status() >= 400, name + " -> " + r);
            assertFalse(Arrays.equals(media.content(name), r.body()), name);
            return;
        }
        assertEquals(200, r.status(), name + " -> " + r);
        assertArrayEquals(media.content(name), r.body(), name);
        // a name the front end's offload header cannot carry is served by the filter itself
        x.assertDeliveredBy(offloaded() && stack.frontEndKind().carries(name), true);
    }

    @ParameterizedTest
    @EnumSource(Api.class)
    void nfcAndNfdNamesAreDistinctFiles(Api api) {
        byte[] nfc = get(api.target(MediaFixture.NFC_NAME)).send().body();
        byte[] nfd = get(api.target(MediaFixture.NFD_NAME)).send().body();
        assertArrayEquals(media.content(MediaFixture.NFC_NAME), nfc);
        assertArrayEquals(media.content(MediaFixture.NFD_NAME), nfd);
        assertFalse(Arrays.equals(nfc, nfd));
    }

    @ParameterizedTest
    @EnumSource(Api.class)
    void symlinkInsideTheRootIsFollowed(Api api) {
        RawHttp.Response r = get(api.target("link-in")).send();
        assertEquals(200, r.status(), r.toString());
        assertArrayEquals(media.content("small.txt"), r.body());
    }

    @ParameterizedTest
    @EnumSource(Api.class)
    void nestedDirectoriesWork(Api api) {
        RawHttp.Response r = get(api.target("nested/deeper/file.bin")).send();
        assertArrayEquals(media.content("nested/deeper/file.bin"), r.body());
    }

    // ---------------------------------------------------------------- ranges

    @ParameterizedTest
    @EnumSource(Api.class)
    void singleRanges(Api api) {
        byte[] big = media.content("big.bin");
        int size = big.length;
        assertRange(api, "bytes=1000-1999", 1000, 1999, big);
        assertRange(api, "bytes=-500", size - 500, size - 1, big);
        assertRange(api, "bytes=" + (size - 100) + "-", size - 100, size - 1, big);
        assertRange(api, "bytes=0-0", 0, 0, big);
        assertRange(api, "bytes=" + (size - 10) + "-" + (size + 5000), size - 10, size - 1, big);
    }

    private void assertRange(Api api, String range, int first, int last, byte[] content) {
        Exchange x = get(api.target("big.bin")).header("Range", range);
        RawHttp.Response r = x.send();
        assertEquals(206, r.status(), range + " -> " + r);
        assertEquals("bytes " + first + "-" + last + "/" + content.length, r.header("Content-Range"), range);
        assertEquals(String.valueOf(last - first + 1), r.header("Content-Length"), range);
        assertArrayEquals(Arrays.copyOfRange(content, first, last + 1), r.body(), range);
        assertEquals(1, r.headers("Content-Range").size());
        x.assertDeliveredByExpectedSide(true);
    }

    @ParameterizedTest
    @EnumSource(Api.class)
    void multipleRangesGiveMultipartByteranges(Api api) {
        byte[] big = media.content("big.bin");
        int size = big.length;
        Exchange x = get(api.target("big.bin")).header("Range", "bytes=0-99,5000-5099,-100");
        RawHttp.Response r = x.send();
        assertEquals(206, r.status(), r.toString());
        assertTrue(r.header("Content-Type").startsWith("multipart/byteranges; boundary="), r.toString());
        assertNull(r.header("Content-Range"), "no top-level Content-Range on a multipart answer");
        List<RawHttp.Part> parts = RawHttp.byteranges(r);
        assertEquals(3, parts.size(), r.toString());
        int[][] expected = {{0, 99}, {5000, 5099}, {size - 100, size - 1}};
        for (int i = 0; i < 3; i++) {
            RawHttp.Part p = parts.get(i);
            assertEquals("bytes " + expected[i][0] + "-" + expected[i][1] + "/" + size, p.contentRange());
            assertEquals("application/octet-stream", p.contentType(), "part " + i);
            assertArrayEquals(Arrays.copyOfRange(big, expected[i][0], expected[i][1] + 1), p.data());
        }
        x.assertDeliveredByExpectedSide(true);
    }

    /**
     * A range that lies outside the file is a 416 that names the length, the filter's answer before any hand-off
     * (Apache and lighttpd would leave out the length, Caddy 2.6 would answer {@code bytes=-0} with an empty 206):
     * the same through every front end, and none of them opens the file for it.
     */
    @ParameterizedTest
    @EnumSource(Api.class)
    void unsatisfiableRangeIs416(Api api) {
        int size = media.content("big.bin").length;
        for (String range : List.of("bytes=" + size + "-", "bytes=-0", "bytes=" + (size + 999_999) + "-",
                "bytes=" + size + "-" + (size + 10) + ",-0")) {
            Exchange x = get(api.target("big.bin")).header("Range", range);
            RawHttp.Response r = x.send();
            assertEquals(416, r.status(), range + " -> " + r);
            assertEquals("bytes */" + size, r.header("Content-Range"), range + " -> " + r);
            assertTrue(r.body().length < 1024, "no file content in a 416");
            x.assertDeliveredBy(false, false);
        }
    }

    @ParameterizedTest
    @EnumSource(Api.class)
    void ifRangeWithTheCurrentEtagGivesThePartOtherwiseTheWhole(Api api) {
        String etag = get(api.target("song.mp3")).send().header("ETag");
        assertNotNull(etag);
        RawHttp.Response match = get(api.target("song.mp3")).header("Range", "bytes=0-9")
                .header("If-Range", etag).send();
        assertEquals(206, match.status(), match.toString());
        assertEquals(10, match.body().length);
        RawHttp.Response stale = get(api.target("song.mp3")).header("Range", "bytes=0-9")
                .header("If-Range", "\"stale-etag\"").send();
        assertEquals(200, stale.status(), stale.toString());
        assertArrayEquals(media.content("song.mp3"), stale.body());
    }

    // ---------------------------------------------------------------- HEAD and conditionals

    @ParameterizedTest
    @EnumSource(Api.class)
    void headHasTheHeadersOfGetAndNoBody(Api api) {
        RawHttp.Response get = get(api.target("big.bin")).send();
        Exchange x = head(api.target("big.bin"));
        RawHttp.Response head = x.send();
        assertEquals(200, head.status(), head.toString());
        assertEquals(0, head.body().length, "HEAD has no body");
        assertEquals(String.valueOf(MediaFixture.BIG_SIZE), head.header("Content-Length"));
        assertEquals(get.header("Content-Type"), head.header("Content-Type"));
        assertEquals(get.header("ETag"), head.header("ETag"));
        assertEquals(get.header("Last-Modified"), head.header("Last-Modified"));
        assertEquals(List.of("bytes"), head.headers("Accept-Ranges"));
        x.assertDeliveredByExpectedSide(false);
    }

    /**
     * A file renamed over (an upload, a sync tool) is sent in its new version at once, with the new version's
     * length and ETag: whoever opens the file (the front end or the filter) opens what the application just
     * checked, no cached descriptor or stat of the one before.
     */
    @ParameterizedTest
    @EnumSource(Api.class)
    void aFileRenamedOverIsSentInItsNewVersionAtOnce(Api api) throws IOException {
        String name = "renamed-over-" + api.name().toLowerCase(Locale.ROOT) + ".bin";
        Path file = media.media.resolve(name);
        Set<String> etags = new HashSet<>();
        for (int version = 0; version < 6; version++) {
            byte[] content = ("version " + version + " of " + name + "\n").repeat(version + 1)
                    .getBytes(StandardCharsets.US_ASCII);
            Path next = media.dir.resolve(name + ".next");
            Files.write(next, content);
            Files.move(next, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            Exchange x = get(api.target(name));
            RawHttp.Response r = x.send();
            assertEquals(200, r.status(), "version " + version + " -> " + r);
            assertArrayEquals(content, r.body(), "version " + version);
            assertEquals(String.valueOf(content.length), r.header("Content-Length"), "version " + version);
            x.assertDeliveredByExpectedSide(true);
            String etag = r.header("ETag");
            assertTrue(etag == null || etags.add(etag), "version " + version + " has an earlier ETag: " + etag);
        }
    }

    @ParameterizedTest
    @EnumSource(Api.class)
    void ifNoneMatchWithTheEtagOfAFirstResponseGives304(Api api) {
        RawHttp.Response first = get(api.target("song.mp3")).send();
        String etag = first.header("ETag");
        assertNotNull(etag, first.toString());
        assertTrue(etag.startsWith("\""), "strong ETag: " + etag);
        Exchange x = get(api.target("song.mp3")).header("If-None-Match", etag);
        RawHttp.Response again = x.send();
        assertEquals(304, again.status(), again.toString());
        assertEquals(0, again.body().length);
        assertEquals(etag, again.header("ETag"));
        assertEquals(first.header("Last-Modified"), again.header("Last-Modified"));
        x.assertDeliveredBy(false, false);
        RawHttp.Response other = get(api.target("song.mp3")).header("If-None-Match", "\"other\"").send();
        assertEquals(200, other.status());
        assertArrayEquals(media.content("song.mp3"), other.body());
    }

    /**
     * {@code If-Modified-Since} equal to or later than the file's {@code Last-Modified} is a 304 (RFC 9110
     * §13.1.3; nginx alone would send the whole file for a later date, Apache for one later than the
     * application's {@code Date}); an earlier one gets the file.
     */
    @ParameterizedTest
    @EnumSource(Api.class)
    void ifModifiedSinceWithLastModifiedOrLaterGives304(Api api) {
        RawHttp.Response first = get(api.target("song.mp3")).send();
        String lastModified = first.header("Last-Modified");
        assertNotNull(lastModified);
        long at = HttpDate.parse(lastModified);
        for (String since : List.of(lastModified, HttpDate.format(at + 3_600_000), HttpDate.format(at + 86_400_000L
                * 365 * 20))) {
            Exchange x = get(api.target("song.mp3")).header("If-Modified-Since", since);
            RawHttp.Response r = x.send();
            assertEquals(304, r.status(), since + " -> " + r);
            assertEquals(0, r.body().length);
            assertEquals(first.header("ETag"), r.header("ETag"), r.toString());
            x.assertDeliveredBy(false, false);
        }
        RawHttp.Response earlier = get(api.target("song.mp3")).header("If-Modified-Since", HttpDate.format(at - 1000))
                .send();
        assertEquals(200, earlier.status(), earlier.toString());
        assertArrayEquals(media.content("song.mp3"), earlier.body());
    }

    /** The same 412 through every front end (lighttpd evaluates neither, Apache no If-Unmodified-Since). */
    @ParameterizedTest
    @EnumSource(Api.class)
    void failedPreconditionsGive412(Api api) {
        String etag = get(api.target("song.mp3")).send().header("ETag");
        assertNotNull(etag);
        Map<String, String> failing = Map.of("If-Match", "\"nope\"",
                "If-Unmodified-Since", "Thu, 01 Jan 1970 00:00:00 GMT");
        for (Map.Entry<String, String> condition : failing.entrySet()) {
            Exchange x = get(api.target("song.mp3")).header(condition.getKey(), condition.getValue());
            RawHttp.Response r = x.send();
            assertEquals(412, r.status(), condition + " -> " + r);
            assertTrue(r.body().length < 1024, "no file content in a 412");
            x.assertDeliveredBy(false, false);
        }
        Exchange matching = get(api.target("song.mp3")).header("If-Match", etag);
        RawHttp.Response r = matching.send();
        assertEquals(200, r.status(), "If-Match with the ETag the client was sent -> " + r);
        assertArrayEquals(media.content("song.mp3"), r.body());
        matching.assertDeliveredByExpectedSide(true);
        Exchange range = get(api.target("song.mp3")).header("If-Match", etag).header("Range", "bytes=2-5");
        RawHttp.Response part = range.send();
        assertEquals(206, part.status(), part.toString());
        assertArrayEquals(Arrays.copyOfRange(media.content("song.mp3"), 2, 6), part.body());
        range.assertDeliveredByExpectedSide(true);
    }

    /**
     * A form that POSTs to download: the application declares the file in its POST handler, and the client gets
     * the whole file, byte-exact, whoever sends it (nginx turns the internal redirect into a GET; the shipped
     * Caddyfile does the same for the file server; docs/front-ends.md).
     */
    @Test
    void aFileDeclaredInAnswerToAPostIsSentWhole() {
        for (String name : List.of("song.mp3", "big.bin")) {
            Exchange x = new Exchange("POST", Api.DECLARED.target(name));
            RawHttp.Response r = x.sendForm("download=1&format=original");
            assertEquals(200, r.status(), name + " -> " + r);
            assertArrayEquals(media.content(name), r.body(), name);
            assertEquals(String.valueOf(media.content(name).length), r.header("Content-Length"), r.toString());
            x.assertDeliveredByExpectedSide(true);
        }
    }

    // ---------------------------------------------------------------- Content-Type / Disposition

    @ParameterizedTest
    @EnumSource(Api.class)
    void contentTypeIsTheWebAppsNotNginxGuess(Api api) {
        assertEquals("application/x-xaccel-test", mediaType(get(api.target("typed.xat")).send()),
                "mime-mapping of the web app (nginx's mime.types does not know .xat)");
        assertEquals("audio/mpeg", mediaType(get(api.target("song.mp3")).send()));
        assertEquals("application/octet-stream", mediaType(get(api.target("big.bin")).send()),
                "defaultContentType");
    }

    @Test
    void mappedFilesHaveNoContentDispositionByDefault() {
        RawHttp.Response r = get(Api.MAPPED.target("report.pdf")).send();
        assertEquals(200, r.status());
        assertEquals("application/pdf", mediaType(r));
        assertNull(r.header("Content-Disposition"), r.toString());
    }

    @Test
    void declaredContentTypeAndAttachmentWithNonAsciiName() {
        String name = "R\u00e9sum\u00e9 2024 \u2013 final.pdf";
        Exchange x = get(Api.DECLARED.target("report.pdf") + "?disposition=attachment&type=application%2Fx-report"
                + "&name=" + encodePath(name));
        RawHttp.Response r = x.send();
        assertEquals(200, r.status(), r.toString());
        assertArrayEquals(media.content("report.pdf"), r.body());
        assertEquals("application/x-report", mediaType(r));
        List<String> cd = r.headers("Content-Disposition");
        assertEquals(1, cd.size(), r.toString());
        Map<String, String> params = ContentDispositionParser.parse(cd.get(0));
        assertEquals("attachment", params.get(""), cd.get(0));
        assertEquals(name, params.get("filename*"), cd.get(0));
        assertTrue(cd.get(0).contains("filename*=UTF-8''R%C3%A9sum%C3%A9%202024%20%E2%80%93%20final.pdf"),
                cd.get(0));
        String fallback = params.get("filename");
        assertNotNull(fallback, "ASCII fallback: " + cd.get(0));
        assertTrue(fallback.chars().allMatch(c -> c >= 0x20 && c < 0x7f), "ASCII fallback: " + fallback);
        assertTrue(fallback.endsWith(".pdf"), fallback);
        x.assertDeliveredByExpectedSide(true);
    }

    @Test
    void declaredInlineWithDownloadName() {
        RawHttp.Response r = get(Api.DECLARED.target("song.mp3") + "?name=track%2001.mp3").send();
        assertEquals(200, r.status());
        Map<String, String> params = ContentDispositionParser.parse(r.header("Content-Disposition"));
        assertEquals("inline", params.get(""), r.header("Content-Disposition"));
        assertEquals("track 01.mp3", params.getOrDefault("filename*", params.get("filename")));
    }

    @Test
    void declaredAttachmentWithoutNameAndHeaderInjection() {
        RawHttp.Response plain = get(Api.DECLARED.target("song.mp3") + "?disposition=attachment").send();
        assertTrue(plain.header("Content-Disposition").startsWith("attachment"), plain.toString());
        String evil = "evil\"; filename*=UTF-8''hacked.exe; x=\"y.txt";
        assertEquals(evil, declaredDownloadName(evil));
        assertEquals("report.txt", declaredDownloadName("C:\\Users\\x/../report.txt"),
                "a name is reduced to its last path component");
        String injection = "a\r\nSet-Cookie: x=1\r\n b.txt";
        if (stack.frontEndKind().acceptsControlCharactersInTargets()) {
            String crlf = declaredDownloadName(injection);
            assertFalse(crlf.contains("\r") || crlf.contains("\n"), "CR/LF never reach the header: " + crlf);
        } else {
            RawHttp.Response r = get(Api.DECLARED.target("song.mp3") + "?disposition=attachment&name="
                    + encodePath(injection)).send();
            assertEquals(400, r.status(), "the front end refuses the encoded CR/LF itself: " + r);
            assertTrue(r.headers("Set-Cookie").isEmpty(), r.toString());
        }
    }

    /** Downloads song.mp3 as an attachment named {@code name}; returns the name a client would use. */
    private String declaredDownloadName(String name) {
        RawHttp.Response r = get(Api.DECLARED.target("song.mp3") + "?disposition=attachment&name="
                + encodePath(name)).send();
        assertEquals(200, r.status(), r.toString());
        assertArrayEquals(media.content("song.mp3"), r.body());
        assertTrue(r.headers("Set-Cookie").isEmpty(), "header injection: " + r);
        List<String> cd = r.headers("Content-Disposition");
        assertEquals(1, cd.size(), r.toString());
        Map<String, String> params = ContentDispositionParser.parse(cd.get(0));
        assertEquals("attachment", params.get(""), cd.get(0));
        assertFalse(params.containsKey("x"), "injected parameter: " + cd.get(0));
        return params.getOrDefault("filename*", params.get("filename"));
    }

    // ---------------------------------------------------------------- refusals

    @ParameterizedTest
    @EnumSource(Api.class)
    void requestWithoutAuthorizationGets401AndNoByteOfTheFile(Api api) {
        for (String name : List.of("small.txt", "big.bin")) {
            RawHttp.Response r = RawHttp.get(api.target(name)).send(stack.frontEndPort());
            assertEquals(401, r.status(), r.toString());
            byte[] content = media.content(name);
            byte[] probe = Arrays.copyOf(content, Math.min(16, content.length));
            assertEquals(-1, RawHttp.indexOf(r.raw(), probe, 0), "file bytes in a 401: " + r);
            assertTrue(r.body().length < 1024, r.toString());
        }
        RawHttp.Response wrongToken = RawHttp.get(api.target("small.txt")).header("Authorization", "Bearer nope")
                .send(stack.frontEndPort());
        assertEquals(401, wrongToken.status());
    }

    @Test
    void directRequestToTheInternalPrefixIs404() {
        // a front end without an internal location passes the request on: unmapped in the application, 404 too
        String internal = stack.frontEndKind().internalPrefix().orElse(SuiteApp.INTERNAL_PREFIX);
        for (String path : List.of("small.txt", "big.bin", "")) {
            RawHttp.Response r = get(internal + path).send();
            assertEquals(404, r.status(), r.toString());
            assertFalse(r.bodyText().contains("hello from xaccel"));
        }
    }

    @ParameterizedTest
    @EnumSource(Api.class)
    void missingFilesDirectoriesAndHiddenFilesAre404(Api api) {
        for (String name : List.of("missing.bin", "emptydir", "nested", ".hidden-canary",
                ".hidden-dir/canary.txt", "link-out", "dir-out/canary.txt")) {
            RawHttp.Response r = get(api.target(name)).send();
            assertFalse(media.leaksCanary(r.raw()), name + " -> " + r);
            if (api == Api.MAPPED || !name.contains("out")) {
                assertEquals(404, r.status(), name + " -> " + r);
            } else {
                assertTrue(r.status() == 404 || r.status() == 500, name + " -> " + r);
            }
        }
    }

    @Test
    void xAccelHeadersSetByTheApplicationItselfAreDropped() {
        String target = "/raw?r=" + encodePath(SuiteApp.INTERNAL_PREFIX + "small.txt").replace("/", "%2F")
                + "&body=text";
        RawHttp.Response r = get(target).send();
        assertEquals(200, r.status(), r.toString());
        assertEquals("backend body\n", r.bodyText(), "nginx must not have followed a header the app set");
        assertNoAccelHeaders(r);
    }

    // ---------------------------------------------------------------- connection reuse

    @ParameterizedTest
    @EnumSource(Api.class)
    void sequentialDownloadsReuseOneUpstreamConnection(Api api) {
        assertEquals(200, get(api.target("small.txt")).send().status());
        List<Integer> before = stack.remotePorts();
        for (int i = 0; i < 6; i++) {
            RawHttp.Response r = get(api.target(i % 2 == 0 ? "small.txt" : "song.mp3")).send();
            assertEquals(200, r.status());
        }
        List<Integer> ports = stack.remotePorts();
        List<Integer> used = ports.subList(before.size(), ports.size());
        assertEquals(6, used.size());
        if (stack.frontEndKind().reusesUpstreamConnections()) {
            assertEquals(1, new HashSet<>(used).size(), "container-side connections for 6 downloads: " + used);
        }
    }

    // ---------------------------------------------------------------- helpers

    public static String mediaType(RawHttp.Response r) {
        String ct = r.header("Content-Type");
        assertNotNull(ct, "Content-Type missing: " + r);
        int semi = ct.indexOf(';');
        return (semi >= 0 ? ct.substring(0, semi) : ct).trim().toLowerCase(Locale.ROOT);
    }

    public static void assertNoAccelHeaders(RawHttp.Response r) {
        for (String name : r.headerNames()) {
            assertFalse(name.startsWith("x-accel") || name.startsWith("x-sendfile")
                    || name.equals("x-lighttpd-send-file"), "leaked " + name + ": " + r);
        }
    }

    static String ascii(byte[] b) {
        return new String(b, StandardCharsets.ISO_8859_1);
    }
}
