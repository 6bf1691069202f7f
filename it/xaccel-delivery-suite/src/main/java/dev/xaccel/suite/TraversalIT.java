package dev.xaccel.suite;

import dev.xaccel.testsupport.CloseAll;
import dev.xaccel.testsupport.RawHttp;
import dev.xaccel.testsupport.TestPaths;
import dev.xaccel.testsupport.media.MediaFixture;
import dev.xaccel.testsupport.servlet.BearerAuthFilter;
import dev.xaccel.testsupport.servlet.DeployedWar;
import dev.xaccel.testsupport.servlet.OffloadRecorder;
import dev.xaccel.testsupport.servlet.ServerLogLines;
import dev.xaccel.testsupport.servlet.SuiteApp;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import java.util.logging.SimpleFormatter;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A traversal corpus sent as raw request lines (no client normalizes them) via the front end and directly to
 * the container (served directly, and offloaded by sending the marker from a trusted address), also to the
 * container in its lenient mode, where it has one, which lets backslashes and encoded slashes through. Canary files
 * sit outside the media root (beside it, in a sibling whose name extends the root's, behind symlinks) and hidden inside
 * it: no response may ever contain a canary's token, and every X-Accel-Redirect must name a regular,
 * visible file inside the root. A target the container answers itself before any filter runs
 * ({@code ServletContainer.Factory.ownStatus}) must get exactly that status, and the application must not have seen
 * it.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
public class TraversalIT {

    private static final String SUITE = "traversal";

    /** Where a payload is sent. */
    enum Target {
        FRONT_END, CONTAINER, CONTAINER_WITH_MARKER, LENIENT_CONTAINER, LENIENT_CONTAINER_WITH_MARKER;

        boolean lenient() {
            return this == LENIENT_CONTAINER || this == LENIENT_CONTAINER_WITH_MARKER;
        }
    }

    private DeliveryStack stack;
    private DeliveryStack lenient;
    private MediaFixture media;
    private Path mediaReal;
    private final ConcurrentLinkedQueue<String> results = new ConcurrentLinkedQueue<>();
    private final AtomicInteger requests = new AtomicInteger();

    @BeforeAll
    void start() throws Exception {
        media = MediaFixture.create(SUITE);
        mediaReal = media.media.toRealPath();
        stack = DeliveryStack.start(SUITE, media, Map.of(), SuiteEnvironment.frontEnd(), false);
        if (SuiteEnvironment.container().hasLenientMode()) {
            lenient = DeliveryStack.start(SUITE + "-lenient", media, Map.of(), null, true);
        }
    }

    @AfterAll
    void stop() throws IOException {
        try {
            if (media != null) {
                Files.write(media.dir.resolve("results.txt"), results, StandardCharsets.UTF_8);
            }
        } finally {
            CloseAll.of(lenient, stack);
        }
    }

    /** The corpus; request targets are sent verbatim. */
    static List<String> corpus() {
        Path dir = TestPaths.target().resolve("e2e-" + SUITE);
        String outside = dir.resolve("outside/canary.txt").toString();
        String sibling = dir.resolve("media-secret/canary.txt").toString();
        String outsideEncoded = outside.replace("/", "%2F");
        String manyUps = "../".repeat(24) + outside.substring(1);
        List<String> m = new ArrayList<>();
        String lib = SuiteApp.MAPPED_PREFIX;
        // plain and encoded dot-dot
        m.add(lib + "../canary.txt");
        m.add(lib + "../../canary.txt");
        m.add(lib + "../media-secret/canary.txt");
        m.add(lib + "nested/../../canary.txt");
        m.add(lib + "nested/deeper/../../../media-secret/canary.txt");
        m.add(lib + "%2e%2e/canary.txt");
        m.add(lib + "%2e%2e%2fcanary.txt");
        m.add(lib + "..%2fcanary.txt");
        m.add(lib + "%2E%2E%2Fcanary.txt");
        m.add(lib + "%2e%2E/%2E%2e/outside/canary.txt");
        m.add(lib + ".%2e/canary.txt");
        m.add(lib + "%2e%2e%2f%2e%2e%2fmedia-secret%2fcanary.txt");
        m.add(lib + "nested/%2e%2e/%2e%2e/canary.txt");
        // double encoding: decoded once by the container, must never be decoded again
        m.add(lib + "%252e%252e%252fcanary.txt");
        m.add(lib + "%252e%252e/canary.txt");
        m.add(lib + "..%252fcanary.txt");
        m.add(lib + "%25252e%25252e%25252fcanary.txt");
        // backslashes
        m.add(lib + "..\\canary.txt");
        m.add(lib + "..%5ccanary.txt");
        m.add(lib + "..%5Cmedia-secret%5Ccanary.txt");
        m.add(lib + "%5c..%5ccanary.txt");
        m.add(lib + "..%255ccanary.txt");
        // NUL and control characters
        m.add(lib + "%00../canary.txt");
        m.add(lib + "small.txt%00.bin");
        m.add(lib + "..%00/canary.txt");
        m.add(lib + "%0a..%0d/canary.txt");
        // overlong and look-alike UTF-8 dots and slashes
        m.add(lib + "%c0%ae%c0%ae/canary.txt");
        m.add(lib + "%c0%ae%c0%ae%c0%afcanary.txt");
        m.add(lib + "..%c0%afcanary.txt");
        m.add(lib + "%e0%80%ae%e0%80%ae/canary.txt");
        m.add(lib + "%c0%2e%c0%2e/canary.txt");
        m.add(lib + "%ef%bc%8e%ef%bc%8e/canary.txt");
        m.add(lib + "%u002e%u002e/canary.txt");
        // absolute paths
        m.add(lib + outside.substring(1));
        m.add(lib + "/" + outside.substring(1));
        m.add(lib + outsideEncoded);
        m.add(lib + manyUps);
        m.add(lib + "file:" + outside);
        m.add("/library" + sibling.substring(dir.resolve("media").toString().length()));
        // ;path parameters, empty and dot segments
        m.add(lib + "..;/canary.txt");
        m.add(lib + ";x=1/../canary.txt");
        m.add(lib + "..;jsessionid=1/canary.txt");
        m.add(lib + "%2e%2e;/canary.txt");
        m.add(lib + ".;/.;/../canary.txt");
        m.add(lib + "/../canary.txt");
        m.add(lib + ".//..//canary.txt");
        m.add(lib + "./../canary.txt");
        m.add(lib + "....//canary.txt");
        m.add(lib + "..../canary.txt");
        m.add(lib + "...canary.txt");
        m.add("/library%2f..%2fcanary.txt");
        m.add("/LIBRARY/../canary.txt");
        m.add("http://localhost" + lib + "../canary.txt");
        m.add(lib + "../canary.txt#fragment");
        m.add(lib + "?/../canary.txt");
        // symlinks and hidden files
        m.add(lib + "link-out");
        m.add(lib + "abs-link-out");
        m.add(lib + "dir-out/canary.txt");
        m.add(lib + "dir-out/");
        m.add(lib + ".hidden-canary");
        m.add(lib + "%2ehidden-canary");
        m.add(lib + ".hidden-dir/canary.txt");
        m.add(lib + "nested/./../.hidden-canary");
        m.add(lib + "nested/..%2f.hidden-canary");
        // the declared API, from the path and from a naive query parameter
        String files = SuiteApp.DECLARED_PREFIX;
        m.add(files + "../canary.txt");
        m.add(files + "%2e%2e/canary.txt");
        m.add(files + "%252e%252e%252fcanary.txt");
        m.add(files + "..%5ccanary.txt");
        m.add(files + "link-out");
        m.add(files + "dir-out/canary.txt");
        m.add(files + ".hidden-canary");
        m.add(files + outsideEncoded);
        m.add("/files?path=../canary.txt");
        m.add("/files?path=..%2Fmedia-secret%2Fcanary.txt");
        m.add("/files?path=nested/../../outside/canary.txt");
        m.add("/files?path=" + outsideEncoded);
        m.add("/files?path=" + sibling.replace("/", "%2F"));
        m.add("/files?path=link-out");
        m.add("/files?path=abs-link-out");
        m.add("/files?path=dir-out%2Fcanary.txt");
        m.add("/files?path=.hidden-canary");
        m.add("/files?path=.hidden-dir%2Fcanary.txt");
        m.add("/files?path=%2e%2e%2fcanary.txt");
        m.add("/files?path=small.txt%00");
        m.add("/files?path=..%5Ccanary.txt");
        return m;
    }

    Stream<Arguments> cases() {
        boolean withLenient = SuiteEnvironment.container().hasLenientMode();
        return corpus().stream().flatMap(p -> Arrays.stream(Target.values()).filter(t -> withLenient || !t.lenient())
                .map(t -> Arguments.of(t, p)));
    }

    @Test
    void corpusIsLargeEnough() {
        assertTrue(corpus().size() >= 40, "payloads: " + corpus().size());
        assertEquals(corpus().size(), corpus().stream().distinct().count(), "duplicates in the corpus");
    }

    /** What the containers' own answers are checked against: the recorder does see a request that reaches it. */
    @Test
    void theRecorderSeesARequestThatReachesTheApplication() {
        String id = SUITE + "-" + requests.incrementAndGet();
        RawHttp.Response r = SuiteApp.authGet(SuiteApp.MAPPED_PREFIX + "small.txt").header("X-Request-Id", id)
                .send(stack.containerPort());
        assertEquals(200, r.status(), r.toString());
        assertTrue(OffloadRecorder.reached(id), "the recorder did not see " + id);
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("cases")
    void neverAByteFromOutsideTheRoot(Target target, String payload) {
        String id = SUITE + "-" + requests.incrementAndGet();
        RawHttp.Request req = RawHttp.get(payload).header("Authorization", BearerAuthFilter.AUTHORIZATION)
                .header("X-Request-Id", id);
        int port;
        switch (target) {
            case FRONT_END -> port = stack.frontEndPort();
            case CONTAINER -> port = stack.containerPort();
            case CONTAINER_WITH_MARKER -> {
                port = stack.containerPort();
                req.header("X-Sendfile-Type", stack.frontEndKind().offloadHeader());
            }
            case LENIENT_CONTAINER -> port = lenient.containerPort();
            default -> {
                port = lenient.containerPort();
                req.header("X-Sendfile-Type", "X-Accel-Redirect");
            }
        }
        RawHttp.Response r = req.send(port);
        String redirect = r.header(target.lenient() ? "X-Accel-Redirect" : stack.frontEndKind().offloadHeader());
        OptionalInt own = SuiteEnvironment.container().ownStatus(payload);
        results.add(target + "\t" + r.status() + "\t" + payload
                + (redirect != null ? "\t-> " + redirect : "") + "\t" + r.body().length
                + (own.isPresent() ? "\tthe container's own " + own.getAsInt() : ""));
        assertFalse(media.leaksCanary(r.raw()), "canary leaked: " + payload + " -> " + r);
        if (own.isPresent()) {
            assertContainersOwnAnswer(target, payload, id, own.getAsInt(), r, redirect);
            return;
        }
        if (redirect != null && (target.lenient() || stack.frontEndKind().offloadHeader().equals("X-Accel-Redirect"))) {
            assertRedirectStaysInside(redirect, payload);
        } else if (redirect != null) {
            assertTrue(redirect.startsWith(mediaReal.toString() + "/"), "offload outside the root: " + redirect);
        }
        if (payload.startsWith(SuiteApp.MAPPED_PREFIX)) {
            assertTrue(r.status() < 500, "mapped mode rejects with 4xx, not " + r.status() + ": " + payload);
        }
        assertTrue(r.status() != 200 || !payload.contains("canary"),
                "a canary path answered 200: " + payload + " -> " + r);
    }

    /**
     * A target the container answers itself: exactly its status directly; through the front end that status or the
     * front end's own 4xx (nginx refuses {@code %u} itself). Either way the application's first filter never saw
     * it, and no offload header came back.
     */
    private void assertContainersOwnAnswer(Target target, String payload, String id, int own, RawHttp.Response r,
            String redirect) {
        String what = payload + " (the container's own " + own + ") -> " + r;
        if (target == Target.FRONT_END) {
            assertTrue(r.status() == own || r.status() >= 400 && r.status() < 500, what);
        } else {
            assertEquals(own, r.status(), what);
        }
        assertFalse(OffloadRecorder.reached(id), "the application saw " + what);
        assertNull(redirect, what);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("awkwardNames")
    void controlEveryAwkwardNameGivesACanonicalRedirectInsideTheRoot(String name) {
        DeliveryStack nginxStyle = lenient != null ? lenient : stack;
        for (String prefix : List.of(SuiteApp.MAPPED_PREFIX, SuiteApp.DECLARED_PREFIX)) {
            RawHttp.Response r = SuiteApp.authGet(prefix + MediaFixture.encodePath(name))
                    .header("X-Sendfile-Type", "X-Accel-Redirect").send(nginxStyle.containerPort());
            if (!SuiteEnvironment.container().passesName(name)) {
                // the container answers this name itself (its factory says so, measured): never with the file
                assertTrue(r.status() >= 400, name + " -> " + r);
                assertNull(r.header("X-Accel-Redirect"), r.toString());
                continue;
            }
            assertEquals(200, r.status(), r.toString());
            assertEquals(0, r.body().length);
            String redirect = r.header("X-Accel-Redirect");
            assertEquals(1, r.headers("X-Accel-Redirect").size(), r.toString());
            assertRedirectStaysInside(redirect, name);
            assertEquals(SuiteApp.INTERNAL_PREFIX + name, percentDecode(redirect), "decodes to the file name");
            assertTrue(redirect.chars().allMatch(c -> c == '%' || c == '/' || c == '-' || c == '.' || c == '_'
                    || c == '~' || c >= '0' && c <= '9' || c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z'),
                    "every byte outside A-Za-z0-9-._~/ percent-encoded: " + redirect);
        }
    }

    static Stream<String> awkwardNames() {
        return MediaFixture.AWKWARD_NAMES.stream();
    }

    @Test
    void declaredFileOutsideEveryLocationIs500AndLogsThePath() {
        List<LogRecord> records = new CopyOnWriteArrayList<>();
        Handler capture = new Handler() {
            @Override
            public void publish(LogRecord record) {
                records.add(record);
            }

            @Override
            public void flush() {
            }

            @Override
            public void close() {
            }
        };
        Logger logger = Logger.getLogger("dev.xaccel.filter");
        Level level = logger.getLevel();
        // The corpus above already declared outside files: this filter logs the first such event per minute at
        // SEVERE (XAccelFilterTest.repeatedDeclaredOutsideLocationsLogsSevereOnceAMinute), the others at FINE.
        logger.setLevel(Level.FINE);
        logger.addHandler(capture);
        // a server in a JVM of its own (DeployedWar) writes the filter's lines to a file of the tests'
        int serverLines = ServerLogLines.lines(DeployedWar.FILTER_LOGGER, 0).size();
        try {
            RawHttp.Response r = SuiteApp.authGet("/files?path=../outside/canary.txt").send(stack.frontEndPort());
            assertEquals(500, r.status(), r.toString());
            assertFalse(media.leaksCanary(r.raw()));
        } finally {
            logger.removeHandler(capture);
            logger.setLevel(level);
        }
        String outside = media.canaryOutside.toString();
        assertTrue(records.stream().anyMatch(rec -> rec.getLevel().intValue() >= Level.FINE.intValue()
                && new SimpleFormatter().formatMessage(rec).contains(outside))
                || ServerLogLines.lines(DeployedWar.FILTER_LOGGER, serverLines).stream()
                        .anyMatch(line -> line.contains(outside)),
                "an error log line naming " + outside);
    }

    /** An X-Accel-Redirect must name a regular, visible file under the media root. */
    private void assertRedirectStaysInside(String redirect, String payload) {
        assertTrue(redirect.startsWith(SuiteApp.INTERNAL_PREFIX), redirect);
        String encoded = redirect.substring(SuiteApp.INTERNAL_PREFIX.length());
        assertTrue(encoded.chars().allMatch(c -> c > 0x20 && c < 0x7f && c != '?' && c != '\\'),
                "raw characters in " + redirect);
        String decoded = percentDecode(encoded);
        for (String segment : decoded.split("/", -1)) {
            assertFalse(segment.isEmpty() || segment.startsWith("."),
                    "segment '" + segment + "' in " + redirect + " for " + payload);
        }
        try {
            Path file = mediaReal.resolve(decoded).toRealPath();
            assertTrue(file.startsWith(mediaReal), redirect + " leaves the root: " + file);
            assertTrue(Files.isRegularFile(file), redirect + " is not a regular file");
        } catch (IOException | InvalidPathException e) {
            fail(redirect + " for " + payload + " names no file: " + e);
        }
    }

    private static String percentDecode(String s) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == '%') {
                out.write(Integer.parseInt(s.substring(i + 1, i + 3), 16));
                i += 2;
            } else {
                out.write(c);
            }
        }
        return out.toString(StandardCharsets.UTF_8);
    }
}
