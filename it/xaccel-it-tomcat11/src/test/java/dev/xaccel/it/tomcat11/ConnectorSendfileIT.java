package dev.xaccel.it.tomcat11;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.HttpURLConnection;
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
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.logging.Level;
import javax.net.ssl.HttpsURLConnection;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManager;
import javax.net.ssl.X509TrustManager;

import org.apache.coyote.http2.Http2Protocol;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

import dev.xaccel.suite.BodyWriterLog;
import dev.xaccel.testsupport.OpenFiles;
import dev.xaccel.testsupport.Poll;
import dev.xaccel.testsupport.RawHttp;
import dev.xaccel.testsupport.TestPaths;
import dev.xaccel.testsupport.servlet.WebApp;
import dev.xaccel.testsupport.tomcat.EmbeddedTomcat;

/**
 * The filter with the xaccel connector's protocol in Tomcat 11, over real loopback connections: large bodies leave
 * through Tomcat's sendfile from the channel the filter opened ({@code connector-sendfile}), several at once and
 * byte-exact; every channel is closed again (no descriptor left on the files, aborted clients, HEAD and 304
 * included); HTTP/2 streams, a connector with {@code useSendfile=false} or {@code checkedFileSendfile=false} get no
 * slot and fall back to {@code direct-buffer}; files declared in asynchronous requests are sent whole, with the
 * connector and with Tomcat's sendfile by name ({@code sendfile=true}), which an asynchronous request must not use;
 * over TLS, Tomcat's own sendfile path sends from the filter's channel.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ConnectorSendfileIT {

    private static final int LARGE = 64 << 20;
    private static final int MEDIUM = 1 << 20;
    private static final int PARALLEL = 4;
    /** Declared from the async context's thread, before the servlet returns, and in an async dispatch's pass. */
    private static final List<String> ASYNC_MODES = List.of("thread", "before", "dispatch");

    private Path media;
    private String largeSha;
    private byte[] medium;
    private EmbeddedTomcat tomcat;
    private BodyWriterLog log;

    @BeforeAll
    void start() throws Exception {
        Path dir = TestPaths.freshDir("connector-sendfile");
        media = Files.createDirectories(dir.resolve("media")).toRealPath();
        byte[] block = new byte[1 << 20];
        Random random = new Random(64);
        MessageDigest sha = sha256();
        try (OutputStream out = Files.newOutputStream(media.resolve("large.bin"))) {
            for (int i = 0; i < LARGE / block.length; i++) {
                random.nextBytes(block);
                out.write(block);
                sha.update(block);
            }
        }
        largeSha = HexFormat.of().formatHex(sha.digest());
        medium = new byte[MEDIUM];
        random.nextBytes(medium);
        Files.write(media.resolve("medium.bin"), medium);
        tomcat = start("connector", Map.of(), Map.of());
    }

    private EmbeddedTomcat start(String name, Map<String, String> connector, Map<String, String> filter) {
        Map<String, String> params = new LinkedHashMap<>();
        params.put("locations", media + "/ => /_xaccel/media/");
        params.put("mappings", "/library/ => " + media + "/");
        params.put("offload", "never");
        params.put("jmxName", "dev.xaccel:type=XAccelFilter,context=/,name=connector-" + name);
        params.putAll(filter);
        EmbeddedTomcat.Builder b = EmbeddedTomcat.builder(TestPaths.freshDir("tomcat-connector-" + name))
                .webapp(WebApp.root().xaccelFilter(params)
                        .servlet("/async/*", new AsyncServlets.Declaring(media))
                        .servlet("/probe", new AsyncServlets.SlotProbe())
                        .servlet("/handoff/*", new AsyncServlets.HandOff(media)))
                .upgradeProtocol(new Http2Protocol());
        if (!connector.containsKey("stock")) {
            b.protocol(ConnectorTomcatFactory.PROTOCOL);
        }
        connector.forEach((k, v) -> {
            if (!k.equals("stock")) {
                b.connectorProperty(k, v);
            }
        });
        return b.start();
    }

    @AfterAll
    void stop() {
        if (tomcat != null) {
            tomcat.close();
        }
    }

    @BeforeEach
    void capture() {
        log = BodyWriterLog.start();
    }

    @AfterEach
    void release() {
        log.close();
    }

    /** The writers the filter logged, in order. */
    private List<String> writers() {
        return log.writers();
    }

    private static MessageDigest sha256() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Status, length and SHA-256 of the body of an HTTP/1.1 GET, read as it streams in. */
    record Download(int status, long length, String sha) {
    }

    private static Download get(int port, String path) {
        try {
            HttpURLConnection c = (HttpURLConnection) URI.create("http://127.0.0.1:" + port + path).toURL()
                    .openConnection();
            c.setConnectTimeout(10_000);
            c.setReadTimeout(30_000);
            MessageDigest sha = sha256();
            long length = 0;
            try (InputStream in = c.getResponseCode() < 400 ? c.getInputStream() : c.getErrorStream()) {
                byte[] buffer = new byte[256 * 1024];
                for (int n; in != null && (n = in.read(buffer)) > 0;) {
                    sha.update(buffer, 0, n);
                    length += n;
                }
            }
            return new Download(c.getResponseCode(), length, HexFormat.of().formatHex(sha.digest()));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static String sha(byte[] bytes) {
        return HexFormat.of().formatHex(sha256().digest(bytes));
    }

    @Test
    void parallelLargeDownloadsAreExactAndSentFromTheFiltersChannel() throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(PARALLEL);
        try {
            List<Future<Download>> downloads = new ArrayList<>();
            for (int i = 0; i < PARALLEL; i++) {
                downloads.add(pool.submit(() -> get(tomcat.port(), "/library/large.bin")));
            }
            for (Future<Download> f : downloads) {
                Download d = f.get();
                assertEquals(200, d.status());
                assertEquals(LARGE, d.length());
                assertEquals(largeSha, d.sha());
            }
        } finally {
            pool.shutdownNow();
        }
        assertEquals(List.of("connector-sendfile", "connector-sendfile", "connector-sendfile", "connector-sendfile"),
                writers());
        assertEquals(PARALLEL,
                log.capture().count(Level.FINE, "body via connector-sendfile: [" + LARGE + "] bytes"));
    }

    @Test
    void theBodyComesFromTheChannelInTheSlotNotFromTheNamedFile() {
        Download d = get(tomcat.port(), "/handoff/medium.bin");
        assertEquals(200, d.status());
        assertEquals(MEDIUM, d.length());
        assertEquals(sha(medium), d.sha());
    }

    @Test
    void aRangeAndKeepAliveRequestsAfterIt() {
        byte[] raw = ("GET /library/medium.bin HTTP/1.1\r\nHost: x\r\nRange: bytes=1000-600999\r\n\r\n"
                + "GET /library/medium.bin HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
                .getBytes(StandardCharsets.US_ASCII);
        byte[] all = sendRaw(raw);
        RawHttp.Response first = RawHttp.Response.parse("GET", all);
        assertEquals(206, first.status(), first.toString());
        assertArrayEquals(java.util.Arrays.copyOfRange(medium, 1000, 601000), first.body());
        int second = RawHttp.indexOf(all, "HTTP/1.1 200".getBytes(StandardCharsets.US_ASCII), 1);
        assertTrue(second > 0, "a second response on the connection");
        RawHttp.Response next = RawHttp.Response.parse("GET", java.util.Arrays.copyOfRange(all, second, all.length));
        assertArrayEquals(medium, next.body());
        assertEquals(List.of("connector-sendfile", "connector-sendfile"), writers());
    }

    private byte[] sendRaw(byte[] request) {
        try (Socket s = new Socket("127.0.0.1", tomcat.port())) {
            s.setSoTimeout(30_000);
            s.getOutputStream().write(request);
            return s.getInputStream().readAllBytes();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Test
    void everyChannelIsClosedAbortedClientsHeadAnd304Included() throws Exception {
        long self = OpenFiles.self();
        assertTrue(OpenFiles.available(), "/proc/self/fd");
        assertTrue(Poll.until(Duration.ofSeconds(10), () -> OpenFiles.below(self, media).isEmpty()),
                "before: " + OpenFiles.below(self, media));
        for (int i = 0; i < 20; i++) {
            assertEquals(sha(medium), get(tomcat.port(), "/library/medium.bin").sha());
            assertEquals(sha(medium), get(tomcat.port(), "/async/thread/medium.bin").sha());
        }
        for (int i = 0; i < 10; i++) {
            RawHttp.Response head = RawHttp.head("/library/large.bin").send(tomcat.port());
            assertEquals(200, head.status());
            String etag = head.header("ETag");
            RawHttp.Response notModified = RawHttp.get("/library/large.bin").header("If-None-Match", etag)
                    .send(tomcat.port());
            assertEquals(304, notModified.status());
        }
        boolean seenOpen = false;
        for (int i = 0; i < 10; i++) {
            try (Socket s = new Socket("127.0.0.1", tomcat.port())) {
                s.setSoTimeout(30_000);
                s.getOutputStream().write("GET /library/large.bin HTTP/1.1\r\nHost: x\r\n\r\n"
                        .getBytes(StandardCharsets.US_ASCII));
                InputStream in = s.getInputStream();
                byte[] some = new byte[256 * 1024];
                int read = 0;
                while (read < some.length) {
                    read += in.read(some, read, some.length - read);
                }
                // The connector sends from the channel now: it is open, and the client goes away mid-body.
                seenOpen |= !OpenFiles.below(self, media).isEmpty();
                s.setSoLinger(true, 0);
            }
        }
        assertTrue(seenOpen, "a channel was open while a body was being sent");
        assertTrue(Poll.until(Duration.ofSeconds(30), () -> OpenFiles.below(self, media).isEmpty()),
                "descriptors left on the media files: " + OpenFiles.below(self, media));
        assertTrue(writers().stream().filter("connector-sendfile"::equals).count() >= 30, writers().toString());
    }

    @Test
    void http2StreamsGetNoSlotAndAreSentByTheFilter() throws Exception {
        assertEquals("slot", new String(RawHttp.get("/probe").send(tomcat.port()).body(), StandardCharsets.UTF_8));
        HttpClient h2 = HttpClient.newBuilder().version(HttpClient.Version.HTTP_2)
                .connectTimeout(Duration.ofSeconds(10)).build();
        URI probe = URI.create("http://127.0.0.1:" + tomcat.port() + "/probe");
        URI file = URI.create("http://127.0.0.1:" + tomcat.port() + "/library/medium.bin");
        // the first request upgrades the connection (h2c), and is itself answered on stream 1
        for (int i = 0; i < 2; i++) {
            HttpResponse<String> p = h2.send(HttpRequest.newBuilder(probe).build(),
                    HttpResponse.BodyHandlers.ofString());
            assertEquals(HttpClient.Version.HTTP_2, p.version());
            assertEquals("none", p.body());
        }
        HttpResponse<byte[]> f = h2.send(HttpRequest.newBuilder(file).build(), HttpResponse.BodyHandlers.ofByteArray());
        assertEquals(HttpClient.Version.HTTP_2, f.version());
        assertEquals(200, f.statusCode());
        assertArrayEquals(medium, f.body());
        assertEquals(List.of("direct-buffer"), writers());
    }

    @Test
    void overTlsTomcatsOwnSendfileSendsFromTheSameChannel() throws Exception {
        Path keystore = TestPaths.target().resolve("connector-sendfile/tls.p12");
        Files.deleteIfExists(keystore);
        Path keytool = Path.of(System.getProperty("java.home"), "bin", "keytool");
        Process p = new ProcessBuilder(keytool.toString(), "-genkeypair", "-alias", "tomcat", "-keyalg", "RSA",
                "-keysize", "2048", "-validity", "2", "-dname", "CN=127.0.0.1", "-storetype", "PKCS12",
                "-keystore", keystore.toString(), "-storepass", "changeit", "-keypass", "changeit")
                .redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertEquals(0, p.waitFor(), out);
        Map<String, String> params = new LinkedHashMap<>();
        params.put("locations", media + "/ => /_xaccel/media/");
        params.put("mappings", "/library/ => " + media + "/");
        params.put("offload", "never");
        params.put("jmxName", "dev.xaccel:type=XAccelFilter,context=/,name=connector-tls");
        long self = OpenFiles.self();
        try (EmbeddedTomcat tls = EmbeddedTomcat.builder(TestPaths.freshDir("tomcat-connector-tls"))
                .webapp(WebApp.root().xaccelFilter(params)).protocol(ConnectorTomcatFactory.PROTOCOL)
                .tls(keystore, "changeit").start()) {
            SSLContext trustAll = SSLContext.getInstance("TLS");
            trustAll.init(null, new TrustManager[] { new TrustEverything() }, null);
            for (int i = 0; i < 2; i++) {
                HttpsURLConnection c = (HttpsURLConnection) URI.create("https://127.0.0.1:" + tls.port()
                        + "/library/large.bin").toURL().openConnection();
                c.setSSLSocketFactory(trustAll.getSocketFactory());
                c.setHostnameVerifier((host, session) -> true);
                c.setReadTimeout(30_000);
                MessageDigest sha = sha256();
                long length = 0;
                try (InputStream in = c.getInputStream()) {
                    byte[] buffer = new byte[256 * 1024];
                    for (int n; (n = in.read(buffer)) > 0;) {
                        sha.update(buffer, 0, n);
                        length += n;
                    }
                }
                assertEquals(200, c.getResponseCode());
                assertEquals(LARGE, length);
                assertEquals(largeSha, HexFormat.of().formatHex(sha.digest()));
            }
        }
        assertEquals(List.of("connector-sendfile", "connector-sendfile"), writers());
        assertTrue(Poll.until(Duration.ofSeconds(30), () -> OpenFiles.below(self, media).isEmpty()),
                "descriptors left on the media files: " + OpenFiles.below(self, media));
    }

    /** A client trust manager for the test's own self-signed certificate. */
    private static final class TrustEverything implements X509TrustManager {
        @Override
        public void checkClientTrusted(X509Certificate[] chain, String authType) {
        }

        @Override
        public void checkServerTrusted(X509Certificate[] chain, String authType) {
        }

        @Override
        public X509Certificate[] getAcceptedIssuers() {
            return new X509Certificate[0];
        }
    }

    @Test
    void withoutSendfileOrWithTheAttributeOffTheFilterWritesTheBody() {
        for (Map<String, String> connector : List.of(Map.of("useSendfile", "false"),
                Map.of("checkedFileSendfile", "false"))) {
            String name = connector.keySet().iterator().next();
            try (EmbeddedTomcat other = start(name, connector, Map.of())) {
                assertEquals("none", new String(RawHttp.get("/probe").send(other.port()).body(),
                        StandardCharsets.UTF_8), name);
                assertEquals(sha(medium), get(other.port(), "/library/medium.bin").sha(), name);
            }
        }
        assertEquals(List.of("direct-buffer", "direct-buffer"), writers());
    }

    @Test
    void filesDeclaredInAsynchronousRequestsAreSentWhole() {
        for (String mode : ASYNC_MODES) {
            Download d = get(tomcat.port(), "/async/" + mode + "/medium.bin");
            assertEquals(200, d.status(), mode);
            assertEquals(sha(medium), d.sha(), mode);
        }
        assertEquals(List.of("direct-buffer", "direct-buffer", "direct-buffer"), writers());
    }

    /** Tomcat's sendfile by name sends no body for an asynchronous request: the filter must not use it there. */
    @Test
    void sendfileByNameIsNotUsedForAsynchronousRequests() {
        try (EmbeddedTomcat stock = start("stock", Map.of("stock", ""), Map.of("sendfile", "true"))) {
            Download sync = get(stock.port(), "/library/medium.bin");
            assertEquals(sha(medium), sync.sha());
            for (String mode : ASYNC_MODES) {
                Download d = get(stock.port(), "/async/" + mode + "/medium.bin");
                assertEquals(200, d.status(), mode);
                assertEquals(MEDIUM, d.length(), mode);
                assertEquals(sha(medium), d.sha(), mode);
            }
        }
        assertEquals(List.of("tomcat-sendfile", "direct-buffer", "direct-buffer", "direct-buffer"), writers());
    }
}
