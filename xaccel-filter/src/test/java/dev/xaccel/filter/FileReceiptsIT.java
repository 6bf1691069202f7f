package dev.xaccel.filter;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Random;
import java.util.UUID;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import dev.xaccel.filter.XAccelReceipt.Outcome;
import dev.xaccel.filter.XAccelReceipt.ServedBy;
import dev.xaccel.testsupport.CloseAll;
import dev.xaccel.testsupport.JdkHttp;
import dev.xaccel.testsupport.ReceiptProbe;
import dev.xaccel.testsupport.ReceiptProbe.Counted;
import dev.xaccel.testsupport.ReceiptProbe.InFlight;
import dev.xaccel.testsupport.media.MediaFixture;
import dev.xaccel.testsupport.nginx.DocsNginx;
import dev.xaccel.testsupport.nginx.NginxServer;
import dev.xaccel.testsupport.servlet.WebApp;
import dev.xaccel.testsupport.tomcat.EmbeddedTomcat;

/**
 * Delivery receipts through nginx's buffered log file ({@code receipts=<file>},
 * docs/nginx/xaccel-receipts-file.conf.template and xaccel-signed-receipts-file.conf.template, rendered as their
 * comments say): the filter in real Tomcat, configured by init-params as web.xml would, started before nginx has made
 * the file. One receipt per delivery, whole, ranged and aborted; across {@code nginx -s reload}; across a rotation
 * as logrotate does it (rename, {@code nginx -s reopen}, the old file removed); 10,000 offloads at c=64; forged,
 * replayed and malformed lines appended to the file counted and ignored; a signed link's fetch.
 */
class FileReceiptsIT {

    static final long BIG = 64L * 1024 * 1024;
    static final byte[] SMALL = MediaFixture.randomBytes(new Random(34), 20_000);
    static final String SECRET = "it-" + UUID.randomUUID();

    @TempDir
    static Path tmp;
    static Path media;
    static Path log;
    static EmbeddedTomcat tomcat;
    static NginxServer nginx;
    static NginxServer signedNginx;
    static JdkHttp viaNginx;
    static ReceiptProbe<XAccelReceipt> probe;
    static ReceiptProbe<XAccelReceipt> signedProbe;
    static XAccelFilterMXBean stats;

    /** The web.xml-style listener: init-param {@code receiptListener} names it. */
    public static final class Recording implements XAccelReceiptListener {
        static final BlockingQueue<XAccelReceipt> RECEIVED = new LinkedBlockingQueue<>();

        @Override
        public void onReceipt(XAccelReceipt receipt) {
            RECEIVED.add(receipt);
        }
    }

    /** The signed links' context's listener. */
    public static final class SignedRecording implements XAccelReceiptListener {
        static final BlockingQueue<XAccelReceipt> RECEIVED = new LinkedBlockingQueue<>();

        @Override
        public void onReceipt(XAccelReceipt receipt) {
            RECEIVED.add(receipt);
        }
    }

    @BeforeAll
    static void start() throws Exception {
        media = Files.createDirectories(tmp.resolve("media"));
        Files.write(media.resolve("small.bin"), SMALL);
        try (java.io.RandomAccessFile f = new java.io.RandomAccessFile(media.resolve("big.bin").toFile(), "rw")) {
            f.setLength(BIG); // sparse: 64 MiB of zeros without writing them
        }
        Path logs = Files.createDirectories(tmp.resolve("logs"));
        log = logs.resolve("xaccel-receipts.log");
        Path signedLog = logs.resolve("xaccel-signed-receipts.log");
        probe = new ReceiptProbe<>(Recording.RECEIVED, log);
        signedProbe = new ReceiptProbe<>(SignedRecording.RECEIVED, signedLog);

        Map<String, String> p = new HashMap<>();
        p.put("locations", media + " => /_xaccel/media/");
        p.put("mappings", "/library/ => " + media);
        p.put("receipts", probe.receipts());
        p.put("receiptListener", Recording.class.getName());
        Map<String, String> signed = new HashMap<>();
        signed.put("locations", media + " => /_xaccel/media/");
        signed.put("receipts", signedProbe.receipts());
        signed.put("receiptListener", SignedRecording.class.getName());
        signed.put("signedLinkSecret", SECRET);
        signed.put("signedLinkPrefix", "/s/media/");
        tomcat = EmbeddedTomcat.builder(tmp.resolve("tomcat"))
                .webapp(WebApp.at("").containerMimeMappings().xaccelFilter(p).defaultServlet(new ChainServlet()))
                .webapp(WebApp.at("/signed").containerMimeMappings().xaccelFilter(signed)
                        .defaultServlet(new ChainServlet()))
                .start();
        // the filter reads a file nginx has not made yet: read from its beginning once it is there
        nginx = DocsNginx.startWithFileReceipts("file-receipts", tomcat.port(), media, log);
        signedNginx = DocsNginx.startSignedWithFileReceipts("file-signed-receipts", tomcat.port(), media, signedLog,
                Map.of("LINK_SECRET", SECRET));
        viaNginx = new JdkHttp(nginx.port());
        stats = ReceiptsIT.mbean("/");
    }

    @AfterAll
    static void stop() {
        CloseAll.of(nginx, signedNginx, tomcat);
    }

    @BeforeEach
    void clear() {
        probe.clear();
        signedProbe.clear();
    }

    @Test
    void aWholeDownloadAndARangeAreReceiptedWithWhatNginxSent() throws Exception {
        HttpResponse<byte[]> r = viaNginx.get("/library/small.bin");
        assertEquals(200, r.statusCode());
        assertArrayEquals(SMALL, r.body());
        assertTrue(r.headers().firstValue("X-Xaccel-Receipt").isEmpty(), "the identifier never reaches the client");
        XAccelReceipt whole = probe.next();
        assertEquals("/library/small.bin", whole.file());
        assertEquals(Outcome.COMPLETE, whole.outcome());
        assertEquals(ServedBy.FRONT_END, whole.servedBy());
        assertEquals(200, whole.status());
        assertEquals(SMALL.length, whole.bytes());

        HttpResponse<byte[]> two = viaNginx.get("/library/small.bin", "Range", "bytes=0-9,1000-1099");
        assertEquals(206, two.statusCode());
        XAccelReceipt ranged = probe.next();
        assertEquals(206, ranged.status());
        assertEquals(two.body().length, ranged.bytes(), "the multipart body as the client read it");
        assertEquals("bytes=0-9,1000-1099", ranged.ranges());
        probe.assertNoMore();
    }

    @Test
    void aClientThatLeavesAfterOneMebibyteIsAborted() throws Exception {
        ReceiptProbe.readAndLeave(nginx.port(), "GET /library/big.bin HTTP/1.1\r\nHost: localhost\r\n\r\n",
                1024 * 1024);
        XAccelReceipt receipt = probe.next();
        assertEquals(Outcome.ABORTED, receipt.outcome());
        assertEquals(200, receipt.status());
        assertTrue(receipt.bytes() < BIG, "bytes " + receipt.bytes());
        probe.assertNoMore();
    }

    @Test
    void aDownloadInFlightAcrossAReloadIsReceiptedWhole() throws Exception {
        try (InFlight c = ReceiptProbe.open(nginx.port(),
                "GET /library/big.bin HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n")) {
            assertTrue(c.head().startsWith("HTTP/1.1 200"), c.head());
            // the client has not read the body: nginx is still sending it while it reloads
            nginx.reload();
            assertEquals(BIG, c.body().transferTo(java.io.OutputStream.nullOutputStream()));
        }
        XAccelReceipt receipt = probe.next();
        assertEquals(Outcome.COMPLETE, receipt.outcome());
        assertEquals(BIG, receipt.bytes());
        probe.assertNoMore();
    }

    @Test
    void noLineIsLostAcrossARotationAsLogrotateDoesIt() throws Exception {
        assertEquals(200, viaNginx.get("/library/small.bin").statusCode());
        probe.next();
        // logrotate: rename; nginx writes on to the renamed file until it reopens
        Path rotated = log.resolveSibling(log.getFileName() + ".1");
        Files.move(log, rotated);
        for (int i = 0; i < 3; i++) {
            assertEquals(200, viaNginx.get("/library/small.bin").statusCode());
        }
        for (int i = 0; i < 3; i++) {
            assertEquals(Outcome.COMPLETE, probe.next().outcome());
        }
        // postrotate: nginx -s reopen makes a new file; the old one is compressed and removed
        nginx.reopen();
        assertTrue(dev.xaccel.testsupport.Poll.until(Duration.ofSeconds(10), () -> Files.exists(log)),
                "nginx made no new file");
        Files.delete(rotated);
        for (int i = 0; i < 3; i++) {
            assertEquals(200, viaNginx.get("/library/small.bin").statusCode());
        }
        for (int i = 0; i < 3; i++) {
            assertEquals(Outcome.COMPLETE, probe.next().outcome());
        }
        probe.assertNoMore();
        assertTrue(Files.size(log) > 0, "the last three lines went to the new file");
    }

    @Test
    void tenThousandOffloadsAtSixtyFourAtOnceGetTenThousandReceipts() throws Exception {
        int total = 10_000;
        ReceiptsIT.assertEveryRangedGetReceipted(probe, nginx.url("/library/small.bin"), total, 64, stats);
    }

    @Test
    void forgedReplayedAndMalformedLinesInTheFileAreCountedAndIgnored() throws Exception {
        assertEquals(200, viaNginx.get("/library/small.bin").statusCode());
        XAccelReceipt real = probe.next();
        String format = "xr1 %s 200 20000 c=OK 0.001 r=-";
        probe.assertCountedAndIgnored(stats::getReceiptsComplete,
                new Counted(String.format(format, "0123456789abcdef0123456789abcdef"),
                        stats::getReceiptLinesForged, "an id this filter never issued"),
                new Counted(String.format(format, real.id()), stats::getReceiptLinesStale, "an id already receipted"),
                new Counted("xr1 not-an-id 200 1 c=OK 0.001 r=-", stats::getReceiptLinesMalformed, "malformed"));
    }

    @Test
    void aSignedLinksFetchIsReceiptedThroughItsFile() throws Exception {
        SignedLinks links = SignedLinks.create(SECRET, "/s/media/", Duration.ofSeconds(600));
        HttpResponse<byte[]> r = new JdkHttp(signedNginx.port()).get(links.sign("small.bin"), "Range",
                "bytes=100-199");
        assertEquals(206, r.statusCode());
        XAccelReceipt receipt = signedProbe.next();
        assertEquals("s/media/small.bin", receipt.file());
        assertEquals(XAccelReceipt.SIGNED_LINK_TAG, receipt.tag());
        assertEquals(206, receipt.status());
        assertEquals(100, receipt.bytes());
        assertEquals(Outcome.COMPLETE, receipt.outcome());
        signedProbe.assertNoMore();
    }
}
