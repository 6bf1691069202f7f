package dev.xaccel.filter;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CountDownLatch;
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
 * Delivery receipts end to end: the filter in real Tomcat, configured by init-params as web.xml would (its listener
 * named by class), behind real nginx from docs/nginx/xaccel.conf.template with its receipt lines switched on
 * (xaccel-receipts.conf.template): one correct receipt per delivery, through nginx and directly; forged and replayed
 * lines counted and ignored; a blocked listener never holds a request; an nginx killed mid-download leaves an
 * unreceipted receipt after the bound.
 */
class ReceiptsIT {

    static final long BIG = 64L * 1024 * 1024;
    static final byte[] SMALL = MediaFixture.randomBytes(new Random(32), 20_000);

    @TempDir
    static Path tmp;
    static Path media;
    static EmbeddedTomcat tomcat;
    static NginxServer nginx;
    static NginxServer shortNginx;
    static JdkHttp viaNginx;
    static JdkHttp direct;
    static ReceiptProbe<XAccelReceipt> probe;
    static XAccelFilterMXBean stats;
    static XAccelFilterMXBean shortStats;
    static XAccelFilterMXBean blockingStats;

    /** The web.xml-style listener: init-param {@code receiptListener} names it. */
    public static final class Recording implements XAccelReceiptListener {
        static final BlockingQueue<XAccelReceipt> RECEIVED = new LinkedBlockingQueue<>();

        @Override
        public void onReceipt(XAccelReceipt receipt) {
            RECEIVED.add(receipt);
        }
    }

    /** The listener of the short-timeout context. */
    public static final class ShortRecording implements XAccelReceiptListener {
        static final BlockingQueue<XAccelReceipt> RECEIVED = new LinkedBlockingQueue<>();

        @Override
        public void onReceipt(XAccelReceipt receipt) {
            RECEIVED.add(receipt);
        }
    }

    /** A listener that blocks until released. */
    public static final class Blocking implements XAccelReceiptListener {
        static final CountDownLatch RELEASE = new CountDownLatch(1);
        static final AtomicLong SEEN = new AtomicLong();

        @Override
        public void onReceipt(XAccelReceipt receipt) {
            try {
                RELEASE.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            SEEN.incrementAndGet();
        }
    }

    /** Declares {@code ?f=} with {@code ?tag=}, {@code ?rate=} and {@code ?expires=} (X-Accel-Expires). */
    static final class TaggingServlet extends HttpServlet {
        private static final long serialVersionUID = 1L;

        @Override
        protected void doGet(HttpServletRequest req, HttpServletResponse resp) throws IOException {
            XAccelFile f = XAccelFile.of(media.resolve(req.getParameter("f"))).tag(req.getParameter("tag"));
            if (req.getParameter("rate") != null) {
                f = f.limitRate(Long.parseLong(req.getParameter("rate")));
            }
            if (req.getParameter("expires") != null) {
                f = f.accelExpires(req.getParameter("expires"));
            }
            XAccel.sendFile(req, resp, f);
        }
    }

    @BeforeAll
    static void start() throws Exception {
        media = Files.createDirectories(tmp.resolve("media"));
        Files.write(media.resolve("small.bin"), SMALL);
        try (java.io.RandomAccessFile f = new java.io.RandomAccessFile(media.resolve("big.bin").toFile(), "rw")) {
            f.setLength(BIG); // sparse: 64 MiB of zeros without writing them
        }
        probe = new ReceiptProbe<>(Recording.RECEIVED, ReceiptProbe.freeUdpPort());
        int shortPort = ReceiptProbe.freeUdpPort();

        Map<String, String> main = params(probe.receipts(), Recording.class);
        Map<String, String> shortTimeout = params("127.0.0.1:" + shortPort, ShortRecording.class);
        shortTimeout.put("receiptTimeout", "1");
        Map<String, String> blocking = params("direct", Blocking.class);
        blocking.put("receiptQueue", "5");
        tomcat = EmbeddedTomcat.builder(tmp.resolve("tomcat"))
                .webapp(app("", main))
                .webapp(app("/short", shortTimeout))
                .webapp(app("/blocking", blocking))
                .start();
        nginx = startNginx("receipts", probe.port());
        shortNginx = startNginx("receipts-short", shortPort);
        viaNginx = new JdkHttp(nginx.port());
        direct = new JdkHttp(tomcat.port());
        stats = mbean("/");
        shortStats = mbean("/short");
        blockingStats = mbean("/blocking");
    }

    static Map<String, String> params(String receipts, Class<?> listener) {
        Map<String, String> p = new HashMap<>();
        p.put("locations", media + " => /_xaccel/media/");
        p.put("mappings", "/library/ => " + media);
        p.put("receipts", receipts);
        p.put("receiptListener", listener.getName());
        return p;
    }

    static WebApp app(String contextPath, Map<String, String> initParams) {
        return WebApp.at(contextPath).containerMimeMappings().xaccelFilter(initParams)
                .servlet("/declare/*", new TaggingServlet()).defaultServlet(new ChainServlet());
    }

    static NginxServer startNginx(String suite, int port) throws IOException {
        return DocsNginx.startWithReceipts(suite, tomcat.port(), media, port);
    }

    static XAccelFilterMXBean mbean(String context) throws Exception {
        javax.management.MBeanServer server = java.lang.management.ManagementFactory.getPlatformMBeanServer();
        javax.management.ObjectName name = new javax.management.ObjectName(
                "dev.xaccel:type=XAccelFilter,context=" + context + ",name=xaccel");
        return javax.management.JMX.newMXBeanProxy(server, name, XAccelFilterMXBean.class);
    }

    @AfterAll
    static void stop() throws Exception {
        Blocking.RELEASE.countDown();
        CloseAll.of(nginx, shortNginx, tomcat);
    }

    @BeforeEach
    void clear() {
        probe.clear();
    }

    @Test
    void aCompleteDownloadThroughNginxHasItsTagBytesAndStatus() throws Exception {
        HttpResponse<byte[]> r = viaNginx.get("/declare/?f=small.bin&tag=user-42");
        assertEquals(200, r.statusCode());
        assertArrayEquals(SMALL, r.body());
        assertTrue(r.headers().firstValue("X-Xaccel-Receipt").isEmpty(), "the identifier never reaches the client");
        XAccelReceipt receipt = probe.next();
        assertEquals(media.resolve("small.bin").toString(), receipt.file());
        assertEquals("user-42", receipt.tag());
        assertEquals(Outcome.COMPLETE, receipt.outcome());
        assertEquals(ServedBy.FRONT_END, receipt.servedBy());
        assertEquals(200, receipt.status());
        assertEquals(SMALL.length, receipt.bytes());
        assertNull(receipt.ranges());
        assertTrue(receipt.id().matches("[0-9a-f]{32}"), receipt.id());
        probe.assertNoMore();
    }

    @Test
    void aMappedDownloadNamesTheRequestPath() throws Exception {
        HttpResponse<byte[]> r = viaNginx.get("/library/small.bin");
        assertEquals(200, r.statusCode());
        XAccelReceipt receipt = probe.next();
        assertEquals("/library/small.bin", receipt.file());
        assertNull(receipt.tag());
        assertEquals(SMALL.length, receipt.bytes());
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
    void aRangeAndAMultiRangeAreReceiptedWithWhatNginxSent() throws Exception {
        HttpResponse<byte[]> one = viaNginx.get("/library/small.bin", "Range", "bytes=100-199");
        assertEquals(206, one.statusCode());
        XAccelReceipt r1 = probe.next();
        assertEquals(206, r1.status());
        assertEquals(100, r1.bytes());
        assertEquals("bytes=100-199", r1.ranges());
        assertEquals(Outcome.COMPLETE, r1.outcome());

        HttpResponse<byte[]> two = viaNginx.get("/library/small.bin", "Range", "bytes=0-9,1000-1099");
        assertEquals(206, two.statusCode());
        XAccelReceipt r2 = probe.next();
        assertEquals(206, r2.status());
        assertEquals(two.body().length, r2.bytes(), "the multipart body as the client read it");
        assertEquals("bytes=0-9,1000-1099", r2.ranges());
        probe.assertNoMore();
    }

    @Test
    void anAnswerNginxMayCacheCarriesNoIdentifier() throws Exception {
        // the offload answer itself, as nginx gets it (Tomcat directly, with nginx's marker from a trusted address)
        HttpResponse<byte[]> cacheable = direct.get("/declare/?f=small.bin&expires=60",
                "X-Sendfile-Type", "X-Accel-Redirect");
        assertEquals("60", cacheable.headers().firstValue("X-Accel-Expires").orElse(null));
        assertTrue(cacheable.headers().firstValue("X-Accel-Redirect").isPresent(), cacheable.headers().toString());
        assertTrue(cacheable.headers().firstValue("X-Xaccel-Receipt").isEmpty(),
                "a cache hit would replay it: " + cacheable.headers());
        HttpResponse<byte[]> never = direct.get("/declare/?f=small.bin&expires=0", "X-Sendfile-Type",
                "X-Accel-Redirect");
        String id = never.headers().firstValue("X-Xaccel-Receipt").orElse("");
        assertTrue(id.matches("[0-9a-f]{32}"), "X-Accel-Expires: 0 is never cached: " + never.headers());
        // that identifier waits for a line nobody sends: report it now as nginx would, so no receipt is left over
        probe.send("<190>Dec  5 06:00:00 xaccel: xr1 " + id + " 200 0 c=OK 0.001 r=-");
        assertEquals(200, probe.next().status());
        probe.assertNoMore();
    }

    @Test
    void aHeadIsCompleteWithNoBytes() throws Exception {
        HttpResponse<byte[]> r = viaNginx.send("HEAD", "/library/small.bin");
        assertEquals(200, r.statusCode());
        XAccelReceipt receipt = probe.next();
        assertEquals(Outcome.COMPLETE, receipt.outcome());
        assertEquals(0, receipt.bytes());
        probe.assertNoMore();
    }

    @Test
    void a304AndA412AreTheFiltersOwnReceipts() throws Exception {
        String etag = viaNginx.get("/library/small.bin").headers().firstValue("ETag").orElseThrow();
        probe.next();
        HttpResponse<byte[]> notModified = viaNginx.get("/library/small.bin", "If-None-Match", etag);
        assertEquals(304, notModified.statusCode());
        XAccelReceipt r304 = probe.next();
        assertEquals(304, r304.status());
        assertEquals(ServedBy.FILTER, r304.servedBy());
        assertEquals(0, r304.bytes());
        HttpResponse<byte[]> failed = viaNginx.get("/library/small.bin", "If-Match", "\"other\"");
        assertEquals(412, failed.statusCode());
        XAccelReceipt r412 = probe.next();
        assertEquals(412, r412.status());
        assertEquals(ServedBy.FILTER, r412.servedBy());
        probe.assertNoMore();
    }

    @Test
    void theDirectPathReceiptsWhatTheFilterWrote() throws Exception {
        HttpResponse<byte[]> r = direct.get("/declare/?f=small.bin&tag=t1");
        assertEquals(200, r.statusCode());
        assertArrayEquals(SMALL, r.body());
        XAccelReceipt receipt = probe.next();
        assertEquals(ServedBy.FILTER, receipt.servedBy());
        assertEquals(Outcome.COMPLETE, receipt.outcome());
        assertEquals(SMALL.length, receipt.bytes());
        assertEquals("t1", receipt.tag());
        HttpResponse<byte[]> range = direct.get("/library/small.bin", "Range", "bytes=0-99");
        assertEquals(206, range.statusCode());
        XAccelReceipt r2 = probe.next();
        assertEquals(100, r2.bytes());
        assertEquals(206, r2.status());
        assertEquals("bytes=0-99", r2.ranges());
        probe.assertNoMore();
    }

    @Test
    void aDownloadInFlightAcrossAReloadIsReceipted() throws Exception {
        HttpClient client = HttpClient.newHttpClient();
        // 2 MiB at 1 MiB/s: still being sent when nginx reloads
        HttpRequest req = HttpRequest.newBuilder(URI.create(nginx.url("/declare/?f=big.bin&rate=1048576&tag=r")))
                .header("Range", "bytes=0-2097151").build();
        HttpResponse<InputStream> r = client.send(req, HttpResponse.BodyHandlers.ofInputStream());
        assertEquals(206, r.statusCode());
        // the head has arrived: nginx is sending the body while it reloads
        nginx.reload();
        try (InputStream body = r.body()) {
            assertEquals(2 * 1024 * 1024, body.readAllBytes().length);
        }
        XAccelReceipt receipt = probe.next();
        assertEquals("r", receipt.tag());
        assertEquals(Outcome.COMPLETE, receipt.outcome());
        assertEquals(2 * 1024 * 1024, receipt.bytes());
        assertTrue(receipt.duration().toMillis() >= 1000, "nginx's time: " + receipt.duration());
        probe.assertNoMore();
    }

    @Test
    void tenThousandOffloadsAtSixtyFourAtOnceGetTenThousandReceipts() throws Exception {
        int total = 10_000;
        int concurrency = 64;
        assertEveryRangedGetReceipted(probe, nginx.url("/library/small.bin"), total, concurrency, stats);
    }

    /**
     * {@link ReceiptProbe#rangedGets} of {@code url}, then exactly {@code total} complete receipts whose bytes sum to
     * what the clients read, as the filter's {@code ReceiptBytesFrontEnd} counted them too, and no more.
     */
    static void assertEveryRangedGetReceipted(ReceiptProbe<XAccelReceipt> probe, String url, int total,
            int concurrency, XAccelFilterMXBean stats) throws Exception {
        long before = stats.getReceiptBytesFrontEnd();
        long read = ReceiptProbe.rangedGets(url, total, concurrency);
        long sum = 0;
        for (XAccelReceipt r : probe.next(total)) {
            assertEquals(Outcome.COMPLETE, r.outcome());
            sum += r.bytes();
        }
        probe.assertNoMore();
        assertEquals(read, sum, "bytes in receipts = bytes the clients read");
        assertEquals(read, stats.getReceiptBytesFrontEnd() - before);
    }

    @Test
    void forgedReplayedAndMalformedLinesAreCountedAndIgnored() throws Exception {
        HttpResponse<byte[]> r = viaNginx.get("/library/small.bin");
        assertEquals(200, r.statusCode());
        XAccelReceipt real = probe.next();
        String format = "<190>Dec  5 06:00:00 xaccel: xr1 %s 200 20000 c=OK 0.001 r=-";
        probe.assertCountedAndIgnored(stats::getReceiptsComplete,
                new Counted(String.format(format, "0123456789abcdef0123456789abcdef"),
                        stats::getReceiptLinesForged, "an id this filter never issued"),
                new Counted(String.format(format, real.id()), stats::getReceiptLinesStale, "an id already receipted"),
                new Counted("<190>Dec  5 06:00:00 xaccel: xr1 not-an-id 200 1 c=OK 0.001 r=-",
                        stats::getReceiptLinesMalformed, "malformed"));
    }

    @Test
    void aBlockedListenerNeverHoldsARequestAndDropsAreCounted() throws Exception {
        int n = 50;
        for (int i = 0; i < n; i++) {
            HttpResponse<byte[]> r = direct.get("/blocking/library/small.bin");
            assertEquals(200, r.statusCode());
        }
        // a direct receipt is made once the body is written, maybe after the client has read it
        long deadline0 = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (System.nanoTime() < deadline0 && blockingStats.getReceiptsComplete() < n) {
            Thread.sleep(20);
        }
        assertEquals(n, blockingStats.getReceiptsComplete());
        // one receipt held by the blocked listener (none if it had not taken it yet), five queued: the rest dropped
        long dropped = blockingStats.getReceiptsDropped();
        assertTrue(dropped == n - 6 || dropped == n - 5, "dropped " + dropped);
        Blocking.RELEASE.countDown();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (System.nanoTime() < deadline && Blocking.SEEN.get() + blockingStats.getReceiptsDropped() < n) {
            Thread.sleep(20);
        }
        assertEquals(n, Blocking.SEEN.get() + blockingStats.getReceiptsDropped());
    }

    @Test
    void anNginxKilledMidDownloadLeavesAnUnreceiptedReceiptAfterTheBound() throws Exception {
        HttpClient client = HttpClient.newHttpClient();
        HttpRequest req = HttpRequest.newBuilder(
                URI.create(shortNginx.url("/short/declare/?f=big.bin&rate=65536&tag=k"))).build();
        HttpResponse<InputStream> head = client.send(req, HttpResponse.BodyHandlers.ofInputStream());
        assertEquals(200, head.statusCode());
        // the offload answer was issued and nginx is sending: now it dies without a log line
        // the master first (else it starts new workers), then its workers: nginx logs nothing more
        java.util.Set<Long> workers = shortNginx.workerPids();
        ProcessHandle.of(shortNginx.pid()).ifPresent(ProcessHandle::destroyForcibly);
        for (long pid : workers) {
            ProcessHandle.of(pid).ifPresent(ProcessHandle::destroyForcibly);
        }
        XAccelReceipt r = ShortRecording.RECEIVED.poll(20, TimeUnit.SECONDS);
        assertNotNull(r, "no unreceipted receipt within 20 s");
        assertEquals(Outcome.UNRECEIPTED, r.outcome());
        assertEquals("k", r.tag());
        assertEquals(-1, r.bytes());
        assertTrue(r.duration().toMillis() >= 1000, r.duration().toString());
        // the JDK client may retry its GET once while the workers die: every offload is reported, none receipted
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (System.nanoTime() < deadline && shortStats.getReceiptsUnreceipted() < shortStats.getOffloaded()) {
            Thread.sleep(20);
        }
        assertEquals(shortStats.getOffloaded(), shortStats.getReceiptsUnreceipted());
        assertEquals(0, shortStats.getReceiptsComplete() + shortStats.getReceiptsAborted());
        head.body().close();
    }
}
