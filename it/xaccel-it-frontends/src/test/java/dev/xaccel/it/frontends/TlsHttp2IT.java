package dev.xaccel.it.frontends;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

import dev.xaccel.suite.DeliveryStack;
import dev.xaccel.testsupport.Poll;
import dev.xaccel.testsupport.TestCertificates;
import dev.xaccel.testsupport.TestPaths;
import dev.xaccel.testsupport.apache.ApacheFrontEnd;
import dev.xaccel.testsupport.caddy.CaddyFrontEnd;
import dev.xaccel.testsupport.frontend.FrontEnd;
import dev.xaccel.testsupport.frontend.RunningFrontEnd;
import dev.xaccel.testsupport.frontend.ShippedFrontEnd;
import dev.xaccel.testsupport.lighttpd.LighttpdFrontEnd;
import dev.xaccel.testsupport.media.MediaFixture;
import dev.xaccel.testsupport.nginx.DocsNginx;
import dev.xaccel.testsupport.nginx.NginxFrontEnd;
import dev.xaccel.testsupport.servlet.BearerAuthFilter;
import dev.xaccel.testsupport.servlet.OffloadRecorder;
import dev.xaccel.testsupport.servlet.SuiteApp;

/**
 * The delivery contract over HTTPS through the four shipped TLS variants (docs/nginx/xaccel-tls.conf.template,
 * docs/apache/xaccel-tls.conf, docs/lighttpd/xaccel-tls.conf, docs/caddy/Caddyfile-tls), each run as shipped with
 * only ports and paths filled, in front of the filter in Tomcat 11: a CA and a server certificate generated per run
 * ({@link TestCertificates}), Java's HttpClient trusting only that CA, once asking for HTTP/2 and once for HTTP/1.1
 * (ALPN; every variant speaks both, and the answer's protocol is asserted). An offloaded file arrives byte-exact, a
 * single and a multi range, HEAD; the filter's own 304, 412 and 416 (no hand-off). Every request reached the
 * application with the front end's marker, which only the front end sets.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class TlsHttp2IT {

    private static final AtomicInteger IDS = new AtomicInteger();
    private static final List<String> FRONT_ENDS = List.of("nginx", "apache", "lighttpd", "caddy");

    private TestCertificates pki;
    private final Map<HttpClient.Version, HttpClient> clients = new LinkedHashMap<>();
    private final Map<String, Running> running = new LinkedHashMap<>();

    /** One front end's TLS variant and the stack behind it. */
    private record Running(FrontEnd.Factory kind, DeliveryStack stack, FrontEnd frontEnd) {
    }

    static Stream<Arguments> frontEndsAndProtocols() {
        return FRONT_ENDS.stream().flatMap(fe -> Stream.of(HttpClient.Version.HTTP_2, HttpClient.Version.HTTP_1_1)
                .map(v -> Arguments.of(fe, v)));
    }

    static Stream<String> frontEnds() {
        return FRONT_ENDS.stream();
    }

    @BeforeAll
    void start() throws Exception {
        pki = TestCertificates.create("tls-pki");
        for (HttpClient.Version v : HttpClient.Version.values()) {
            clients.put(v, HttpClient.newBuilder().version(v).sslContext(pki.clientContext())
                    .connectTimeout(Duration.ofSeconds(10)).build());
        }
    }

    @AfterAll
    void stop() {
        for (Running r : running.values()) {
            try {
                r.frontEnd().close();
            } finally {
                r.stack().close();
            }
        }
    }

    /** The TLS variant of {@code name} and its stack, started on first use. */
    private synchronized Running running(String name) throws Exception {
        Running r = running.get(name);
        if (r != null) {
            return r;
        }
        FrontEnd.Factory kind = switch (name) {
            case "nginx" -> new NginxFrontEnd.Factory("nginx", DocsNginx.TLS_TEMPLATE,
                    Map.of("TLS_CERT", pki.cert().toString(), "TLS_KEY", pki.key().toString()));
            case "apache" -> new ApacheFrontEnd();
            case "lighttpd" -> new LighttpdFrontEnd();
            default -> new CaddyFrontEnd();
        };
        String suite = "tls-" + name;
        MediaFixture media = MediaFixture.create(suite);
        Map<String, String> params = new LinkedHashMap<>(kind.filterParams(media.media));
        params.put("jmxName", "none");
        DeliveryStack stack = DeliveryStack.start(suite, media, params, null, false);
        try {
            FrontEnd fe = kind instanceof ShippedFrontEnd shipped
                    ? shipped.startTls("tls", stack.containerPort(), media.media, pki)
                    : kind.start("tls", stack.containerPort(), media.media.toRealPath());
            r = new Running(kind, stack, fe);
        } catch (Exception | Error e) {
            stack.close();
            throw e;
        }
        running.put(name, r);
        return r;
    }

    /** An exchange whose answer the application handed to the front end. */
    private HttpResponse<byte[]> send(String fe, HttpClient.Version version, String method, String file,
            String... headers) throws Exception {
        Exchange e = exchange(fe, version, method, file, headers);
        assertTrue(e.answer().offloaded(), "offloaded: " + e.answer());
        return e.response();
    }

    private Exchange exchange(String fe, HttpClient.Version version, String method, String file, String... headers)
            throws Exception {
        Running r = running(fe);
        String id = "tls-" + IDS.incrementAndGet();
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create("https://127.0.0.1:" + r.frontEnd().port()
                + SuiteApp.MAPPED_PREFIX + file)).method(method, HttpRequest.BodyPublishers.noBody())
                .header("Authorization", BearerAuthFilter.AUTHORIZATION).header("X-Request-Id", id);
        for (int i = 0; i < headers.length; i += 2) {
            b.header(headers[i], headers[i + 1]);
        }
        HttpResponse<byte[]> response = clients.get(version).send(b.build(), HttpResponse.BodyHandlers.ofByteArray());
        assertEquals(version, response.version(), fe + ": the protocol negotiated over TLS (ALPN)");
        OffloadRecorder.Answer a = Poll.first(Duration.ofSeconds(5), () -> OffloadRecorder.answer(id))
                .orElseThrow(() -> new AssertionError("the application never saw " + id));
        assertEquals(r.kind().offloadHeader(), a.requestHeaders().get("x-sendfile-type"),
                "the front end's marker: the request went through " + fe + " " + a);
        return new Exchange(response, a);
    }

    private record Exchange(HttpResponse<byte[]> response, OffloadRecorder.Answer answer) {
    }

    private byte[] content(String fe, String name) throws Exception {
        return running(fe).stack().media.content(name);
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("frontEndsAndProtocols")
    void anOffloadedFileArrivesByteExact(String fe, HttpClient.Version version) throws Exception {
        for (String name : List.of("small.txt", "song.mp3", "big.bin")) {
            HttpResponse<byte[]> r = send(fe, version, "GET", name);
            assertEquals(200, r.statusCode(), name);
            assertArrayEquals(content(fe, name), r.body(), name);
        }
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("frontEndsAndProtocols")
    void rangesSingleAndMulti(String fe, HttpClient.Version version) throws Exception {
        byte[] all = content(fe, "song.mp3");
        HttpResponse<byte[]> one = send(fe, version, "GET", "song.mp3", "Range", "bytes=100-199");
        assertEquals(206, one.statusCode());
        assertEquals("bytes 100-199/" + all.length, one.headers().firstValue("Content-Range").orElseThrow());
        assertArrayEquals(Arrays.copyOfRange(all, 100, 200), one.body());
        // ranges far apart: lighttpd coalesces nearby ones into one part (docs/front-ends.md)
        byte[] big = content(fe, "big.bin");
        HttpResponse<byte[]> multi = send(fe, version, "GET", "big.bin", "Range", "bytes=0-99,5000-5099");
        assertEquals(206, multi.statusCode());
        String type = multi.headers().firstValue("Content-Type").orElseThrow();
        assertTrue(type.startsWith("multipart/byteranges; boundary="), type);
        String body = new String(multi.body(), StandardCharsets.ISO_8859_1);
        String boundary = "--" + type.substring(type.indexOf("boundary=") + 9);
        assertEquals(3, body.split(boundary, -1).length - 1, "two parts and the closing boundary: " + body);
        // Apache writes the part header as "Content-range" (field names are case-insensitive)
        String lower = body.toLowerCase(Locale.ROOT);
        assertTrue(lower.contains("content-range: bytes 0-99/" + big.length), body);
        assertTrue(lower.contains("content-range: bytes 5000-5099/" + big.length), body);
        assertTrue(body.contains(new String(Arrays.copyOfRange(big, 0, 100), StandardCharsets.ISO_8859_1)));
        assertTrue(body.contains(new String(Arrays.copyOfRange(big, 5000, 5100), StandardCharsets.ISO_8859_1)));
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("frontEndsAndProtocols")
    void head(String fe, HttpClient.Version version) throws Exception {
        HttpResponse<byte[]> head = send(fe, version, "HEAD", "song.mp3");
        assertEquals(200, head.statusCode());
        assertEquals(Integer.toString(content(fe, "song.mp3").length),
                head.headers().firstValue("Content-Length").orElseThrow());
        assertEquals(0, head.body().length);
    }

    /** The filter decides preconditions and unsatisfiable ranges itself (docs/front-ends.md): no hand-off. */
    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("frontEndsAndProtocols")
    void theFiltersOwn304And412And416(String fe, HttpClient.Version version) throws Exception {
        int size = content(fe, "song.mp3").length;
        String etag = send(fe, version, "GET", "song.mp3").headers().firstValue("ETag").orElse(null);
        assertNotNull(etag);
        Exchange notModified = exchange(fe, version, "GET", "song.mp3", "If-None-Match", etag);
        assertAnswered(notModified, 304);
        Exchange failed = exchange(fe, version, "GET", "song.mp3", "If-Match", "\"not-the-file\"");
        assertAnswered(failed, 412);
        Exchange unsatisfiable = exchange(fe, version, "GET", "song.mp3", "Range", "bytes=" + size + "-");
        assertAnswered(unsatisfiable, 416);
        assertEquals("bytes */" + size,
                unsatisfiable.response().headers().firstValue("Content-Range").orElse(null));
    }

    /**
     * docs/lighttpd/xaccel-tls.conf turns HTTP/2 on with {@code server.feature-flags :=}, which must win over what
     * xaccel.conf may say of it (to keep its cleartext listener from speaking h2c): xaccel.conf without any
     * {@code h2proto} line, and with either form that turns it off; the shipped xaccel.conf as it is runs above.
     */
    @ParameterizedTest
    @ValueSource(strings = {"", "server.h2proto = \"disable\"",
        "server.feature-flags += ( \"server.h2proto\" => \"disable\" )"})
    void lighttpdSpeaksHttp2OverTlsWhateverXaccelConfSaysOfH2proto(String h2protoLine) throws Exception {
        Running r = running("lighttpd");
        String shipped = Files.readString(TestPaths.repositoryFile("docs/lighttpd/xaccel.conf"));
        String base = shipped.lines().filter(l -> !l.contains("h2proto")).collect(Collectors.joining("\n", "",
                "\n" + h2protoLine + "\n"));
        Path file = TestPaths.target().resolve("tls-lighttpd-h2proto.conf");
        Files.writeString(file, base);
        try (FrontEnd fe = new LighttpdFrontEnd().startTls("tls-h2proto", r.stack().containerPort(),
                r.stack().media.media, pki, file)) {
            HttpResponse<byte[]> response = clients.get(HttpClient.Version.HTTP_2).send(HttpRequest.newBuilder(
                    URI.create("https://127.0.0.1:" + fe.port() + SuiteApp.MAPPED_PREFIX + "small.txt"))
                    .header("Authorization", BearerAuthFilter.AUTHORIZATION).build(),
                    HttpResponse.BodyHandlers.ofByteArray());
            assertEquals(HttpClient.Version.HTTP_2, response.version(), "xaccel.conf ending in: " + h2protoLine);
            assertEquals(200, response.statusCode());
            assertArrayEquals(content("lighttpd", "small.txt"), response.body());
        }
    }

    /**
     * No listener of a TLS variant speaks cleartext HTTP/2 (h2c): a client's prior-knowledge preface gets no SETTINGS
     * frame, from the HTTPS port nor from Caddy's cleartext site. (The shipped lighttpd config answers one, issue 31.)
     */
    @ParameterizedTest
    @MethodSource("frontEnds")
    void noListenerSpeaksCleartextHttp2(String fe) throws Exception {
        FrontEnd front = running(fe).frontEnd();
        List<Integer> ports = new ArrayList<>(List.of(front.port()));
        if (front instanceof RunningFrontEnd shipped && fe.equals("caddy")) {
            ports.add(shipped.server().port("FRONT_PORT"));
        }
        byte[] magic = "PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n".getBytes(StandardCharsets.US_ASCII);
        byte[] preface = Arrays.copyOf(magic, magic.length + 9);
        preface[magic.length + 3] = 0x04; // then an empty SETTINGS frame: length 0, type 4, no flags, stream 0
        for (int port : ports) {
            byte[] head;
            try (Socket socket = new Socket("127.0.0.1", port)) {
                socket.setSoTimeout(5000);
                socket.getOutputStream().write(preface);
                head = socket.getInputStream().readNBytes(9);
            } catch (IOException e) {
                head = new byte[0]; // refused, reset or silent: no HTTP/2 either
            }
            assertFalse(head.length == 9 && head[3] == 0x04,
                    fe + " port " + port + " answered a cleartext HTTP/2 preface with SETTINGS");
        }
    }

    private static void assertAnswered(Exchange e, int status) {
        assertEquals(status, e.response().statusCode(), e.answer().toString());
        assertEquals(status, e.answer().status(), "the application's own answer: " + e.answer());
        assertFalse(e.answer().offloaded(), e.answer().toString());
        if (status != 416) {
            assertEquals(0, e.response().body().length);
        }
    }
}
