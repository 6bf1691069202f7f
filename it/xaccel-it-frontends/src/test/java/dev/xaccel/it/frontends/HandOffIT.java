package dev.xaccel.it.frontends;

import static dev.xaccel.testsupport.media.MediaFixture.encodePath;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.xaccel.filter.InitParams;
import dev.xaccel.suite.DeliveryStack;
import dev.xaccel.suite.DeliverySuite;
import dev.xaccel.testsupport.LogCapture;
import dev.xaccel.testsupport.Poll;
import dev.xaccel.testsupport.RawHttp;
import dev.xaccel.testsupport.apache.ApacheFrontEnd;
import dev.xaccel.testsupport.caddy.CaddyFrontEnd;
import dev.xaccel.testsupport.frontend.ShippedFrontEnd;
import dev.xaccel.testsupport.lighttpd.LighttpdFrontEnd;
import dev.xaccel.testsupport.media.MediaFixture;
import dev.xaccel.testsupport.servlet.BearerAuthFilter;
import dev.xaccel.testsupport.servlet.OffloadRecorder;
import dev.xaccel.testsupport.servlet.SuiteApp;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.logging.Level;
import java.util.logging.Logger;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * What crosses the hand-off from the filter (embedded Tomcat 11, {@code offload=auto}) to Apache httpd +
 * mod_xsendfile, lighttpd and Caddy, each with its shipped config, beyond the delivery suite: the whole awkward-name
 * set of docs/front-ends.md arrives byte-exact, offloaded (the application's {@link OffloadRecorder} saw the offload
 * header, so the front end sent the bytes) unless the front end's header cannot carry the name, which the filter
 * then serves itself with one throttled WARNING; the application's Cache-Control and security headers survive; the
 * marker and the client address the application sees are the front end's, never the client's.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class HandOffIT {

    static final String CACHE_CONTROL = "private, max-age=60";

    /** The research's names beside MediaFixture's: those X-Sendfile cannot carry among them. */
    static final List<String> EXTRA_NAMES = List.of("a%20b.bin", "x%2Fy.bin", "trail.bin ", "tab\tx.bin",
            "back\\slash.bin", "L".repeat(236) + ".bin", "\u65e5".repeat(78) + ".bin", " lead.bin",
            "q?x&y=z;p+q#h.bin", "caf\u00e9.bin", "cafe\u0301.bin", "emoji\ud83d\ude00.bin", "..foo.bin");

    private final Map<String, DeliveryStack> stacks = new LinkedHashMap<>();
    private final Map<String, byte[]> extra = new ConcurrentHashMap<>();
    private static final AtomicInteger IDS = new AtomicInteger();

    static Stream<ShippedFrontEnd> frontEnds() {
        return Stream.of(new ApacheFrontEnd(), new LighttpdFrontEnd(), new CaddyFrontEnd());
    }

    /** The stack behind {@code fe}, started on first use; hidden names allowed, for {@code ..foo.bin}. */
    synchronized DeliveryStack stack(ShippedFrontEnd fe) throws Exception {
        DeliveryStack s = stacks.get(fe.name());
        if (s == null) {
            String suite = "handoff-" + fe.name();
            MediaFixture media = MediaFixture.create(suite);
            Random seeded = new Random(fe.name().hashCode());
            for (String name : EXTRA_NAMES) {
                byte[] content = ("extra: " + name + " " + seeded.nextLong() + "\n").repeat(40)
                        .getBytes(StandardCharsets.UTF_8);
                Files.write(media.media.resolve(name), content);
                extra.put(fe.name() + "/" + name, content);
            }
            s = DeliveryStack.start(suite, media, Map.of("cacheControl", CACHE_CONTROL, "allowHidden", "true",
                    "jmxName", "none"), fe, false);
            stacks.put(fe.name(), s);
        }
        return s;
    }

    @AfterAll
    void stop() {
        stacks.values().forEach(DeliveryStack::close);
    }

    byte[] content(ShippedFrontEnd fe, String name) throws Exception {
        byte[] c = extra.get(fe.name() + "/" + name);
        return c != null ? c : stack(fe).media.content(name);
    }

    /** An authorized request through the front end with its own request id. */
    record Exchange(DeliveryStack stack, String id, RawHttp.Request request) {
        RawHttp.Response send() {
            RawHttp.Response r = request.send(stack.frontEndPort());
            DeliverySuite.assertNoAccelHeaders(r);
            return r;
        }

        Exchange header(String name, String value) {
            request.header(name, value);
            return this;
        }

        /** The application's answer (recorded when its thread leaves the filters: maybe after the client read it). */
        OffloadRecorder.Answer answer() {
            return Poll.first(Duration.ofSeconds(5), () -> OffloadRecorder.answer(id))
                    .orElseThrow(() -> new AssertionError("the application never saw " + id));
        }
    }

    Exchange get(ShippedFrontEnd fe, String target) throws Exception {
        String id = "handoff-" + IDS.incrementAndGet();
        return new Exchange(stack(fe), id, RawHttp.get(target).header("Authorization",
                BearerAuthFilter.AUTHORIZATION).header("X-Request-Id", id));
    }

    Stream<Arguments> awkwardNames() {
        List<String> names = new ArrayList<>(MediaFixture.AWKWARD_NAMES);
        names.addAll(EXTRA_NAMES);
        return frontEnds().flatMap(fe -> names.stream().map(n -> Arguments.of(fe, n)));
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("awkwardNames")
    void everyAwkwardNameArrivesByteExactOffloadedUnlessItsHeaderCannotCarryIt(ShippedFrontEnd fe, String name)
            throws Exception {
        // the declared API from a query parameter takes any name (Tomcat refuses %5C in a path); mapped mode
        // refuses backslashes and control characters by itself
        Exchange x = get(fe, "/files?path=" + encodePath(name).replace("/", "%2F"));
        RawHttp.Response r = x.send();
        if (fe instanceof LighttpdFrontEnd && name.chars().anyMatch(c -> c < 0x20)) {
            // lighttpd refuses a control character anywhere in the target, encoded too (http-parseopts
            // url-ctrls-reject, on by default): such a name cannot even be asked for
            assertEquals(400, r.status(), r.toString());
            assertTrue(OffloadRecorder.answer(x.id()).isEmpty(), "reached the application");
            return;
        }
        assertEquals(200, r.status(), name + " -> " + r);
        assertArrayEquals(content(fe, name), r.body(), name);
        assertEquals(fe.carries(name), x.answer().offloaded(), fe + " " + name + ": " + x.answer());
        if (!name.contains("\\") && name.chars().noneMatch(c -> c < 0x20)) {
            Exchange mapped = get(fe, SuiteApp.MAPPED_PREFIX + encodePath(name));
            assertArrayEquals(content(fe, name), mapped.send().body(), "mapped " + name);
            assertEquals(fe.carries(name), mapped.answer().offloaded(), "mapped " + name);
        }
    }

    @ParameterizedTest
    @MethodSource("frontEnds")
    void aNameTheHeaderCannotCarryIsServedDirectlyWithOneThrottledWarning(ShippedFrontEnd fe) throws Exception {
        Logger logger = Logger.getLogger("dev.xaccel.filter");
        Level level = logger.getLevel();
        logger.setLevel(Level.FINE);
        try (LogCapture log = LogCapture.exclusive("dev.xaccel.filter")) {
            for (int i = 0; i < 3; i++) {
                Exchange x = get(fe, SuiteApp.DECLARED_PREFIX + encodePath("a%20b.bin"));
                assertArrayEquals(content(fe, "a%20b.bin"), x.send().body());
                assertEquals(fe.carries("a%20b.bin"), x.answer().offloaded(), x.answer().toString());
            }
            long warnings = log.count(Level.WARNING, "cannot carry");
            long fine = log.count(Level.FINE, "cannot carry");
            if (fe.carries("a%20b.bin")) {
                assertEquals(0, warnings + fine, log.messages(Level.FINE).toString());
            } else {
                assertTrue(warnings <= 1, "throttled: " + log.messages(Level.FINE));
                assertEquals(3, warnings + fine, log.messages(Level.FINE).toString());
                assertTrue(log.contains("lighttpd would decode"), log.messages(Level.FINE).toString());
            }
        } finally {
            logger.setLevel(level);
        }
    }

    @ParameterizedTest
    @MethodSource("frontEnds")
    void theApplicationsCacheControlAndSecurityHeadersSurvive(ShippedFrontEnd fe) throws Exception {
        Exchange x = get(fe, SuiteApp.MAPPED_PREFIX + "song.mp3");
        RawHttp.Response r = x.send();
        assertArrayEquals(content(fe, "song.mp3"), r.body());
        assertTrue(x.answer().offloaded(), x.answer().toString());
        assertEquals(CACHE_CONTROL, r.header("Cache-Control"));
        assertEquals("nosniff", r.header("X-Content-Type-Options"));
        assertEquals(List.of(InitParams.DEFAULT_CONTENT_SECURITY_POLICY), r.headers("Content-Security-Policy"));
        assertEquals(1, r.headers("ETag").size(), r.toString());
    }

    @ParameterizedTest
    @MethodSource("frontEnds")
    void theFrontEndsMarkerAndAddressReachTheApplicationNotTheClients(ShippedFrontEnd fe) throws Exception {
        Exchange x = get(fe, SuiteApp.MAPPED_PREFIX + "small.txt").header("X-Sendfile-Type", "X-Accel-Redirect")
                .header("X-Forwarded-For", "10.0.0.66").header("X-Real-IP", "10.0.0.66")
                .header("Forwarded", "for=10.0.0.66").header("X-Accel-Mapping", "/=/_xaccel/evil/");
        RawHttp.Response r = x.send();
        assertArrayEquals(content(fe, "small.txt"), r.body());
        OffloadRecorder.Answer a = x.answer();
        assertTrue(a.offloaded(), a.toString());
        assertEquals(fe.offloadHeader(), a.requestHeaders().get("x-sendfile-type"), "the marker is the front end's");
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
        DeliveryStack s = stack(fe);
        String root = s.media.media.toRealPath().toString();
        for (String target : List.of(SuiteApp.INTERNAL_PREFIX + "small.txt", "/__xaccel__", root + "/small.txt")) {
            RawHttp.Response r = SuiteApp.authGet(target).header(fe.offloadHeader(), root + "/small.txt")
                    .send(s.frontEndPort());
            assertEquals(404, r.status(), target + " -> " + r);
            DeliverySuite.assertNoAccelHeaders(r);
        }
    }
}
