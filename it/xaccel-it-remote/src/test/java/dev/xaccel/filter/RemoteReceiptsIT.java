package dev.xaccel.filter;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

import dev.xaccel.filter.XAccelReceipt.Outcome;
import dev.xaccel.filter.XAccelReceipt.ServedBy;
import dev.xaccel.testsupport.Poll;
import dev.xaccel.testsupport.ReceiptProbe;
import dev.xaccel.testsupport.RawHttp;
import dev.xaccel.testsupport.boundary.BoundaryCheck;
import dev.xaccel.testsupport.nginx.DocsNginx;
import dev.xaccel.testsupport.servlet.BearerAuthFilter;

/**
 * Delivery receipts of remote objects: the filter (init-params {@code receipts} and {@code receiptListener}, as
 * web.xml has them) in real Tomcat, the real S3 API of s3proxy, real nginx from the shipped
 * {@code docs/nginx/xaccel-remote.conf.template} with its commented receipt lines switched on. One receipt per
 * delivery, naming the object by its URL without the presigned query: offloaded (complete, a range, HEAD, a client
 * that leaves, a store's error answered by nginx) and streamed by the filter itself (complete, a range, a client
 * that leaves). The client never sees {@code X-Xaccel-Receipt}; nginx's receipt lines hold no signature, key or
 * path.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class RemoteReceiptsIT {

    static final String SUITE = "remote-receipts";
    static final int BIG = 64 * 1024 * 1024;
    private static final AtomicInteger IDS = new AtomicInteger();

    /** The web.xml-style listener: init-param {@code receiptListener} names it. */
    public static final class Recording implements XAccelReceiptListener {
        static final BlockingQueue<XAccelReceipt> RECEIVED = new LinkedBlockingQueue<>();

        @Override
        public void onReceipt(XAccelReceipt receipt) {
            RECEIVED.add(receipt);
        }
    }

    final ReceiptProbe<XAccelReceipt> probe = new ReceiptProbe<>(Recording.RECEIVED, ReceiptProbe.freeUdpPort());
    final RemoteStack stack;
    final Path receiptLog;

    RemoteReceiptsIT() throws Exception {
        stack = RemoteStack.start(SUITE, true, Map.of("receipts", probe.receipts(),
                "receiptListener", Recording.class.getName()), probe.port());
        try {
            // the same lines into a file as well, so that the test reads exactly what nginx logs
            Files.writeString(DocsNginx.receiptsInclude(SUITE),
                    "\naccess_log  logs/receipts.log  xaccel_receipt;\n", StandardCharsets.UTF_8,
                    StandardOpenOption.APPEND);
            stack.nginx.reload();
            receiptLog = stack.nginx.prefix().resolve("logs/receipts.log");
        } catch (Exception | Error e) {
            stack.close();
            throw e;
        }
    }

    @AfterAll
    void stop() throws Exception {
        stack.close();
    }

    @BeforeEach
    void clear() {
        probe.clear();
    }

    String object(String key, byte[] content) throws Exception {
        stack.store.put(key, content);
        String id = "r" + IDS.incrementAndGet();
        stack.objects.key(id, key);
        return "/objects/" + id;
    }

    static RawHttp.Request authGet(String target) {
        return RawHttp.get(target).header("Authorization", BearerAuthFilter.AUTHORIZATION);
    }

    /** The name a receipt gives {@code key}: the presigned URL's origin and path, no query. */
    String named(String key) {
        URI url = stack.store.presignGet(key, Duration.ofSeconds(30));
        return url.getScheme() + "://" + url.getRawAuthority() + url.getRawPath();
    }

    static void assertNoReceiptHeader(RawHttp.Response r) {
        assertNull(r.header("X-Xaccel-Receipt"), "the identifier never reaches the client: " + r);
    }

    @Test
    void aCompleteOffloadNamesTheObjectWithItsTagBytesAndStatus() throws Exception {
        byte[] content = BoundaryCheck.uniqueContent("complete", 50_000);
        String target = object("books/Chapter 1.mp3", content);
        RawHttp.Response r = authGet(target + "?tag=user-42").send(stack.port());
        assertEquals(200, r.status(), r.toString());
        assertArrayEquals(content, r.body());
        assertNoReceiptHeader(r);
        XAccelReceipt receipt = probe.next();
        assertEquals(named("books/Chapter 1.mp3"), receipt.file());
        assertTrue(receipt.file().endsWith("/media/books/Chapter%201.mp3"), receipt.file());
        assertFalse(receipt.file().contains("?"), receipt.file());
        assertEquals("user-42", receipt.tag());
        assertEquals(Outcome.COMPLETE, receipt.outcome());
        assertEquals(ServedBy.FRONT_END, receipt.servedBy());
        assertEquals(200, receipt.status());
        assertEquals(content.length, receipt.bytes());
        assertNull(receipt.ranges());
        assertTrue(receipt.id().matches("[0-9a-f]{32}"), receipt.id());
        probe.assertNoMore();
    }

    @Test
    void aRangeIsReceiptedWithWhatNginxSent() throws Exception {
        byte[] content = BoundaryCheck.uniqueContent("range", 10_000);
        String target = object("range.bin", content);
        RawHttp.Response r = authGet(target).header("Range", "bytes=1000-1999").send(stack.port());
        assertEquals(206, r.status(), r.toString());
        assertArrayEquals(Arrays.copyOfRange(content, 1000, 2000), r.body());
        assertNoReceiptHeader(r);
        XAccelReceipt receipt = probe.next();
        assertEquals(ServedBy.FRONT_END, receipt.servedBy());
        assertEquals(206, receipt.status());
        assertEquals(1000, receipt.bytes());
        assertEquals("bytes=1000-1999", receipt.ranges());
        assertEquals(Outcome.COMPLETE, receipt.outcome());
        probe.assertNoMore();
    }

    @Test
    void aHeadIsCompleteWithNoBytes() throws Exception {
        String target = object("head.bin", BoundaryCheck.uniqueContent("head", 4321));
        RawHttp.Response r = RawHttp.head(target).header("Authorization", BearerAuthFilter.AUTHORIZATION)
                .send(stack.port());
        assertEquals(200, r.status(), r.toString());
        assertNoReceiptHeader(r);
        XAccelReceipt receipt = probe.next();
        assertEquals(ServedBy.FRONT_END, receipt.servedBy());
        assertEquals(Outcome.COMPLETE, receipt.outcome());
        assertEquals(0, receipt.bytes());
        probe.assertNoMore();
    }

    @Test
    void aClientThatLeavesAfterOneMebibyteIsAbortedThroughNginx() throws Exception {
        String target = object("big-offloaded.bin", BoundaryCheck.uniqueContent("big-offloaded", BIG));
        readOneMebibyteAndLeave(stack.nginx.port(), target);
        XAccelReceipt receipt = probe.next();
        assertEquals(ServedBy.FRONT_END, receipt.servedBy());
        assertEquals(Outcome.ABORTED, receipt.outcome());
        assertEquals(200, receipt.status());
        assertTrue(receipt.bytes() >= 1024 * 1024 && receipt.bytes() < BIG, "bytes " + receipt.bytes());
        probe.assertNoMore();
    }

    @Test
    void aStoresErrorIsTheStatusNginxAnswered() throws Exception {
        stack.store.put("expired.bin", BoundaryCheck.uniqueContent("expired", 1000));
        URI url = stack.store.presignGet("expired.bin", Duration.ofSeconds(1));
        Thread.sleep(2100);
        stack.objects.fixed("expired-receipt", url);
        RawHttp.Response r = authGet("/objects/expired-receipt?tag=t-expired").send(stack.port());
        assertEquals(502, r.status(), r.toString());
        assertNoReceiptHeader(r);
        XAccelReceipt receipt = probe.next();
        assertEquals(ServedBy.FRONT_END, receipt.servedBy());
        assertEquals(502, receipt.status(), "logged by the named location that answered, not left unreceipted");
        assertEquals("t-expired", receipt.tag());
        probe.assertNoMore();
    }

    @Test
    void theDirectPathReceiptsWhatTheFilterStreamed() throws Exception {
        byte[] content = BoundaryCheck.uniqueContent("direct", 20_000);
        String target = object("direct.bin", content);
        RawHttp.Response r = authGet(target + "?tag=t1").send(stack.tomcat.port());
        assertEquals(200, r.status(), r.toString());
        assertArrayEquals(content, r.body());
        assertNull(r.header("X-Accel-Redirect"), "streamed by the filter");
        assertNoReceiptHeader(r);
        XAccelReceipt receipt = probe.next();
        assertEquals(named("direct.bin"), receipt.file());
        assertEquals(ServedBy.FILTER, receipt.servedBy());
        assertEquals(Outcome.COMPLETE, receipt.outcome());
        assertEquals(200, receipt.status());
        assertEquals(content.length, receipt.bytes());
        assertEquals("t1", receipt.tag());

        RawHttp.Response range = authGet(target).header("Range", "bytes=0-99").send(stack.tomcat.port());
        assertEquals(206, range.status(), range.toString());
        XAccelReceipt r2 = probe.next();
        assertEquals(ServedBy.FILTER, r2.servedBy());
        assertEquals(206, r2.status());
        assertEquals(100, r2.bytes());
        assertEquals("bytes=0-99", r2.ranges());
        probe.assertNoMore();
    }

    @Test
    void aClientThatLeavesTheFiltersStreamIsAborted() throws Exception {
        String target = object("big-direct.bin", BoundaryCheck.uniqueContent("big-direct", BIG));
        readOneMebibyteAndLeave(stack.tomcat.port(), target);
        XAccelReceipt receipt = probe.next();
        assertEquals(ServedBy.FILTER, receipt.servedBy());
        assertEquals(Outcome.ABORTED, receipt.outcome());
        assertEquals(-1, receipt.bytes(), "how much the client got is not known to the filter");
        probe.assertNoMore();
    }

    /** Every line nginx logged: the format, and nothing of the presigned URL, the store's keys or the path. */
    @Test
    void theReceiptLinesHoldNoPresignedUrlNorCredential() throws Exception {
        String target = object("secret-check/object.bin", BoundaryCheck.uniqueContent("lines", 3000));
        RawHttp.Response r = authGet(target).header("Range", "bytes=0-9").send(stack.port());
        assertEquals(206, r.status(), r.toString());
        XAccelReceipt receipt = probe.next();
        assertTrue(Poll.until(Duration.ofSeconds(10), () -> logged(receipt.id())), "the line in " + receiptLog);
        List<String> lines = Files.readAllLines(receiptLog, StandardCharsets.UTF_8);
        assertFalse(lines.isEmpty());
        for (String line : lines) {
            assertTrue(line.matches("xr1 [0-9a-f]{32} \\d{3} \\d+ c=(OK)? \\d+\\.\\d{3} r=.*"), line);
            for (String leak : List.of("X-Amz", "x-amz", S3Store.ACCESS_KEY, S3Store.SECRET_KEY, "/media/",
                    "secret-check", "127.0.0.1", BearerAuthFilter.AUTHORIZATION)) {
                assertFalse(line.contains(leak), leak + " in " + line);
            }
        }
        assertTrue(lines.stream().anyMatch(l -> l.startsWith("xr1 " + receipt.id() + " 206 10 c=OK ")),
                String.join("\n", lines));
    }

    private boolean logged(String id) {
        try {
            return Files.exists(receiptLog) && Files.readString(receiptLog, StandardCharsets.UTF_8).contains(id);
        } catch (IOException e) {
            return false;
        }
    }

    /** A raw GET of {@code target}, its first MiB read, then the connection closed. */
    static void readOneMebibyteAndLeave(int port, String target) throws IOException {
        ReceiptProbe.readAndLeave(port, "GET " + target + " HTTP/1.1\r\nHost: localhost\r\nAuthorization: "
                + BearerAuthFilter.AUTHORIZATION + "\r\n\r\n", 1024 * 1024);
    }
}
