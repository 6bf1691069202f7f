package dev.xaccel.filter;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
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
import dev.xaccel.testsupport.media.MediaFixture;
import dev.xaccel.testsupport.nginx.DocsNginx;
import dev.xaccel.testsupport.nginx.NginxServer;
import dev.xaccel.testsupport.servlet.WebApp;
import dev.xaccel.testsupport.tomcat.EmbeddedTomcat;

/**
 * Receipts of signed links end to end: nginx from docs/nginx/xaccel-signed-links.conf.template with its receipt
 * line switched on (xaccel-signed-receipts.conf.template) serves the links alone, and the filter in real Tomcat,
 * holding the same secret, turns each line into a receipt: a whole fetch, a range, an aborted fetch; an expired or
 * badly signed link sends nothing; a line for a link the secret did not sign counts forged.
 */
class SignedLinkReceiptsIT {

    static final String SECRET = "it-" + UUID.randomUUID() + "-" + UUID.randomUUID();
    static final long BIG = 64L * 1024 * 1024;
    static final byte[] SMALL = MediaFixture.randomBytes(new Random(33), 20_000);
    /** Escaped by nginx in its log line (a space stays, é becomes \xC3\xA9, " becomes \x22). */
    static final String AWKWARD = "Épisode \"1\" 100%.bin";

    @TempDir
    static Path tmp;
    static Path media;
    static EmbeddedTomcat tomcat;
    static NginxServer nginx;
    static JdkHttp viaNginx;
    static ReceiptProbe<XAccelReceipt> probe;
    static XAccelFilterMXBean stats;
    static SignedLinks links;

    /** The web.xml-style listener: init-param {@code receiptListener} names it. */
    public static final class Recording implements XAccelReceiptListener {
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
        Files.write(media.resolve(AWKWARD), SMALL);
        try (java.io.RandomAccessFile f = new java.io.RandomAccessFile(media.resolve("big.bin").toFile(), "rw")) {
            f.setLength(BIG); // sparse: 64 MiB of zeros without writing them
        }
        probe = new ReceiptProbe<>(Recording.RECEIVED, ReceiptProbe.freeUdpPort());
        Map<String, String> p = new HashMap<>();
        p.put("locations", media + " => /_xaccel/media/");
        p.put("receipts", probe.receipts());
        p.put("receiptListener", Recording.class.getName());
        p.put("signedLinkSecret", SECRET);
        p.put("signedLinkPrefix", "/s/media/");
        p.put("signedLinkTtl", "600");
        tomcat = EmbeddedTomcat.builder(tmp.resolve("tomcat"))
                .webapp(WebApp.at("").containerMimeMappings().xaccelFilter(p).defaultServlet(new ChainServlet()))
                .start();
        nginx = DocsNginx.startSignedWithReceipts("signed-receipts", tomcat.port(), media, probe.port(),
                Map.of("LINK_SECRET", SECRET));
        viaNginx = new JdkHttp(nginx.port());
        stats = ReceiptsIT.mbean("/");
        links = SignedLinks.create(SECRET, "/s/media/", Duration.ofSeconds(600));
    }

    @AfterAll
    static void stop() {
        CloseAll.of(nginx, tomcat);
    }

    @BeforeEach
    void clear() {
        probe.clear();
    }

    @Test
    void aWholeFetchIsReceiptedWithThePathAsSignedEachTime() throws Exception {
        String link = links.sign(AWKWARD);
        for (int i = 0; i < 2; i++) {
            HttpResponse<byte[]> r = viaNginx.get(link);
            assertEquals(200, r.statusCode());
            assertArrayEquals(SMALL, r.body());
            XAccelReceipt receipt = probe.next();
            assertEquals("s/media/" + AWKWARD, receipt.file(), "relative, as the link names it");
            assertEquals(XAccelReceipt.SIGNED_LINK_TAG, receipt.tag());
            assertEquals(Outcome.COMPLETE, receipt.outcome());
            assertEquals(ServedBy.FRONT_END, receipt.servedBy());
            assertEquals(200, receipt.status());
            assertEquals(SMALL.length, receipt.bytes());
            assertNull(receipt.ranges());
            assertTrue(receipt.id().matches("[0-9a-f]{32}"), receipt.id());
        }
        probe.assertNoMore();
    }

    @Test
    void aRangeIsReceiptedWithWhatNginxSent() throws Exception {
        HttpResponse<byte[]> r = viaNginx.get(links.sign("small.bin"), "Range", "bytes=100-199");
        assertEquals(206, r.statusCode());
        XAccelReceipt receipt = probe.next();
        assertEquals("s/media/small.bin", receipt.file());
        assertEquals(206, receipt.status());
        assertEquals(100, receipt.bytes());
        assertEquals("bytes=100-199", receipt.ranges());
        assertEquals(Outcome.COMPLETE, receipt.outcome());
        probe.assertNoMore();
    }

    @Test
    void aClientThatLeavesAfterOneMebibyteIsAborted() throws Exception {
        ReceiptProbe.readAndLeave(nginx.port(),
                "GET " + links.sign("big.bin") + " HTTP/1.1\r\nHost: localhost\r\n\r\n", 1024 * 1024);
        XAccelReceipt receipt = probe.next();
        assertEquals("s/media/big.bin", receipt.file());
        assertEquals(Outcome.ABORTED, receipt.outcome());
        assertEquals(200, receipt.status());
        assertTrue(receipt.bytes() < BIG, "bytes " + receipt.bytes());
        probe.assertNoMore();
    }

    @Test
    void aValidLinkToAFileThatIsGoneIsReceiptedWithItsStatus() throws Exception {
        HttpResponse<byte[]> r = viaNginx.get(links.sign("gone.bin"));
        assertEquals(404, r.statusCode());
        XAccelReceipt receipt = probe.next();
        assertEquals("s/media/gone.bin", receipt.file());
        assertEquals(404, receipt.status());
        probe.assertNoMore();
    }

    @Test
    void anExpiredOrBadlySignedLinkSendsNoLine() throws Exception {
        long forged = stats.getReceiptLinesForged();
        long malformed = stats.getReceiptLinesMalformed();
        String expired = links.sign("small.bin", Instant.now().minusSeconds(60));
        assertEquals(410, viaNginx.get(expired).statusCode());
        String good = links.sign("small.bin");
        int at = good.indexOf("md5=") + 4;
        String bad = good.substring(0, at) + (good.charAt(at) == 'A' ? 'B' : 'A') + good.substring(at + 1);
        assertEquals(403, viaNginx.get(bad).statusCode());
        // the next fetch's receipt comes first: neither refused fetch sent a line before it
        assertEquals(200, viaNginx.get(links.sign("small.bin")).statusCode());
        XAccelReceipt receipt = probe.next();
        assertEquals(200, receipt.status());
        assertEquals(SMALL.length, receipt.bytes());
        probe.assertNoMore();
        assertEquals(forged, stats.getReceiptLinesForged());
        assertEquals(malformed, stats.getReceiptLinesMalformed());
    }

    @Test
    void aLineForALinkTheSecretDidNotSignCountsForged() throws Exception {
        String other = SignedLinks.create("another-" + SECRET, "/s/media/", Duration.ofSeconds(600))
                .sign("small.bin");
        String md5 = other.replaceAll(".*md5=([^&]+)&expires=(\\d+)$", "$1");
        String expires = other.replaceAll(".*&expires=(\\d+)$", "$1");
        probe.assertCountedAndIgnored(stats::getReceiptsComplete,
                new Counted("<190>Dec  5 06:00:00 xaccel: xs1 " + md5 + " " + expires
                        + " 200 20000 c=OK 0.001 r=\"-\" u=/s/media/small.bin",
                        stats::getReceiptLinesForged, "a signature this secret did not make"),
                new Counted("<190>Dec  5 06:00:00 xaccel: xs1 " + md5 + " soon 200 20000 c=OK 0.001 r=\"-\" u=/x",
                        stats::getReceiptLinesMalformed, "malformed"));
    }
}
