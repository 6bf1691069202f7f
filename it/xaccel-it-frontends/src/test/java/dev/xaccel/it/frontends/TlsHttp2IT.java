package dev.xaccel.it.frontends;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.security.cert.CertificateFactory;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

import dev.xaccel.suite.DeliveryStack;
import dev.xaccel.testsupport.Poll;
import dev.xaccel.testsupport.Processes;
import dev.xaccel.testsupport.TestPaths;
import dev.xaccel.testsupport.media.MediaFixture;
import dev.xaccel.testsupport.nginx.DocsNginx;
import dev.xaccel.testsupport.nginx.NginxServer;
import dev.xaccel.testsupport.servlet.BearerAuthFilter;
import dev.xaccel.testsupport.servlet.OffloadRecorder;
import dev.xaccel.testsupport.servlet.SuiteApp;

/**
 * The delivery contract once over TLS with HTTP/2 at nginx (the shipped docs/nginx/xaccel.conf.template, its
 * {@code listen} made {@code ssl http2}, the syntax of Debian's nginx 1.22), in front of the filter in Tomcat 11: a
 * CA and a server certificate generated per run with openssl under {@code target/}, Java's HttpClient on HTTP/2
 * trusting only that CA. An offloaded file arrives byte-exact, a single and a multi range, HEAD; a conditional 304
 * (the filter's own, no hand-off); every answer negotiated HTTP/2.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class TlsHttp2IT {

    private static final AtomicInteger IDS = new AtomicInteger();

    private DeliveryStack stack;
    private NginxServer nginx;
    private HttpClient client;

    @BeforeAll
    void start() throws Exception {
        Path tls = TestPaths.freshDir("tls-http2-pki");
        Path ca = certificates(tls);
        stack = DeliveryStack.start("tls-http2", MediaFixture.create("tls-http2"), Map.of("jmxName", "none"), null,
                false);
        String template = DocsNginx.text(DocsNginx.TEMPLATE);
        String listen = "listen       127.0.0.1:${NGINX_PORT};";
        assertTrue(template.contains(listen), "the shipped template's listen line");
        template = template.replace(listen, "listen       127.0.0.1:${NGINX_PORT} ssl http2;\n"
                + "        ssl_certificate      ${TLS}/server.pem;\n"
                + "        ssl_certificate_key  ${TLS}/server.key;\n"
                + "        ssl_protocols        TLSv1.2 TLSv1.3;");
        nginx = DocsNginx.start("tls-http2", template, Map.of("TLS", tls.toString()), stack.containerPort(),
                stack.media.media.toRealPath());
        KeyStore trust = KeyStore.getInstance(KeyStore.getDefaultType());
        trust.load(null, null);
        try (InputStream in = Files.newInputStream(ca)) {
            trust.setCertificateEntry("xaccel-test-ca",
                    CertificateFactory.getInstance("X.509").generateCertificate(in));
        }
        TrustManagerFactory tmf = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        tmf.init(trust);
        SSLContext ssl = SSLContext.getInstance("TLS");
        ssl.init(null, tmf.getTrustManagers(), null);
        client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_2).sslContext(ssl)
                .connectTimeout(Duration.ofSeconds(10)).build();
    }

    @AfterAll
    void stop() {
        if (nginx != null) {
            nginx.close();
        }
        if (stack != null) {
            stack.close();
        }
    }

    /** A CA and a server certificate for 127.0.0.1 and localhost signed by it; returns the CA's certificate. */
    private static Path certificates(Path dir) throws Exception {
        Files.writeString(dir.resolve("server.ext"), "basicConstraints=CA:FALSE\nextendedKeyUsage=serverAuth\n"
                + "subjectAltName=IP:127.0.0.1,DNS:localhost\n");
        openssl(dir, "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes",
                "-keyout", "ca.key", "-out", "ca.pem", "-days", "2", "-subj", "/CN=xaccel test CA",
                "-addext", "basicConstraints=critical,CA:TRUE", "-addext", "keyUsage=critical,keyCertSign");
        openssl(dir, "req", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes",
                "-keyout", "server.key", "-out", "server.csr", "-subj", "/CN=localhost");
        openssl(dir, "x509", "-req", "-in", "server.csr", "-CA", "ca.pem", "-CAkey", "ca.key", "-CAcreateserial",
                "-out", "server.pem", "-days", "2", "-extfile", "server.ext");
        return dir.resolve("ca.pem");
    }

    private static void openssl(Path dir, String... args) throws Exception {
        List<String> command = new java.util.ArrayList<>(List.of("openssl"));
        command.addAll(Arrays.asList(args));
        Path log = dir.resolve("openssl.log");
        assertEquals(java.util.Optional.of(0), Processes.run(new ProcessBuilder(command).directory(dir.toFile()), log,
                Duration.ofSeconds(60)), "openssl " + command + ": " + Files.readString(log));
    }

    /** An exchange over HTTP/2 whose answer the application handed to nginx. */
    private HttpResponse<byte[]> send(String method, String file, String... headers) throws Exception {
        Exchange e = exchange(method, file, headers);
        assertTrue(e.answer().offloaded(), "offloaded: " + e.answer());
        return e.response();
    }

    private Exchange exchange(String method, String file, String... headers) throws Exception {
        String id = "tls-" + IDS.incrementAndGet();
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create("https://127.0.0.1:" + nginx.port()
                + SuiteApp.MAPPED_PREFIX + file)).method(method, HttpRequest.BodyPublishers.noBody())
                .header("Authorization", BearerAuthFilter.AUTHORIZATION).header("X-Request-Id", id);
        for (int i = 0; i < headers.length; i += 2) {
            b.header(headers[i], headers[i + 1]);
        }
        HttpResponse<byte[]> r = client.send(b.build(), HttpResponse.BodyHandlers.ofByteArray());
        assertEquals(HttpClient.Version.HTTP_2, r.version(), "negotiated over TLS (ALPN)");
        OffloadRecorder.Answer a = Poll.first(Duration.ofSeconds(5), () -> OffloadRecorder.answer(id))
                .orElseThrow(() -> new AssertionError("the application never saw " + id));
        return new Exchange(r, a);
    }

    private record Exchange(HttpResponse<byte[]> response, OffloadRecorder.Answer answer) {
    }

    @Test
    void anOffloadedFileArrivesByteExactOverHttp2() throws Exception {
        for (String name : List.of("small.txt", "song.mp3")) {
            HttpResponse<byte[]> r = send("GET", name);
            assertEquals(200, r.statusCode());
            assertArrayEquals(stack.media.content(name), r.body(), name);
        }
        HttpResponse<byte[]> big = send("GET", "big.bin");
        assertArrayEquals(stack.media.content("big.bin"), big.body());
    }

    @Test
    void rangesSingleAndMultiOverHttp2() throws Exception {
        byte[] all = stack.media.content("song.mp3");
        HttpResponse<byte[]> one = send("GET", "song.mp3", "Range", "bytes=100-199");
        assertEquals(206, one.statusCode());
        assertEquals("bytes 100-199/" + all.length, one.headers().firstValue("Content-Range").orElseThrow());
        assertArrayEquals(Arrays.copyOfRange(all, 100, 200), one.body());
        HttpResponse<byte[]> multi = send("GET", "song.mp3", "Range", "bytes=0-9,50-59");
        assertEquals(206, multi.statusCode());
        String type = multi.headers().firstValue("Content-Type").orElseThrow();
        assertTrue(type.startsWith("multipart/byteranges; boundary="), type);
        String body = new String(multi.body(), StandardCharsets.ISO_8859_1);
        String boundary = "--" + type.substring(type.indexOf("boundary=") + 9);
        assertEquals(3, body.split(boundary, -1).length - 1, "two parts and the closing boundary: " + body);
        assertTrue(body.contains("Content-Range: bytes 0-9/" + all.length), body);
        assertTrue(body.contains("Content-Range: bytes 50-59/" + all.length), body);
        assertTrue(body.contains(new String(Arrays.copyOfRange(all, 0, 10), StandardCharsets.ISO_8859_1)));
        assertTrue(body.contains(new String(Arrays.copyOfRange(all, 50, 60), StandardCharsets.ISO_8859_1)));
    }

    @Test
    void headAndAConditional304OverHttp2() throws Exception {
        byte[] all = stack.media.content("song.mp3");
        HttpResponse<byte[]> head = send("HEAD", "song.mp3");
        assertEquals(200, head.statusCode());
        assertEquals(Integer.toString(all.length), head.headers().firstValue("Content-Length").orElseThrow());
        assertEquals(0, head.body().length);
        String etag = send("GET", "song.mp3").headers().firstValue("ETag").orElse(null);
        assertNotNull(etag);
        // the filter decides the precondition itself (docs/front-ends.md): nginx relays its 304, no hand-off
        Exchange notModified = exchange("GET", "song.mp3", "If-None-Match", etag);
        assertEquals(304, notModified.response().statusCode());
        assertEquals(0, notModified.response().body().length);
        assertEquals(304, notModified.answer().status(), notModified.answer().toString());
        assertFalse(notModified.answer().offloaded(), notModified.answer().toString());
    }
}
