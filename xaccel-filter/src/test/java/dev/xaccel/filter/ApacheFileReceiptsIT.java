package dev.xaccel.filter;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.InputStream;
import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import dev.xaccel.filter.XAccelReceipt.Outcome;
import dev.xaccel.filter.XAccelReceipt.ServedBy;
import dev.xaccel.testsupport.CloseAll;
import dev.xaccel.testsupport.Poll;
import dev.xaccel.testsupport.Processes;
import dev.xaccel.testsupport.ReceiptProbe;
import dev.xaccel.testsupport.ReceiptProbe.InFlight;
import dev.xaccel.testsupport.TestPaths;
import dev.xaccel.testsupport.apache.ApacheFrontEnd;
import dev.xaccel.testsupport.apache.ApacheServer;
import dev.xaccel.testsupport.media.MediaFixture;
import dev.xaccel.testsupport.servlet.WebApp;
import dev.xaccel.testsupport.tomcat.EmbeddedTomcat;

/**
 * Delivery receipts behind real Apache httpd 2.4 + mod_xsendfile through a file: docs/apache/xaccel.conf with
 * docs/apache/xaccel-receipts-file.conf included, the filter in real Tomcat with {@code headerType=X-Sendfile} and
 * {@code receipts=<the file>}. What the UDP variant's test (ApacheReceiptsIT) shows of the lines themselves holds
 * here too, since they are the same; this one shows the transport: whole, ranged and aborted downloads, a download
 * across a graceful restart, 2,000 offloads at 32 at once.
 */
class ApacheFileReceiptsIT {

    static final long BIG = 64L * 1024 * 1024;
    static final byte[] SMALL = MediaFixture.randomBytes(new Random(5), 20_000);

    static Path media;
    static EmbeddedTomcat tomcat;
    static ApacheServer apache;
    static ReceiptProbe<XAccelReceipt> probe;
    static XAccelFilterMXBean stats;

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
        Path dir = TestPaths.freshDir("apache-file-receipts-data");
        media = Files.createDirectories(dir.resolve("media")).toRealPath();
        Files.write(media.resolve("small.bin"), SMALL);
        try (RandomAccessFile f = new RandomAccessFile(media.resolve("big.bin").toFile(), "rw")) {
            f.setLength(BIG); // sparse: 64 MiB of zeros without writing them
        }
        Path log = Files.createDirectories(dir.resolve("logs")).resolve("xaccel-receipts.log");
        probe = new ReceiptProbe<>(Recording.RECEIVED, log);
        Map<String, String> p = new HashMap<>();
        p.put("locations", media + "/ => /_xaccel/media/");
        p.put("mappings", "/library/ => " + media);
        p.put("headerType", "X-Sendfile");
        p.put("receipts", probe.receipts());
        p.put("receiptListener", Recording.class.getName());
        tomcat = EmbeddedTomcat.builder(TestPaths.target().resolve("apache-file-receipts-tomcat"))
                .webapp(WebApp.at("/apache").containerMimeMappings().xaccelFilter(p)
                        .defaultServlet(new ChainServlet()))
                .start();
        apache = new ApacheFrontEnd().startWithFileReceipts("file-receipts", tomcat.port(), media, log);
        stats = ReceiptsIT.mbean("/apache");
    }

    @AfterAll
    static void stop() {
        CloseAll.of(apache, tomcat);
    }

    @BeforeEach
    void clear() {
        probe.clear();
    }

    @Test
    void theFileVariantIsTheUdpOneButForItsLastLine() throws Exception {
        String udp = body(TestPaths.repositoryFile(ApacheFrontEnd.RECEIPTS_FILE));
        String file = body(TestPaths.repositoryFile(ApacheFrontEnd.FILE_RECEIPTS_FILE));
        String udpLast = udp.substring(udp.lastIndexOf("\nCustomLog "));
        String fileLast = file.substring(file.lastIndexOf("\nCustomLog "));
        assertEquals("\nCustomLog \"${RECEIPTS_FILE}\" xaccel_receipt \"expr=-n note('xaccel_receipt')\"", fileLast);
        assertTrue(udpLast.endsWith(" xaccel_receipt \"expr=-n note('xaccel_receipt')\""), udpLast);
        assertEquals(udp.substring(0, udp.length() - udpLast.length()),
                file.substring(0, file.length() - fileLast.length()), "the directives before the CustomLog");
    }

    /** The directives, without comments and blank lines. */
    private static String body(Path conf) throws Exception {
        StringBuilder sb = new StringBuilder();
        for (String line : Files.readAllLines(conf, StandardCharsets.UTF_8)) {
            if (!line.isBlank() && !line.startsWith("#")) {
                sb.append('\n').append(line.strip());
            }
        }
        return sb.toString();
    }

    @Test
    void aWholeAndARangedDownloadAreReceiptedAndTheClientNeverSeesTheIdentifier() throws Exception {
        try (InFlight c = ReceiptProbe.open(apache.port(), "GET /apache/library/small.bin HTTP/1.1\r\n"
                + "Host: localhost\r\nConnection: close\r\n\r\n")) {
            assertTrue(c.head().startsWith("HTTP/1.1 200 "), c.head());
            ApacheReceiptsIT.assertNoIdentifier(c.head());
            assertArrayEquals(SMALL, c.body().readAllBytes());
        }
        XAccelReceipt whole = probe.next();
        assertEquals(Outcome.COMPLETE, whole.outcome());
        assertEquals(ServedBy.FRONT_END, whole.servedBy());
        assertEquals(200, whole.status());
        assertEquals(SMALL.length, whole.bytes());
        try (InFlight c = ReceiptProbe.open(apache.port(), "GET /apache/library/small.bin HTTP/1.1\r\n"
                + "Host: localhost\r\nRange: bytes=100-199\r\nConnection: close\r\n\r\n")) {
            assertTrue(c.head().startsWith("HTTP/1.1 206 "), c.head());
            assertEquals(100, c.body().readAllBytes().length);
        }
        XAccelReceipt ranged = probe.next();
        assertEquals(206, ranged.status());
        assertEquals(100, ranged.bytes());
        assertEquals("bytes=100-199", ranged.ranges());
        probe.assertNoMore();
    }

    @Test
    void aClientThatLeavesAfterOneMebibyteIsAborted() throws Exception {
        ReceiptProbe.Left left = ReceiptProbe.readAndLeave(apache.port(),
                "GET /apache/library/big.bin HTTP/1.1\r\nHost: localhost\r\n\r\n", 1024 * 1024);
        XAccelReceipt receipt = probe.next();
        assertEquals(Outcome.ABORTED, receipt.outcome());
        assertTrue(receipt.bytes() >= left.read() && receipt.bytes() < BIG / 2,
                "bytes " + receipt.bytes() + ", read " + left.read());
        probe.assertNoMore();
    }

    /** {@code apachectl -k graceful} (SIGUSR1): the old child finishing its download appends to the same file. */
    @Test
    void aDownloadInFlightAcrossAGracefulRestartIsReceiptedOnce() throws Exception {
        try (InFlight c = ReceiptProbe.open(apache.port(), "GET /apache/library/big.bin HTTP/1.1\r\n"
                + "Host: localhost\r\nConnection: close\r\n\r\n")) {
            assertTrue(c.head().startsWith("HTTP/1.1 200 "), c.head());
            InputStream in = c.body();
            byte[] buf = new byte[64 * 1024];
            long read = in.read(buf);
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
        assertEquals(Outcome.COMPLETE, receipt.outcome());
        assertEquals(BIG, receipt.bytes());
        probe.assertNoMore();
    }

    @Test
    void twoThousandOffloadsAtThirtyTwoAtOnceGetTwoThousandReceipts() throws Exception {
        int total = 2_000;
        ReceiptsIT.assertEveryRangedGetReceipted(probe, apache.url("/apache/library/small.bin"), total, 32, stats);
    }
}
