package dev.xaccel.filter;

import static dev.xaccel.filter.MediaFixture.encodePath;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.xaccel.testsupport.LogCapture;
import dev.xaccel.testsupport.Poll;
import dev.xaccel.testsupport.RawHttp;
import dev.xaccel.testsupport.frontend.ShippedFrontEnd;
import dev.xaccel.testsupport.servlet.OffloadRecorder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.logging.Level;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The filter in its default mode ({@code offload=auto}) behind Apache httpd + mod_xsendfile, lighttpd and Caddy,
 * each started from its shipped config, the filter with the front end's {@code headerType}: every awkward name
 * arrives byte-exact, offloaded (the application's {@link OffloadRecorder} saw the offload header, so the front end
 * sent the bytes) unless the header type cannot carry the name (then the filter serves it, with one throttled
 * WARNING); single ranges, HEAD and conditional requests are answered by the front end; the application's
 * Content-Type, Content-Disposition, Cache-Control and security headers survive the hand-off; no offload header
 * reaches the client; 401 carries no byte; the marker and the client address the application sees are the front
 * end's.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class FrontEndDeliveryIT {

    static final String CACHE_CONTROL = "private, max-age=60";

    /** Names beside MediaFixture's: those X-Sendfile cannot carry, and the rest of the research's set. */
    static final List<String> EXTRA_NAMES = List.of("a%20b.bin", "x%2Fy.bin", "trail.bin ", "tab\tx.bin",
            "back\\slash.bin", "L".repeat(236) + ".bin", "\u65e5".repeat(78) + ".bin", " lead.bin",
            "q?x&y=z;p+q#h.bin");

    private final Map<ShippedFrontEnd, E2eStack> stacks = new EnumMap<>(ShippedFrontEnd.class);
    private final Map<String, byte[]> extra = new java.util.concurrent.ConcurrentHashMap<>();
    private static final AtomicInteger IDS = new AtomicInteger();

    /** The stack behind {@code fe}, started on first use. */
    synchronized E2eStack stack(ShippedFrontEnd fe) throws Exception {
        E2eStack s = stacks.get(fe);
        if (s == null) {
            String suite = "delivery-" + fe.id();
            MediaFixture media = MediaFixture.create(suite);
            java.util.Random seeded = new java.util.Random(fe.ordinal());
            for (String name : EXTRA_NAMES) {
                Path p = media.media.resolve(name);
                byte[] content = ("extra: " + name + "\n" + seeded.nextLong()).repeat(40)
                        .getBytes(StandardCharsets.UTF_8);
                Files.write(p, content);
                extra.put(fe + name, content);
            }
            s = E2eStack.start(suite, media, Map.of("cacheControl", CACHE_CONTROL, "jmxName", "none"), fe);
            stacks.put(fe, s);
        }
        return s;
    }

    @AfterAll
    void stop() {
        stacks.values().forEach(E2eStack::close);
    }

    /** An authorized request through the front end with its own request id. */
    final class Exchange {
        final E2eStack stack;
        final String id = "fe-" + IDS.incrementAndGet();
        final RawHttp.Request request;

        Exchange(E2eStack stack, String method, String target) {
            this.stack = stack;
            this.request = RawHttp.request(method, target).header("Authorization", BearerAuthFilter.AUTHORIZATION)
                    .header("X-Request-Id", id);
        }

        Exchange header(String name, String value) {
            request.header(name, value);
            return this;
        }

        RawHttp.Response send() {
            RawHttp.Response r = request.send(stack.frontEndPort());
            assertNoOffloadHeaders(r);
            return r;
        }

        /** The application's answer (recorded when its thread leaves the filters: maybe after the client read it). */
        OffloadRecorder.Answer answer() {
            return Poll.first(Duration.ofSeconds(5), () -> stack.recorder.answer(id))
                    .orElseThrow(() -> new AssertionError("the app never saw " + id));
        }
    }

    Exchange get(ShippedFrontEnd fe, String target) throws Exception {
        return new Exchange(stack(fe), "GET", target);
    }

    static Stream<ShippedFrontEnd> frontEnds() {
        return Stream.of(ShippedFrontEnd.APACHE, ShippedFrontEnd.LIGHTTPD, ShippedFrontEnd.CADDY);
    }

    static boolean sendfile(ShippedFrontEnd fe) {
        return fe.headerType().equals("X-Sendfile");
    }

    /** Whether X-Sendfile's raw value cannot carry {@code name} (OffloadHeaders.refusal; pinned by the facts ITs). */
    static boolean notCarriedByXSendfile(String name) {
        return name.matches("(?s).*%[0-9A-Fa-f]{2}.*") || name.endsWith(" ") || name.chars().anyMatch(c -> c < 0x20);
    }

    Stream<Arguments> awkwardNames() {
        List<String> names = new ArrayList<>(MediaFixture.AWKWARD_NAMES);
        names.addAll(EXTRA_NAMES);
        return frontEnds().flatMap(fe -> names.stream().map(n -> Arguments.of(fe, n)));
    }

    byte[] content(ShippedFrontEnd fe, String name) throws Exception {
        byte[] c = extra.get(fe + name);
        return c != null ? c : stack(fe).media.content(name);
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("awkwardNames")
    void everyAwkwardNameArrivesByteExactOffloadedUnlessItsHeaderCannotCarryIt(ShippedFrontEnd fe, String name)
            throws Exception {
        // the declared API from a query parameter takes any name (Tomcat refuses %5C and lighttpd control characters
        // in a path); mapped mode refuses backslashes and control characters by itself
        Exchange x = get(fe, "/files?path=" + encodePath(name).replace("/", "%2F"));
        RawHttp.Response r = x.send();
        if (fe == ShippedFrontEnd.LIGHTTPD && name.chars().anyMatch(c -> c < 0x20)) {
            // lighttpd refuses a control character anywhere in the target, encoded too (http-parseopts
            // url-ctrls-reject, on by default): such a name cannot even be asked for
            assertEquals(400, r.status(), r.toString());
            assertTrue(stack(fe).recorder.answer(x.id).isEmpty(), "reached the application");
            return;
        }
        assertEquals(200, r.status(), name + " -> " + r);
        assertArrayEquals(content(fe, name), r.body(), name);
        boolean expectOffload = !(sendfile(fe) && notCarriedByXSendfile(name));
        assertEquals(expectOffload, x.answer().offloaded(), fe + " " + name + ": " + x.answer());
        if (!name.contains("\\") && name.chars().noneMatch(c -> c < 0x20)) {
            Exchange mapped = get(fe, E2eStack.MAPPED_PREFIX + encodePath(name));
            assertArrayEquals(content(fe, name), mapped.send().body(), "mapped " + name);
            assertEquals(expectOffload, mapped.answer().offloaded(), "mapped " + name);
        }
    }

    @ParameterizedTest
    @MethodSource("frontEnds")
    void aNameTheHeaderCannotCarryIsServedDirectlyWithOneThrottledWarning(ShippedFrontEnd fe) throws Exception {
        java.util.logging.Logger logger = java.util.logging.Logger.getLogger("dev.xaccel.filter");
        Level level = logger.getLevel();
        logger.setLevel(Level.FINE);
        try (LogCapture log = LogCapture.exclusive("dev.xaccel.filter")) {
            for (int i = 0; i < 3; i++) {
                Exchange x = get(fe, E2eStack.DECLARED_PREFIX + encodePath("a%20b.bin"));
                assertArrayEquals(content(fe, "a%20b.bin"), x.send().body());
                assertEquals(!sendfile(fe), x.answer().offloaded(), x.answer().toString());
            }
            long warnings = log.count(Level.WARNING, "cannot carry");
            long fine = log.count(Level.FINE, "cannot carry");
            if (sendfile(fe)) {
                assertTrue(warnings <= 1, "throttled: " + log.messages(Level.FINE));
                assertEquals(3, warnings + fine, log.messages(Level.FINE).toString());
                assertTrue(log.contains("lighttpd would decode"), log.messages(Level.FINE).toString());
            } else {
                assertEquals(0, warnings + fine, log.messages(Level.FINE).toString());
            }
        } finally {
            logger.setLevel(level);
        }
    }

    @ParameterizedTest
    @MethodSource("frontEnds")
    void singleRangesAreAnsweredByTheFrontEnd(ShippedFrontEnd fe) throws Exception {
        byte[] big = content(fe, "big.bin");
        int size = big.length;
        for (int[] range : new int[][] {{1000, 1999}, {size - 500, size - 1}, {0, 0}}) {
            String spec = range[0] == size - 500 ? "bytes=-500" : "bytes=" + range[0] + "-" + range[1];
            Exchange x = get(fe, E2eStack.MAPPED_PREFIX + "big.bin").header("Range", spec);
            RawHttp.Response r = x.send();
            assertEquals(206, r.status(), spec + " -> " + r);
            assertEquals("bytes " + range[0] + "-" + range[1] + "/" + size, r.header("Content-Range"), spec);
            assertArrayEquals(Arrays.copyOfRange(big, range[0], range[1] + 1), r.body(), spec);
            assertTrue(x.answer().offloaded(), "the front end cut the range: " + x.answer());
        }
        RawHttp.Response whole = get(fe, E2eStack.MAPPED_PREFIX + "big.bin").send();
        assertEquals(MediaFixture.sha256(big), MediaFixture.sha256(whole.body()));
        assertEquals(List.of("bytes"), whole.headers("Accept-Ranges"), whole.toString());
        assertEquals(416, get(fe, E2eStack.MAPPED_PREFIX + "big.bin").header("Range", "bytes=" + size + "-")
                .send().status());
    }

    @ParameterizedTest
    @MethodSource("frontEnds")
    void headHasTheLengthAndNoBody(ShippedFrontEnd fe) throws Exception {
        Exchange x = new Exchange(stack(fe), "HEAD", E2eStack.MAPPED_PREFIX + "big.bin");
        RawHttp.Response head = x.send();
        assertEquals(200, head.status(), head.toString());
        assertEquals(0, head.body().length);
        assertEquals(String.valueOf(MediaFixture.BIG_SIZE), head.header("Content-Length"));
        assertEquals("application/octet-stream", AbstractDeliveryIT.mediaType(head));
        assertTrue(x.answer().offloaded(), x.answer().toString());
    }

    @ParameterizedTest
    @MethodSource("frontEnds")
    void conditionalRequestsGet304FromTheFrontEnd(ShippedFrontEnd fe) throws Exception {
        RawHttp.Response first = get(fe, E2eStack.MAPPED_PREFIX + "song.mp3").send();
        String etag = first.header("ETag");
        String lastModified = first.header("Last-Modified");
        assertEquals(1, first.headers("ETag").size(), "one strong validator: " + first);
        assertTrue(etag.startsWith("\""), etag);
        assertNotNull(lastModified, first.toString());
        Exchange inm = get(fe, E2eStack.MAPPED_PREFIX + "song.mp3").header("If-None-Match", etag);
        RawHttp.Response notModified = inm.send();
        assertEquals(304, notModified.status(), notModified.toString());
        assertEquals(0, notModified.body().length);
        assertTrue(inm.answer().offloaded(), "the front end answered the condition: " + inm.answer());
        assertEquals(304, get(fe, E2eStack.MAPPED_PREFIX + "song.mp3").header("If-Modified-Since", lastModified)
                .send().status());
        RawHttp.Response other = get(fe, E2eStack.MAPPED_PREFIX + "song.mp3").header("If-None-Match", "\"other\"")
                .send();
        assertArrayEquals(content(fe, "song.mp3"), other.body());
        RawHttp.Response partial = get(fe, E2eStack.MAPPED_PREFIX + "song.mp3").header("Range", "bytes=0-9")
                .header("If-Range", etag).send();
        assertEquals(206, partial.status(), partial.toString());
        RawHttp.Response stale = get(fe, E2eStack.MAPPED_PREFIX + "song.mp3").header("Range", "bytes=0-9")
                .header("If-Range", "\"stale\"").send();
        assertEquals(200, stale.status(), stale.toString());
        assertArrayEquals(content(fe, "song.mp3"), stale.body());
    }

    @ParameterizedTest
    @MethodSource("frontEnds")
    void theApplicationsHeadersSurviveTheHandOff(ShippedFrontEnd fe) throws Exception {
        assertEquals("application/x-xaccel-test", AbstractDeliveryIT.mediaType(
                get(fe, E2eStack.MAPPED_PREFIX + "typed.xat").send()), "the web app's mime-mapping");
        String name = "R\u00e9sum\u00e9 2024.pdf";
        Exchange x = get(fe, E2eStack.DECLARED_PREFIX + "report.pdf?disposition=attachment&type=application%2Fx-report"
                + "&name=" + encodePath(name));
        RawHttp.Response r = x.send();
        assertArrayEquals(content(fe, "report.pdf"), r.body());
        assertTrue(x.answer().offloaded(), x.answer().toString());
        assertEquals("application/x-report", AbstractDeliveryIT.mediaType(r));
        assertEquals(1, r.headers("Content-Disposition").size(), r.toString());
        Map<String, String> cd = ContentDispositionParser.parse(r.header("Content-Disposition"));
        assertEquals("attachment", cd.get(""));
        assertEquals(name, cd.get("filename*"));
        assertEquals(CACHE_CONTROL, r.header("Cache-Control"));
        assertEquals("nosniff", r.header("X-Content-Type-Options"));
        assertEquals(InitParams.DEFAULT_CONTENT_SECURITY_POLICY, r.header("Content-Security-Policy"));
    }

    @ParameterizedTest
    @MethodSource("frontEnds")
    void withoutAuthorizationThereIs401AndNoByteOfTheFile(ShippedFrontEnd fe) throws Exception {
        E2eStack s = stack(fe);
        for (String target : List.of(E2eStack.MAPPED_PREFIX + "small.txt", E2eStack.DECLARED_PREFIX + "big.bin")) {
            RawHttp.Response r = RawHttp.get(target).send(s.frontEndPort());
            assertEquals(401, r.status(), r.toString());
            String name = target.substring(target.lastIndexOf('/') + 1);
            byte[] probe = Arrays.copyOf(s.media.content(name), 16);
            assertEquals(-1, RawHttp.indexOf(r.raw(), probe, 0), r.toString());
        }
    }

    @ParameterizedTest
    @MethodSource("frontEnds")
    void theFrontEndsMarkerAndAddressReachTheApplicationNotTheClients(ShippedFrontEnd fe) throws Exception {
        Exchange x = get(fe, E2eStack.MAPPED_PREFIX + "small.txt").header("X-Sendfile-Type", "X-Accel-Redirect")
                .header("X-Forwarded-For", "10.0.0.66").header("X-Real-IP", "10.0.0.66")
                .header("Forwarded", "for=10.0.0.66").header("X-Accel-Mapping", "/=/_xaccel/evil/");
        RawHttp.Response r = x.send();
        assertArrayEquals(content(fe, "small.txt"), r.body());
        OffloadRecorder.Answer a = x.answer();
        assertTrue(a.offloaded(), a.toString());
        assertEquals(fe.headerType(), a.requestHeaders().get("x-sendfile-type"), "the marker is the front end's");
        assertEquals("127.0.0.1", a.remoteAddr());
        assertEquals("127.0.0.1", a.requestHeaders().get("x-forwarded-for"), a.requestHeaders().toString());
        assertNull(a.requestHeaders().get("x-real-ip"));
        assertNull(a.requestHeaders().get("x-accel-mapping"));
        String forwarded = a.requestHeaders().get("forwarded");
        assertTrue(forwarded == null || !forwarded.contains("10.0.0.66"), forwarded);
    }

    @ParameterizedTest
    @MethodSource("frontEnds")
    void aClientCannotReachTheFilesWithoutTheApplication(ShippedFrontEnd fe) throws Exception {
        E2eStack s = stack(fe);
        for (String target : List.of(ShippedFrontEnd.INTERNAL_PREFIX + "small.txt", "/__xaccel__",
                "/" + s.media.media.toRealPath().resolve("small.txt"))) {
            RawHttp.Response r = E2eStack.authGet(target).header(fe.headerType(), s.media.media + "/small.txt")
                    .send(s.frontEndPort());
            assertEquals(404, r.status(), target + " -> " + r);
            assertNoOffloadHeaders(r);
        }
        RawHttp.Response raw = E2eStack.authGet("/raw?h=" + fe.headerType() + "&r="
                + encodePath(s.media.media + "/small.txt").replace("/", "%2F") + "&body=text").send(s.frontEndPort());
        assertEquals("backend body\n", raw.bodyText(), "a header the application code set is dropped: " + raw);
    }

    @ParameterizedTest
    @EnumSource(value = ShippedFrontEnd.class, names = {"APACHE", "LIGHTTPD", "CADDY"})
    void multipleRangesAreAnsweredWithTheWholeRangeSet(ShippedFrontEnd fe) throws Exception {
        byte[] big = content(fe, "big.bin");
        RawHttp.Response r = get(fe, E2eStack.MAPPED_PREFIX + "big.bin").header("Range", "bytes=0-99,5000-5099")
                .send();
        assertEquals(206, r.status(), r.toString());
        if (r.header("Content-Type").startsWith("multipart/byteranges")) {
            List<RawHttp.Part> parts = RawHttp.byteranges(r);
            assertEquals(2, parts.size());
            assertArrayEquals(Arrays.copyOfRange(big, 5000, 5100), parts.get(1).data());
        } else {
            // lighttpd coalesces ranges into one (allowed by RFC 9110 14.3)
            assertEquals("bytes 0-5099/" + big.length, r.header("Content-Range"), r.toString());
            assertArrayEquals(Arrays.copyOfRange(big, 0, 5100), r.body());
        }
    }

    static void assertNoOffloadHeaders(RawHttp.Response r) {
        for (String name : r.headerNames()) {
            assertFalse(name.startsWith("x-accel") || name.startsWith("x-sendfile")
                    || name.equals("x-lighttpd-send-file"), "leaked " + name + ": " + r);
        }
    }

}
