package dev.xaccel.filter;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.RandomAccessFile;
import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetAddress;
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
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import dev.xaccel.filter.XAccelReceipt.Outcome;
import dev.xaccel.filter.XAccelReceipt.ServedBy;
import dev.xaccel.testsupport.JdkHttp;
import dev.xaccel.testsupport.TestPaths;
import dev.xaccel.testsupport.apache.ApacheFrontEnd;
import dev.xaccel.testsupport.apache.ApacheServer;
import dev.xaccel.testsupport.media.MediaFixture;
import dev.xaccel.testsupport.servlet.WebApp;
import dev.xaccel.testsupport.tomcat.EmbeddedTomcat;

/**
 * Delivery receipts behind real Apache httpd 2.4 + mod_xsendfile: docs/apache/xaccel.conf with its receipts
 * include (docs/apache/xaccel-receipts.conf) switched on, the filter in real Tomcat with {@code headerType=X-Sendfile}
 * and {@code receipts=127.0.0.1:PORT}. The lines travel through the include's piped logger. A second Apache, the
 * same config with {@code EnableSendfile On}, shows the aborted download's bytes do not depend on it.
 */
class ApacheReceiptsIT {

    static final long BIG = 64L * 1024 * 1024;
    static final int MIB = 1024 * 1024;
    static final byte[] SMALL = MediaFixture.randomBytes(new Random(4), 20_000);

    static Path media;
    static EmbeddedTomcat tomcat;
    static ApacheServer apache;
    static ApacheServer sendfileApache;
    static JdkHttp viaApache;
    static int receiptPort;
    static XAccelFilterMXBean stats;

    /** The web.xml-style listener: init-param {@code receiptListener} names it. */
    public static final class Recording implements XAccelReceiptListener {
        static final BlockingQueue<XAccelReceipt> RECEIVED = new LinkedBlockingQueue<>();

        @Override
        public void onReceipt(XAccelReceipt receipt) {
            RECEIVED.add(receipt);
        }
    }

    /** Declares {@code ?f=} with {@code ?tag=}. */
    static final class TaggingServlet extends HttpServlet {
        private static final long serialVersionUID = 1L;

        @Override
        protected void doGet(HttpServletRequest req, HttpServletResponse resp) throws IOException {
            XAccelFile f = XAccelFile.of(media.resolve(req.getParameter("f"))).tag(req.getParameter("tag"));
            XAccel.sendFile(req, resp, f);
        }
    }

    @BeforeAll
    static void start() throws Exception {
        media = Files.createDirectories(TestPaths.freshDir("apache-receipts-data").resolve("media")).toRealPath();
        Files.write(media.resolve("small.bin"), SMALL);
        try (RandomAccessFile f = new RandomAccessFile(media.resolve("big.bin").toFile(), "rw")) {
            f.setLength(BIG); // sparse: 64 MiB of zeros without writing them
        }
        receiptPort = freeUdpPort();
        Map<String, String> p = new HashMap<>();
        p.put("locations", media + "/ => /_xaccel/media/");
        p.put("mappings", "/library/ => " + media);
        p.put("headerType", "X-Sendfile");
        p.put("receipts", "127.0.0.1:" + receiptPort);
        p.put("receiptListener", Recording.class.getName());
        tomcat = EmbeddedTomcat.builder(TestPaths.target().resolve("apache-receipts-tomcat"))
                .webapp(WebApp.at("/apache").containerMimeMappings().xaccelFilter(p)
                        .servlet("/declare/*", new TaggingServlet()).defaultServlet(new ChainServlet()))
                .start();
        ApacheFrontEnd fe = new ApacheFrontEnd();
        apache = fe.startWithReceipts("receipts", tomcat.port(), media, receiptPort, "");
        sendfileApache = fe.startWithReceipts("receipts-sendfile", tomcat.port(), media, receiptPort,
                "EnableSendfile On");
        viaApache = new JdkHttp(apache.port());
        javax.management.ObjectName name = new javax.management.ObjectName(
                "dev.xaccel:type=XAccelFilter,context=/apache,name=xaccel");
        stats = javax.management.JMX.newMXBeanProxy(java.lang.management.ManagementFactory.getPlatformMBeanServer(),
                name, XAccelFilterMXBean.class);
    }

    static int freeUdpPort() throws IOException {
        try (DatagramSocket s = new DatagramSocket(0, InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        }
    }

    @AfterAll
    static void stop() throws Exception {
        for (AutoCloseable c : new AutoCloseable[] {apache, sendfileApache, tomcat}) {
            if (c != null) {
                c.close();
            }
        }
    }

    @BeforeEach
    void clear() {
        Recording.RECEIVED.clear();
    }

    static XAccelReceipt next() throws InterruptedException {
        XAccelReceipt r = Recording.RECEIVED.poll(20, TimeUnit.SECONDS);
        assertNotNull(r, "no receipt within 20 s");
        return r;
    }

    static void assertNoMore() throws InterruptedException {
        XAccelReceipt r = Recording.RECEIVED.poll(500, TimeUnit.MILLISECONDS);
        assertNull(r, "one receipt per delivery, but also " + r);
    }

    /** The response head as the client got it, read byte by byte up to its empty line. */
    static String head(InputStream in) throws IOException {
        ByteArrayOutputStream head = new ByteArrayOutputStream();
        int b;
        while ((b = in.read()) >= 0) {
            head.write(b);
            byte[] h = head.toByteArray();
            int n = h.length;
            if (n >= 4 && h[n - 4] == '\r' && h[n - 3] == '\n' && h[n - 2] == '\r' && h[n - 1] == '\n') {
                break;
            }
        }
        return head.toString(StandardCharsets.ISO_8859_1);
    }

    static void assertNoIdentifier(String head) {
        assertFalse(head.toLowerCase(Locale.ROOT).contains("x-xaccel-receipt"), "the id reached the client: " + head);
    }

    @Test
    void aCompleteDownloadHasItsTagBytesAndStatusAndTheClientNeverSeesTheIdentifier() throws Exception {
        try (Socket c = new Socket(InetAddress.getLoopbackAddress(), apache.port())) {
            c.setSoTimeout(15_000);
            c.getOutputStream().write(("GET /apache/declare/?f=small.bin&tag=user-42 HTTP/1.1\r\nHost: localhost\r\n"
                    + "Connection: close\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
            InputStream in = c.getInputStream();
            String head = head(in);
            assertTrue(head.startsWith("HTTP/1.1 200 "), head);
            assertNoIdentifier(head);
            assertArrayEquals(SMALL, in.readAllBytes());
        }
        XAccelReceipt receipt = next();
        assertEquals(media.resolve("small.bin").toString(), receipt.file());
        assertEquals("user-42", receipt.tag());
        assertEquals(Outcome.COMPLETE, receipt.outcome());
        assertEquals(ServedBy.FRONT_END, receipt.servedBy());
        assertEquals(200, receipt.status());
        assertEquals(SMALL.length, receipt.bytes());
        assertNull(receipt.ranges());
        assertTrue(receipt.duration().toNanos() > 0, receipt.duration().toString());
        assertNoMore();
    }

    @Test
    void aRangeAndAMultiRangeAreReceiptedWithWhatApacheSent() throws Exception {
        HttpResponse<byte[]> one = viaApache.get("/apache/library/small.bin", "Range", "bytes=100-199");
        assertEquals(206, one.statusCode());
        assertTrue(one.headers().firstValue("X-Xaccel-Receipt").isEmpty(), one.headers().toString());
        XAccelReceipt r1 = next();
        assertTrue(r1.file().endsWith("/library/small.bin"), r1.file());
        assertEquals(206, r1.status());
        assertEquals(100, r1.bytes());
        assertEquals("bytes=100-199", r1.ranges());
        assertEquals(Outcome.COMPLETE, r1.outcome());

        HttpResponse<byte[]> two = viaApache.get("/apache/library/small.bin", "Range", "bytes=0-9,1000-1099");
        assertEquals(206, two.statusCode());
        XAccelReceipt r2 = next();
        assertEquals(206, r2.status());
        assertEquals(two.body().length, r2.bytes(), "the multipart body as the client read it");
        assertTrue(r2.bytes() > 110, "boundaries included: " + r2.bytes());
        assertEquals("bytes=0-9,1000-1099", r2.ranges());
        assertNoMore();
    }

    @ParameterizedTest
    @ValueSource(booleans = {false, true})
    void aClientThatLeavesAfterOneMebibyteIsAbortedWithFewerBytes(boolean sendfile) throws Exception {
        ApacheServer server = sendfile ? sendfileApache : apache;
        long read = 0;
        try (Socket c = new Socket(InetAddress.getLoopbackAddress(), server.port())) {
            c.setSoTimeout(15_000);
            c.getOutputStream().write("GET /apache/library/big.bin HTTP/1.1\r\nHost: localhost\r\n\r\n"
                    .getBytes(StandardCharsets.US_ASCII));
            InputStream in = c.getInputStream();
            assertNoIdentifier(head(in));
            byte[] buf = new byte[64 * 1024];
            while (read < MIB) {
                int n = in.read(buf);
                assertTrue(n > 0, "Apache closed early");
                read += n;
            }
        }
        XAccelReceipt receipt = next();
        assertEquals(Outcome.ABORTED, receipt.outcome());
        assertEquals(200, receipt.status());
        // Apache's %B would say 64 MiB here: the line's %O, what reached the socket, is taken
        assertTrue(receipt.bytes() >= read && receipt.bytes() < BIG / 2, "bytes " + receipt.bytes() + ", read " + read);
        assertNoMore();
    }

    @Test
    void aHeadIsCompleteWithNoBytes() throws Exception {
        HttpResponse<byte[]> r = viaApache.send("HEAD", "/apache/library/small.bin");
        assertEquals(200, r.statusCode());
        assertEquals(Long.toString(SMALL.length), r.headers().firstValue("Content-Length").orElse(null));
        assertTrue(r.headers().firstValue("X-Xaccel-Receipt").isEmpty(), r.headers().toString());
        XAccelReceipt receipt = next();
        assertEquals(Outcome.COMPLETE, receipt.outcome());
        assertEquals(ServedBy.FRONT_END, receipt.servedBy());
        assertEquals(0, receipt.bytes(), "Apache's %B says the file's size for a HEAD");
        assertNoMore();
    }

    @Test
    void answersWithoutAnIdentifierLogNoLine() throws Exception {
        long malformed = stats.getReceiptLinesMalformed();
        String etag = viaApache.get("/apache/library/small.bin").headers().firstValue("ETag").orElseThrow();
        assertEquals(ServedBy.FRONT_END, next().servedBy());
        HttpResponse<byte[]> notModified = viaApache.get("/apache/library/small.bin", "If-None-Match", etag);
        assertEquals(304, notModified.statusCode());
        XAccelReceipt r304 = next();
        assertEquals(ServedBy.FILTER, r304.servedBy(), "the filter's own answer");
        assertEquals(404, viaApache.get("/apache/library/none.bin").statusCode());
        assertEquals(200, viaApache.get("/apache/other").statusCode());
        assertNoMore();
        // the include's condition: a line for them would hold "-" for the id, a malformed line
        Thread.sleep(500);
        assertEquals(malformed, stats.getReceiptLinesMalformed());
    }

    @Test
    void twoThousandOffloadsAtThirtyTwoAtOnceGetTwoThousandReceiptsThroughTheLogger() throws Exception {
        int total = 2_000;
        int concurrency = 32;
        long before = stats.getReceiptBytesFrontEnd();
        HttpClient client = HttpClient.newBuilder().executor(Executors.newFixedThreadPool(4)).build();
        ExecutorService pool = Executors.newFixedThreadPool(concurrency);
        AtomicLong read = new AtomicLong();
        AtomicLong next = new AtomicLong();
        List<Future<?>> workers = new ArrayList<>();
        for (int w = 0; w < concurrency; w++) {
            workers.add(pool.submit(() -> {
                long i;
                while ((i = next.getAndIncrement()) < total) {
                    // sizes differ by request: the sum checks every count, not just their number
                    HttpRequest req = HttpRequest.newBuilder(URI.create(apache.url("/apache/library/small.bin")))
                            .header("Range", "bytes=0-" + (i % 10_000)).timeout(Duration.ofSeconds(60)).build();
                    HttpResponse<byte[]> r = client.send(req, HttpResponse.BodyHandlers.ofByteArray());
                    assertEquals(206, r.statusCode());
                    read.addAndGet(r.body().length);
                }
                return null;
            }));
        }
        for (Future<?> f : workers) {
            f.get(10, TimeUnit.MINUTES);
        }
        pool.shutdown();
        long sum = 0;
        for (int i = 0; i < total; i++) {
            XAccelReceipt r = next();
            assertEquals(Outcome.COMPLETE, r.outcome());
            sum += r.bytes();
        }
        assertNoMore();
        assertEquals(read.get(), sum, "bytes in receipts = bytes the clients read");
        assertEquals(read.get(), stats.getReceiptBytesFrontEnd() - before);
    }

    @Test
    void forgedReplayedAndMalformedApacheLinesAreCountedAndIgnored() throws Exception {
        assertEquals(200, viaApache.get("/apache/library/small.bin").statusCode());
        XAccelReceipt real = next();
        long forged = stats.getReceiptLinesForged();
        long stale = stats.getReceiptLinesStale();
        long malformed = stats.getReceiptLinesMalformed();
        long complete = stats.getReceiptsComplete();
        String format = "<13>Dec  5 06:00:00 vm xaccel: xr1 %s 200 20000 c=+ 100us o=20200 m=GET r=-";
        try (DatagramSocket s = new DatagramSocket()) {
            send(s, String.format(format, "0123456789abcdef0123456789abcdef"));
            send(s, String.format(format, real.id()));
            send(s, "<13>Dec  5 06:00:00 vm xaccel: xr1 - 200 20000 c=+ 100us o=20200 m=GET r=-");
        }
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (System.nanoTime() < deadline && (stats.getReceiptLinesForged() == forged
                || stats.getReceiptLinesStale() == stale || stats.getReceiptLinesMalformed() == malformed)) {
            Thread.sleep(20);
        }
        assertEquals(forged + 1, stats.getReceiptLinesForged(), "an id this filter never issued");
        assertEquals(stale + 1, stats.getReceiptLinesStale(), "an id already receipted");
        assertEquals(malformed + 1, stats.getReceiptLinesMalformed());
        assertEquals(complete, stats.getReceiptsComplete());
        assertNoMore();
    }

    static void send(DatagramSocket s, String line) throws IOException {
        byte[] b = line.getBytes(StandardCharsets.US_ASCII);
        s.send(new DatagramPacket(b, b.length, InetAddress.getLoopbackAddress(), receiptPort));
    }
}
