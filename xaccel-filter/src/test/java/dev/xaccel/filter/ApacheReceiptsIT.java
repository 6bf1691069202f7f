package dev.xaccel.filter;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.io.RandomAccessFile;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;

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
import dev.xaccel.testsupport.CloseAll;
import dev.xaccel.testsupport.JdkHttp;
import dev.xaccel.testsupport.Poll;
import dev.xaccel.testsupport.Processes;
import dev.xaccel.testsupport.ReceiptProbe;
import dev.xaccel.testsupport.ReceiptProbe.Counted;
import dev.xaccel.testsupport.ReceiptProbe.InFlight;
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
    static ReceiptProbe<XAccelReceipt> probe;
    static ReceiptProbe<XAccelReceipt> shortProbe;
    static XAccelFilterMXBean stats;
    static XAccelFilterMXBean shortStats;

    /** The web.xml-style listener: init-param {@code receiptListener} names it. */
    public static final class Recording implements XAccelReceiptListener {
        static final BlockingQueue<XAccelReceipt> RECEIVED = new LinkedBlockingQueue<>();

        @Override
        public void onReceipt(XAccelReceipt receipt) {
            RECEIVED.add(receipt);
        }
    }

    /** The listener of the short-timeout context (receiptTimeout=1), whose Apache is killed. */
    public static final class ShortRecording implements XAccelReceiptListener {
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
        probe = new ReceiptProbe<>(Recording.RECEIVED, ReceiptProbe.freeUdpPort());
        shortProbe = new ReceiptProbe<>(ShortRecording.RECEIVED, ReceiptProbe.freeUdpPort());
        Map<String, String> shortTimeout = params(shortProbe, ShortRecording.class);
        shortTimeout.put("receiptTimeout", "1");
        tomcat = EmbeddedTomcat.builder(TestPaths.target().resolve("apache-receipts-tomcat"))
                .webapp(app("/apache", params(probe, Recording.class)))
                .webapp(app("/apache-short", shortTimeout))
                .start();
        ApacheFrontEnd fe = new ApacheFrontEnd();
        apache = fe.startWithReceipts("receipts", tomcat.port(), media, probe.port(), "");
        sendfileApache = fe.startWithReceipts("receipts-sendfile", tomcat.port(), media, probe.port(),
                "EnableSendfile On");
        viaApache = new JdkHttp(apache.port());
        stats = ReceiptsIT.mbean("/apache");
        shortStats = ReceiptsIT.mbean("/apache-short");
    }

    static Map<String, String> params(ReceiptProbe<?> receipts, Class<?> listener) {
        Map<String, String> p = new HashMap<>();
        p.put("locations", media + "/ => /_xaccel/media/");
        p.put("mappings", "/library/ => " + media);
        p.put("headerType", "X-Sendfile");
        p.put("receipts", receipts.receipts());
        p.put("receiptListener", listener.getName());
        return p;
    }

    static WebApp app(String contextPath, Map<String, String> initParams) {
        return WebApp.at(contextPath).containerMimeMappings().xaccelFilter(initParams)
                .servlet("/declare/*", new TaggingServlet()).defaultServlet(new ChainServlet());
    }

    @AfterAll
    static void stop() throws Exception {
        CloseAll.of(apache, sendfileApache, tomcat);
    }

    @BeforeEach
    void clear() {
        probe.clear();
        shortProbe.clear();
    }

    static void assertNoIdentifier(String head) {
        assertFalse(head.toLowerCase(Locale.ROOT).contains("x-xaccel-receipt"), "the id reached the client: " + head);
    }

    @Test
    void aCompleteDownloadHasItsTagBytesAndStatusAndTheClientNeverSeesTheIdentifier() throws Exception {
        try (InFlight c = ReceiptProbe.open(apache.port(), "GET /apache/declare/?f=small.bin&tag=user-42 HTTP/1.1\r\n"
                + "Host: localhost\r\nConnection: close\r\n\r\n")) {
            assertTrue(c.head().startsWith("HTTP/1.1 200 "), c.head());
            assertNoIdentifier(c.head());
            assertArrayEquals(SMALL, c.body().readAllBytes());
        }
        XAccelReceipt receipt = probe.next();
        assertEquals(media.resolve("small.bin").toString(), receipt.file());
        assertEquals("user-42", receipt.tag());
        assertEquals(Outcome.COMPLETE, receipt.outcome());
        assertEquals(ServedBy.FRONT_END, receipt.servedBy());
        assertEquals(200, receipt.status());
        assertEquals(SMALL.length, receipt.bytes());
        assertNull(receipt.ranges());
        assertTrue(receipt.duration().toNanos() > 0, receipt.duration().toString());
        probe.assertNoMore();
    }

    @Test
    void aRangeAndAMultiRangeAreReceiptedWithWhatApacheSent() throws Exception {
        HttpResponse<byte[]> one = viaApache.get("/apache/library/small.bin", "Range", "bytes=100-199");
        assertEquals(206, one.statusCode());
        assertTrue(one.headers().firstValue("X-Xaccel-Receipt").isEmpty(), one.headers().toString());
        XAccelReceipt r1 = probe.next();
        assertTrue(r1.file().endsWith("/library/small.bin"), r1.file());
        assertEquals(206, r1.status());
        assertEquals(100, r1.bytes());
        assertEquals("bytes=100-199", r1.ranges());
        assertEquals(Outcome.COMPLETE, r1.outcome());

        HttpResponse<byte[]> two = viaApache.get("/apache/library/small.bin", "Range", "bytes=0-9,1000-1099");
        assertEquals(206, two.statusCode());
        XAccelReceipt r2 = probe.next();
        assertEquals(206, r2.status());
        assertEquals(two.body().length, r2.bytes(), "the multipart body as the client read it");
        assertTrue(r2.bytes() > 110, "boundaries included: " + r2.bytes());
        assertEquals("bytes=0-9,1000-1099", r2.ranges());
        probe.assertNoMore();
    }

    @ParameterizedTest
    @ValueSource(booleans = {false, true})
    void aClientThatLeavesAfterOneMebibyteIsAbortedWithFewerBytes(boolean sendfile) throws Exception {
        ApacheServer server = sendfile ? sendfileApache : apache;
        ReceiptProbe.Left left = ReceiptProbe.readAndLeave(server.port(),
                "GET /apache/library/big.bin HTTP/1.1\r\nHost: localhost\r\n\r\n", MIB);
        assertNoIdentifier(left.head());
        long read = left.read();
        XAccelReceipt receipt = probe.next();
        assertEquals(Outcome.ABORTED, receipt.outcome());
        assertEquals(200, receipt.status());
        // Apache's %B would say 64 MiB here: the line's %O, what reached the socket, is taken
        assertTrue(receipt.bytes() >= read && receipt.bytes() < BIG / 2, "bytes " + receipt.bytes() + ", read " + read);
        probe.assertNoMore();
    }

    @Test
    void aHeadIsCompleteWithNoBytes() throws Exception {
        HttpResponse<byte[]> r = viaApache.send("HEAD", "/apache/library/small.bin");
        assertEquals(200, r.statusCode());
        assertEquals(Long.toString(SMALL.length), r.headers().firstValue("Content-Length").orElse(null));
        assertTrue(r.headers().firstValue("X-Xaccel-Receipt").isEmpty(), r.headers().toString());
        XAccelReceipt receipt = probe.next();
        assertEquals(Outcome.COMPLETE, receipt.outcome());
        assertEquals(ServedBy.FRONT_END, receipt.servedBy());
        assertEquals(0, receipt.bytes(), "Apache's %B says the file's size for a HEAD");
        probe.assertNoMore();
    }

    @Test
    void answersWithoutAnIdentifierLogNoLine() throws Exception {
        long malformed = stats.getReceiptLinesMalformed();
        String etag = viaApache.get("/apache/library/small.bin").headers().firstValue("ETag").orElseThrow();
        assertEquals(ServedBy.FRONT_END, probe.next().servedBy());
        HttpResponse<byte[]> notModified = viaApache.get("/apache/library/small.bin", "If-None-Match", etag);
        assertEquals(304, notModified.statusCode());
        XAccelReceipt r304 = probe.next();
        assertEquals(ServedBy.FILTER, r304.servedBy(), "the filter's own answer");
        assertEquals(404, viaApache.get("/apache/library/none.bin").statusCode());
        assertEquals(200, viaApache.get("/apache/other").statusCode());
        probe.assertNoMore();
        // the include's condition: a line for them would hold "-" for the id, a malformed line
        Thread.sleep(500);
        assertEquals(malformed, stats.getReceiptLinesMalformed());
    }

    @Test
    void twoThousandOffloadsAtThirtyTwoAtOnceGetTwoThousandReceiptsThroughTheLogger() throws Exception {
        int total = 2_000;
        int concurrency = 32;
        ReceiptsIT.assertEveryRangedGetReceipted(probe, apache.url("/apache/library/small.bin"), total, concurrency,
                stats);
    }

    @Test
    void forgedReplayedAndMalformedApacheLinesAreCountedAndIgnored() throws Exception {
        assertEquals(200, viaApache.get("/apache/library/small.bin").statusCode());
        XAccelReceipt real = probe.next();
        String format = "<13>Dec  5 06:00:00 vm xaccel: xr1 %s 200 20000 c=+ 100us o=20200 m=GET r=-";
        probe.assertCountedAndIgnored(stats::getReceiptsComplete,
                new Counted(String.format(format, "0123456789abcdef0123456789abcdef"),
                        stats::getReceiptLinesForged, "an id this filter never issued"),
                new Counted(String.format(format, real.id()), stats::getReceiptLinesStale, "an id already receipted"),
                new Counted("<13>Dec  5 06:00:00 vm xaccel: xr1 - 200 20000 c=+ 100us o=20200 m=GET r=-",
                        stats::getReceiptLinesMalformed, "malformed"));
    }

    /**
     * {@code apachectl -k graceful} is SIGUSR1 to the parent: new children take new connections, the old ones finish
     * what they are sending, and the piped logger is restarted. The download in flight still gets its one receipt.
     */
    @Test
    void aDownloadInFlightAcrossAGracefulRestartIsReceiptedOnce() throws Exception {
        try (InFlight c = ReceiptProbe.open(apache.port(), "GET /apache/declare/?f=big.bin&tag=g HTTP/1.1\r\n"
                + "Host: localhost\r\nConnection: close\r\n\r\n")) {
            assertTrue(c.head().startsWith("HTTP/1.1 200 "), c.head());
            InputStream in = c.body();
            byte[] buf = new byte[64 * 1024];
            long read = in.read(buf);
            // the child is sending 64 MiB to a client that is not reading: in flight when Apache restarts
            java.util.Set<Long> old = apache.workerPids();
            assertTrue(Processes.signal(apache.pid(), "USR1"), "graceful restart signal");
            assertTrue(Poll.until(Duration.ofSeconds(15),
                    () -> apache.workerPids().stream().anyMatch(p -> !old.contains(p))),
                    "no new Apache generation after the graceful restart: " + apache.errorLog());
            int n;
            while ((n = in.read(buf)) > 0) {
                read += n;
            }
            assertEquals(BIG, read, "the old child finished the download");
        }
        XAccelReceipt receipt = probe.next();
        assertEquals("g", receipt.tag());
        assertEquals(Outcome.COMPLETE, receipt.outcome());
        assertEquals(BIG, receipt.bytes());
        probe.assertNoMore();
        assertEquals(200, viaApache.get("/apache/library/small.bin").statusCode(), "the new generation serves");
        assertEquals(SMALL.length, probe.next().bytes());
    }

    /**
     * Apache killed (SIGKILL, its children and piped logger too) while it sends: no line ever comes, and the filter
     * reports the offload unreceipted after its bound ({@code receiptTimeout=1}).
     */
    @Test
    void anApacheKilledMidDownloadLeavesAnUnreceiptedReceiptAfterTheBound() throws Exception {
        try (ApacheServer doomed = new ApacheFrontEnd().startWithReceipts("receipts-killed", tomcat.port(), media,
                shortProbe.port(), "");
                InFlight c = ReceiptProbe.open(doomed.port(),
                        "GET /apache-short/declare/?f=big.bin&tag=k HTTP/1.1\r\nHost: localhost\r\n\r\n")) {
            assertTrue(c.head().startsWith("HTTP/1.1 200 "), c.head());
            assertTrue(c.body().read(new byte[64 * 1024]) > 0);
            // the parent first (else it starts new children and a new logger), then the children and the logger
            java.util.Set<Long> children = doomed.workerPids();
            ProcessHandle.of(doomed.pid()).ifPresent(ProcessHandle::destroyForcibly);
            for (long pid : children) {
                ProcessHandle.of(pid).ifPresent(ProcessHandle::destroyForcibly);
            }
            XAccelReceipt r = shortProbe.next();
            assertEquals(Outcome.UNRECEIPTED, r.outcome());
            assertEquals("k", r.tag());
            assertEquals(-1, r.bytes());
            assertTrue(r.duration().toMillis() >= 1000, r.duration().toString());
            shortProbe.assertNoMore();
            assertEquals(shortStats.getOffloaded(), shortStats.getReceiptsUnreceipted());
            assertEquals(0, shortStats.getReceiptsComplete() + shortStats.getReceiptsAborted());
        }
    }
}
