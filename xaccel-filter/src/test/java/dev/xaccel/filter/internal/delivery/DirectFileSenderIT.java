package dev.xaccel.filter.internal.delivery;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.logging.Level;
import java.util.logging.Logger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletRequestWrapper;
import jakarta.servlet.http.HttpServletResponse;
import jakarta.servlet.http.HttpServletResponseWrapper;

import dev.xaccel.filter.internal.body.TomcatSendfile;
import dev.xaccel.filter.internal.fs.Resolution;
import dev.xaccel.filter.internal.http.ETags;
import dev.xaccel.testsupport.servlet.WebApp;
import dev.xaccel.testsupport.tomcat.EmbeddedTomcat;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@link DirectFileSender} behind a real embedded Tomcat on 127.0.0.1, spoken to with java.net.http and raw
 * sockets. The test servlet records per request (header {@code X-Test-Id}) whether Tomcat's sendfile
 * attributes were set and what {@code send} returned or threw.
 */
class DirectFileSenderIT {

    static final int BIG = 5 * 1024 * 1024 + 123;
    static final Logger TOMCAT_LOG = Logger.getLogger("org.apache");

    @TempDir
    static Path tmp;
    static Path big;
    static Path small;
    static Path mid;
    static Path empty;
    static byte[] bigBytes;
    static byte[] smallBytes;
    static EmbeddedTomcat tomcat;
    static int port;
    static HttpClient client;
    static final Map<String, Outcome> OUTCOMES = new ConcurrentHashMap<>();
    static final AtomicInteger IDS = new AtomicInteger();

    record Outcome(Object sendfileName, Long start, Long end, Sent returned, Throwable error) {
    }

    /** {@code wrap=1}: a plain request wrapper; {@code wrap=isolated}: one that keeps attributes to itself. */
    static HttpServletRequest wrap(HttpServletRequest req) {
        String wrap = req.getParameter("wrap");
        if (wrap == null) {
            return req;
        }
        if (!"isolated".equals(wrap)) {
            return new HttpServletRequestWrapper(req);
        }
        return new HttpServletRequestWrapper(req) {
            private final Map<String, Object> own = new HashMap<>();

            @Override
            public Object getAttribute(String name) {
                return own.get(name);
            }

            @Override
            public void setAttribute(String name, Object o) {
                own.put(name, o);
            }
        };
    }

    static final class TestServlet extends HttpServlet {
        private static final long serialVersionUID = 1L;
        private final transient DirectFileSender zeroCopy = new DirectFileSender(true, 8192);
        private final transient DirectFileSender copying = new DirectFileSender(false, 8192);

        @Override
        protected void service(HttpServletRequest req, HttpServletResponse resp) throws IOException {
            String name = req.getPathInfo().substring(1);
            Resolution file = Resolution.ok(tmp, tmp.resolve(name), name);
            DirectFileSender sender = "copy".equals(req.getParameter("mode")) ? copying : zeroCopy;
            HttpServletRequest r = wrap(req);
            HttpServletResponse w = req.getParameter("wrapresp") != null ? new HttpServletResponseWrapper(resp) : resp;
            String id = req.getHeader("X-Test-Id");
            try {
                Sent n = sender.send(r, w, file,
                        new Representation("audio/mpeg", req.getParameter("cd"), req.getParameter("cc"), null));
                OUTCOMES.put(id, new Outcome(req.getAttribute(TomcatSendfile.FILENAME),
                        (Long) req.getAttribute(TomcatSendfile.START),
                        (Long) req.getAttribute(TomcatSendfile.END), n, null));
            } catch (IOException e) {
                OUTCOMES.put(id, new Outcome(null, null, null, null, e));
            }
        }
    }

    @BeforeAll
    static void start() throws Exception {
        TOMCAT_LOG.setLevel(Level.WARNING);
        Random random = new Random(1234);
        bigBytes = new byte[BIG];
        random.nextBytes(bigBytes);
        big = Files.write(tmp.resolve("big.bin"), bigBytes);
        smallBytes = new byte[1000];
        random.nextBytes(smallBytes);
        small = Files.write(tmp.resolve("small.bin"), smallBytes);
        mid = Files.write(tmp.resolve("mid.bin"), Arrays.copyOf(bigBytes, 100_000));
        empty = Files.write(tmp.resolve("empty.bin"), new byte[0]);

        // no filter: the sender alone, in a servlet; nothing but /files/* is asked for
        tomcat = EmbeddedTomcat.builder(tmp.resolve("tomcat"))
                .webapp(WebApp.root().servlet("/files/*", new TestServlet()).defaultServlet(null))
                .start();
        port = tomcat.port();
        client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
                .connectTimeout(Duration.ofSeconds(5)).build();
    }

    @AfterAll
    static void stop() {
        if (tomcat != null) {
            tomcat.close();
        }
    }

    // ---- helpers ----

    static final class Exchange {
        final HttpResponse<byte[]> response;
        final Outcome outcome;

        Exchange(HttpResponse<byte[]> response, Outcome outcome) {
            this.response = response;
            this.outcome = outcome;
        }

        int status() {
            return response.statusCode();
        }

        String header(String name) {
            return response.headers().firstValue(name).orElse(null);
        }

        byte[] body() {
            return response.body();
        }
    }

    static Exchange request(String method, String pathAndQuery, String... headers) throws Exception {
        String id = Integer.toString(IDS.incrementAndGet());
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + pathAndQuery))
                .timeout(Duration.ofSeconds(30)).method(method, HttpRequest.BodyPublishers.noBody())
                .header("X-Test-Id", id);
        for (int i = 0; i < headers.length; i += 2) {
            b.header(headers[i], headers[i + 1]);
        }
        HttpResponse<byte[]> response = client.send(b.build(), HttpResponse.BodyHandlers.ofByteArray());
        return new Exchange(response, awaitOutcome(id));
    }

    /** The servlet records its outcome after send() returned, possibly after the client got the body. */
    static Outcome awaitOutcome(String id) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        Outcome outcome;
        while ((outcome = OUTCOMES.remove(id)) == null && System.nanoTime() < deadline) {
            Thread.sleep(5);
        }
        assertNotNull(outcome, "servlet recorded no outcome for request " + id);
        return outcome;
    }

    static Exchange get(String pathAndQuery, String... headers) throws Exception {
        return request("GET", pathAndQuery, headers);
    }

    static byte[] sha256(byte[] data) throws NoSuchAlgorithmException {
        return MessageDigest.getInstance("SHA-256").digest(data);
    }

    static byte[] slice(byte[] data, int start, int endInclusive) {
        return Arrays.copyOfRange(data, start, endInclusive + 1);
    }

    static String httpDate(long epochMillis) {
        return dev.xaccel.testsupport.HttpDate.format(epochMillis);
    }

    static String etagOf(Path file) throws IOException {
        return ETags.strong(Files.size(file), Files.getLastModifiedTime(file).toMillis());
    }

    // ---- full bodies ----

    @ParameterizedTest
    @ValueSource(strings = {"", "?wrap=1", "?wrap=isolated", "?mode=copy", "?wrapresp=1"})
    void fullBodyIsByteExact(String query) throws Exception {
        Exchange x = get("/files/big.bin" + query);
        assertEquals(200, x.status());
        assertEquals(String.valueOf(BIG), x.header("Content-Length"));
        assertEquals("audio/mpeg", x.header("Content-Type"));
        assertEquals("bytes", x.header("Accept-Ranges"));
        assertEquals(etagOf(big), x.header("ETag"));
        assertEquals(httpDate(Files.getLastModifiedTime(big).toMillis() / 1000 * 1000), x.header("Last-Modified"));
        assertNull(x.header("Content-Range"));
        assertArrayEquals(sha256(bigBytes), sha256(x.body()));
        assertEquals(Sent.body(BIG), x.outcome.returned());
        if (query.isEmpty() || query.startsWith("?wrap=")) {
            assertEquals(big.toAbsolutePath().toString(), x.outcome.sendfileName(), "sendfile taken");
            assertEquals(0L, x.outcome.start());
            assertEquals((long) BIG, x.outcome.end());
        } else {
            assertNull(x.outcome.sendfileName(), "copy path (disabled, or wrapped response)");
        }
    }

    @Test
    void smallFilesAreCopiedEvenWithSendfile() throws Exception {
        Exchange x = get("/files/small.bin?cc=max-age%3D60&cd=attachment");
        assertEquals(200, x.status());
        assertArrayEquals(smallBytes, x.body());
        assertNull(x.outcome.sendfileName());
        assertEquals("max-age=60", x.header("Cache-Control"));
        assertEquals("attachment", x.header("Content-Disposition"));
    }

    @Test
    void emptyFile() throws Exception {
        Exchange x = get("/files/empty.bin", "Range", "bytes=0-");
        assertEquals(200, x.status());
        assertEquals("0", x.header("Content-Length"));
        assertEquals(0, x.body().length);
    }

    @Test
    void missingFileIs404() throws Exception {
        Exchange x = get("/files/nope.bin");
        assertEquals(404, x.status());
        assertEquals(Sent.NOT_FOUND, x.outcome.returned());
    }

    @Test
    void headHasHeadersButNoBody() throws Exception {
        Exchange x = request("HEAD", "/files/big.bin");
        assertEquals(200, x.status());
        assertEquals(String.valueOf(BIG), x.header("Content-Length"));
        assertEquals(etagOf(big), x.header("ETag"));
        assertEquals(0, x.body().length);
        assertEquals(Sent.body(0), x.outcome.returned());
        assertNull(x.outcome.sendfileName());

        Exchange r = request("HEAD", "/files/big.bin", "Range", "bytes=10-19");
        assertEquals(206, r.status());
        assertEquals("10", r.header("Content-Length"));
        assertEquals("bytes 10-19/" + BIG, r.header("Content-Range"));
        assertEquals(0, r.body().length);
    }

    // ---- ranges ----

    @ParameterizedTest
    @ValueSource(strings = {"", "?mode=copy"})
    void singleRange(String query) throws Exception {
        Exchange x = get("/files/big.bin" + query, "Range", "bytes=1000000-3999999");
        assertEquals(206, x.status());
        assertEquals("bytes 1000000-3999999/" + BIG, x.header("Content-Range"));
        assertEquals("3000000", x.header("Content-Length"));
        assertArrayEquals(sha256(slice(bigBytes, 1_000_000, 3_999_999)), sha256(x.body()));
        if (query.isEmpty()) {
            assertEquals(1_000_000L, x.outcome.start());
            assertEquals(4_000_000L, x.outcome.end(), "end is exclusive");
        } else {
            assertNull(x.outcome.sendfileName());
        }
    }

    @Test
    void suffixAndOpenRanges() throws Exception {
        Exchange suffix = get("/files/small.bin", "Range", "bytes=-100");
        assertEquals(206, suffix.status());
        assertEquals("bytes 900-999/1000", suffix.header("Content-Range"));
        assertArrayEquals(slice(smallBytes, 900, 999), suffix.body());

        Exchange open = get("/files/mid.bin", "Range", "bytes=50000-");
        assertEquals(206, open.status());
        assertEquals("bytes 50000-99999/100000", open.header("Content-Range"));
        assertArrayEquals(slice(bigBytes, 50_000, 99_999), open.body());
        assertEquals(mid.toAbsolutePath().toString(), open.outcome.sendfileName(), "50000 bytes >= 48 KiB");

        Exchange tiny = get("/files/mid.bin", "Range", "bytes=0-999");
        assertNull(tiny.outcome.sendfileName(), "1000 bytes < 48 KiB");
        assertArrayEquals(slice(bigBytes, 0, 999), tiny.body());
    }

    @Test
    void multipleRangesAsMultipart() throws Exception {
        Exchange x = get("/files/big.bin", "Range", "bytes=4000000-4000099, 0-9,5-14, -5");
        assertEquals(206, x.status());
        String type = x.header("Content-Type");
        assertTrue(type.startsWith("multipart/byteranges; boundary="), type);
        String boundary = type.substring(type.indexOf('=') + 1);
        assertEquals(String.valueOf(x.body().length), x.header("Content-Length"));
        assertNull(x.header("Content-Range"));
        assertNull(x.outcome.sendfileName(), "multipart is always copied");

        String body = new String(x.body(), StandardCharsets.ISO_8859_1);
        Pattern part = Pattern.compile("\r\n--" + Pattern.quote(boundary)
                + "\r\nContent-Type: audio/mpeg\r\nContent-Range: bytes (\\d+)-(\\d+)/(\\d+)\r\n\r\n");
        Matcher m = part.matcher(body);
        int[][] expected = {{0, 14}, {4_000_000, 4_000_099}, {BIG - 5, BIG - 1}};
        int i = 0;
        while (m.find()) {
            int s = Integer.parseInt(m.group(1));
            int e = Integer.parseInt(m.group(2));
            assertEquals(expected[i][0], s);
            assertEquals(expected[i][1], e);
            assertEquals(String.valueOf(BIG), m.group(3));
            byte[] data = Arrays.copyOfRange(x.body(), m.end(), m.end() + (e - s + 1));
            assertArrayEquals(slice(bigBytes, s, e), data);
            i++;
        }
        assertEquals(3, i);
        assertTrue(body.endsWith("\r\n--" + boundary + "--\r\n"));

        Exchange again = get("/files/big.bin", "Range", "bytes=0-0,2-2");
        assertFalse(again.header("Content-Type").endsWith(boundary), "boundary is random");
    }

    @Test
    void unsatisfiableRangeIs416() throws Exception {
        Exchange x = get("/files/small.bin", "Range", "bytes=1000-2000");
        assertEquals(416, x.status());
        assertEquals("bytes */1000", x.header("Content-Range"));
        assertEquals(0, x.body().length);
    }

    @Test
    void invalidRangeIsIgnored() throws Exception {
        Exchange x = get("/files/small.bin", "Range", "bytes=5-1");
        assertEquals(200, x.status());
        assertArrayEquals(smallBytes, x.body());
    }

    // ---- conditional requests ----

    @Test
    void ifNoneMatch() throws Exception {
        String etag = etagOf(small);
        Exchange x = get("/files/small.bin?cc=no-cache", "If-None-Match", "\"x\", W/" + etag);
        assertEquals(304, x.status());
        assertEquals(etag, x.header("ETag"));
        assertEquals("no-cache", x.header("Cache-Control"));
        assertEquals(0, x.body().length);
        assertEquals(304, request("HEAD", "/files/small.bin", "If-None-Match", "*").status());
        assertEquals(200, get("/files/small.bin", "If-None-Match", "\"other\"").status());
        assertEquals(412, request("POST", "/files/small.bin", "If-None-Match", etag).status());
    }

    @Test
    void ifModifiedSince() throws Exception {
        long mtime = Files.getLastModifiedTime(small).toMillis();
        assertEquals(304, get("/files/small.bin", "If-Modified-Since", httpDate(mtime)).status());
        assertEquals(304, get("/files/small.bin", "If-Modified-Since", httpDate(mtime + 60_000)).status());
        assertEquals(200, get("/files/small.bin", "If-Modified-Since", httpDate(mtime - 60_000)).status());
        assertEquals(200, get("/files/small.bin", "If-Modified-Since", "yesterday").status(), "invalid: ignored");
        // If-None-Match takes precedence over If-Modified-Since
        assertEquals(200, get("/files/small.bin", "If-None-Match", "\"other\"",
                "If-Modified-Since", httpDate(mtime + 60_000)).status());
    }

    @Test
    void ifMatchAndIfUnmodifiedSince() throws Exception {
        String etag = etagOf(small);
        long mtime = Files.getLastModifiedTime(small).toMillis();
        assertEquals(200, get("/files/small.bin", "If-Match", etag).status());
        assertEquals(200, get("/files/small.bin", "If-Match", "*").status());
        Exchange x = get("/files/small.bin", "If-Match", "\"other\"");
        assertEquals(412, x.status());
        assertEquals(0, x.body().length);
        assertEquals(412, get("/files/small.bin", "If-Match", "W/" + etag).status(), "strong comparison");
        assertEquals(412, get("/files/small.bin", "If-Unmodified-Since", httpDate(mtime - 60_000)).status());
        assertEquals(200, get("/files/small.bin", "If-Unmodified-Since", httpDate(mtime)).status());
        // If-Match wins over If-Unmodified-Since (RFC 9110 §13.2.2 step 2 only without If-Match)
        assertEquals(200, get("/files/small.bin", "If-Match", etag,
                "If-Unmodified-Since", httpDate(mtime - 60_000)).status());
        // 412 before 304
        assertEquals(412, get("/files/small.bin", "If-Match", "\"other\"", "If-None-Match", etag).status());
        // preconditions before range: 412 instead of 416
        assertEquals(412, get("/files/small.bin", "If-Match", "\"other\"", "Range", "bytes=5000-").status());
    }

    @Test
    void ifRange() throws Exception {
        String etag = etagOf(small);
        long mtime = Files.getLastModifiedTime(small).toMillis();
        assertEquals(206, get("/files/small.bin", "Range", "bytes=0-9", "If-Range", etag).status());
        assertEquals(206, get("/files/small.bin", "Range", "bytes=0-9", "If-Range", httpDate(mtime)).status());
        Exchange stale = get("/files/small.bin", "Range", "bytes=0-9", "If-Range", "\"other\"");
        assertEquals(200, stale.status());
        assertArrayEquals(smallBytes, stale.body());
        assertEquals(200, get("/files/small.bin", "Range", "bytes=0-9", "If-Range", "W/" + etag).status());
        assertEquals(200, get("/files/small.bin", "Range", "bytes=0-9",
                "If-Range", httpDate(mtime - 60_000)).status());
        assertEquals(200, get("/files/small.bin", "Range", "bytes=0-9", "If-Range", "garbage").status());
    }

    // ---- client abort ----

    @Test
    void clientAbortSurfacesAsIOException() throws Exception {
        String id = "abort-" + IDS.incrementAndGet();
        try (Socket socket = new Socket(InetAddress.getLoopbackAddress(), port)) {
            socket.setReceiveBufferSize(4096);
            OutputStream out = socket.getOutputStream();
            out.write(("GET /files/big.bin?mode=copy HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Test-Id: " + id
                    + "\r\n\r\n").getBytes(StandardCharsets.ISO_8859_1));
            out.flush();
            InputStream in = socket.getInputStream();
            byte[] head = in.readNBytes(64);
            assertTrue(new String(head, StandardCharsets.ISO_8859_1).startsWith("HTTP/1.1 200"));
            socket.setSoLinger(true, 0); // reset instead of a clean close
        }
        Outcome outcome = awaitOutcome(id);
        assertNotNull(outcome.error(), "write failure reached the caller");
        assertTrue(outcome.error() instanceof IOException);
    }
}
