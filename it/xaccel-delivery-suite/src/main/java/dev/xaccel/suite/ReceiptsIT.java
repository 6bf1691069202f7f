package dev.xaccel.suite;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Predicate;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;

import dev.xaccel.testsupport.CloseAll;
import dev.xaccel.testsupport.RawHttp;
import dev.xaccel.testsupport.ReceiptProbe;
import dev.xaccel.testsupport.TestPaths;
import dev.xaccel.testsupport.media.MediaFixture;
import dev.xaccel.testsupport.nginx.DocsNginx;
import dev.xaccel.testsupport.nginx.NginxServer;
import dev.xaccel.testsupport.servlet.BearerAuthFilter;
import dev.xaccel.testsupport.servlet.SuiteApp;

/**
 * Delivery receipts in the module's container, configured as a web.xml would (docs/filter.md, "Delivery
 * receipts"): {@code receipts} names nginx's buffered receipt log and {@code receiptListener} the application's
 * listener ({@link ReceiptLog}), which the filter makes with the application's class loader in the container's
 * JVM. In front, real nginx from docs/nginx/xaccel.conf.template with its receipt lines switched on
 * (xaccel-receipts-file.conf.template). Each delivery gets one correct receipt: through nginx (a whole file mapped
 * and declared with a tag, a range) and served by the filter itself (a whole file, a range, a HEAD, a 304, and a
 * client that leaves mid-file: the container's way of telling the filter is what makes it aborted, or, for the
 * xaccel Tomcat connector's sendfile after the filter returned, the channel it closes; Tomcat's sendfile by name
 * tells no one and is not used while receipts are made: {@link TomcatSendfileReceiptsSuite}).
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
public class ReceiptsIT {

    /** Where {@link ReceiptLogServlet} answers. */
    static final String LOG_PATH = "/receipt-log";

    /** Sparse: large enough that the container is still writing when the client leaves. */
    private static final String HUGE = "huge.bin";
    private static final long HUGE_SIZE = 256L * 1024 * 1024;

    private DeliveryStack stack;
    private NginxServer nginx;
    /** Deliveries made so far, each of which must have exactly one receipt. */
    private final AtomicInteger deliveries = new AtomicInteger();

    /** Names the suite's directories under target/. */
    protected String suite() {
        return "receipts";
    }

    /** Init-params beside the receipts' (a Tomcat module's subclass adds {@code sendfile=true}). */
    protected Map<String, String> filterParams() {
        return Map.of();
    }

    @BeforeAll
    void start() throws Exception {
        MediaFixture media = MediaFixture.create(suite());
        try (RandomAccessFile f = new RandomAccessFile(media.media.resolve(HUGE).toFile(), "rw")) {
            f.setLength(HUGE_SIZE);
        }
        // not there when the filter starts: it reads nginx's file from its beginning once nginx made it
        Path log = TestPaths.freshDir(suite() + "-log").resolve("xaccel-receipts.log");
        Map<String, String> params = new HashMap<>(filterParams());
        params.putAll(Map.of("receipts", log.toString(), "receiptListener", ReceiptLog.class.getName(),
                "jmxName", "none"));
        stack = DeliveryStack.start(suite(), media, params, null, false);
        nginx = DocsNginx.startWithFileReceipts(suite(), stack.containerPort(), media.media, log);
        RawHttp.Response forget = RawHttp.request("DELETE", LOG_PATH)
                .header("Authorization", BearerAuthFilter.AUTHORIZATION).send(stack.containerPort());
        assertEquals(204, forget.status(), forget.toString());
    }

    @AfterAll
    void stop() {
        CloseAll.of(nginx, stack);
    }

    @Test
    @Order(1)
    void aWholeFileThroughNginxHasWhatNginxSent() {
        RawHttp.Response r = deliver(nginx.port(), SuiteApp.authGet(SuiteApp.MAPPED_PREFIX + "song.mp3"));
        assertEquals(200, r.status(), r.toString());
        assertArrayEquals(stack.media.content("song.mp3"), r.body());
        String[] receipt = await(line -> line[6].equals(SuiteApp.MAPPED_PREFIX + "song.mp3"));
        assertReceipt(receipt, "COMPLETE", "FRONT_END", 200, 4096, "-", "-");
    }

    @Test
    @Order(2)
    void aTaggedDeclarationAndARangeThroughNginx() {
        RawHttp.Response r = deliver(nginx.port(), SuiteApp.authGet(SuiteApp.DECLARED_PREFIX
                + "report.pdf?tag=user-42").header("Range", "bytes=100-199"));
        assertEquals(206, r.status(), r.toString());
        assertArrayEquals(Arrays.copyOfRange(stack.media.content("report.pdf"), 100, 200), r.body());
        String[] receipt = await(line -> line[4].equals("user-42"));
        assertReceipt(receipt, "COMPLETE", "FRONT_END", 206, 100, "user-42", "bytes=100-199");
        assertEquals(stack.media.media.resolve("report.pdf").toString(), receipt[6], "the declared path");
    }

    @Test
    @Order(3)
    void aWholeFileAndARangeServedByTheFilter() {
        RawHttp.Response whole = deliver(stack.containerPort(), SuiteApp.authGet(SuiteApp.MAPPED_PREFIX
                + "nested/deeper/file.bin"));
        assertEquals(200, whole.status(), whole.toString());
        assertArrayEquals(stack.media.content("nested/deeper/file.bin"), whole.body());
        assertReceipt(await(line -> line[1].equals("FILTER") && line[6].endsWith("/deeper/file.bin")
                && line[5].equals("-")), "COMPLETE", "FILTER", 200, 1000, "-", "-");
        RawHttp.Response range = deliver(stack.containerPort(), SuiteApp.authGet(SuiteApp.MAPPED_PREFIX
                + "nested/deeper/file.bin").header("Range", "bytes=0-99"));
        assertEquals(206, range.status(), range.toString());
        assertReceipt(await(line -> line[5].equals("bytes=0-99")), "COMPLETE", "FILTER", 206, 100, "-",
                "bytes=0-99");
    }

    @Test
    @Order(4)
    void aHeadAndA304ServedByTheFilter() {
        RawHttp.Response head = deliver(stack.containerPort(), RawHttp.head(SuiteApp.MAPPED_PREFIX + "small.txt")
                .header("Authorization", BearerAuthFilter.AUTHORIZATION));
        assertEquals(200, head.status(), head.toString());
        assertReceipt(await(line -> line[6].endsWith("small.txt") && line[3].equals("0")), "COMPLETE", "FILTER",
                200, 0, "-", "-");
        String etag = head.header("ETag");
        assertNotNull(etag, head.toString());
        RawHttp.Response notModified = deliver(stack.containerPort(),
                SuiteApp.authGet(SuiteApp.MAPPED_PREFIX + "small.txt").header("If-None-Match", etag));
        assertEquals(304, notModified.status(), notModified.toString());
        assertReceipt(await(line -> line[2].equals("304")), "COMPLETE", "FILTER", 304, 0, "-", "-");
    }

    @Test
    @Order(5)
    void aClientThatLeavesMidFileIsAborted() throws Exception {
        deliveries.incrementAndGet();
        String request = "GET " + SuiteApp.MAPPED_PREFIX + HUGE + " HTTP/1.1\r\nHost: localhost\r\n"
                + "Authorization: " + BearerAuthFilter.AUTHORIZATION + "\r\n\r\n";
        ReceiptProbe.Left left = ReceiptProbe.readAndLeave(stack.containerPort(), request, 1024 * 1024);
        assertTrue(left.head().startsWith("HTTP/1.1 200"), left.head());
        String[] receipt = await(line -> line[6].endsWith(HUGE));
        assertEquals("ABORTED", receipt[0], String.join(" ", receipt));
        assertEquals("FILTER", receipt[1], String.join(" ", receipt));
        long bytes = Long.parseLong(receipt[3]);
        assertTrue(bytes < HUGE_SIZE, "bytes " + bytes + ": the container reported the whole file written");
    }

    @Test
    @Order(6)
    void everyDeliveryHasExactlyOneReceipt() throws Exception {
        // nginx writes its lines up to a second late: a second receipt of any delivery would be here by now
        Thread.sleep(ReceiptProbe.FILE_NONE.toMillis());
        List<String[]> all = lines();
        assertEquals(deliveries.get(), all.size(), () -> describe(all));
    }

    /** Sends {@code request} to {@code port}, counting it as a delivery. */
    private RawHttp.Response deliver(int port, RawHttp.Request request) {
        deliveries.incrementAndGet();
        return request.send(port);
    }

    /** The first receipt line that {@code matches}, within {@link ReceiptProbe#WAIT}. */
    private String[] await(Predicate<String[]> matches) {
        long deadline = System.nanoTime() + ReceiptProbe.WAIT.toNanos();
        List<String[]> seen = List.of();
        while (System.nanoTime() < deadline) {
            seen = lines();
            for (String[] line : seen) {
                if (matches.test(line)) {
                    return line;
                }
            }
            try {
                Thread.sleep(100);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            }
        }
        throw new AssertionError("no such receipt within " + ReceiptProbe.WAIT.toSeconds() + " s in "
                + SuiteEnvironment.container().name() + "; receipts: " + describe(seen));
    }

    /** The application's receipts so far, each split into {@link ReceiptLog#line}'s fields. */
    private List<String[]> lines() {
        RawHttp.Response r = SuiteApp.authGet(LOG_PATH).send(stack.containerPort());
        assertEquals(200, r.status(), r.toString());
        List<String[]> out = new ArrayList<>();
        for (String line : new String(r.body(), StandardCharsets.UTF_8).split("\n")) {
            if (!line.isEmpty()) {
                out.add(line.split("\t", 7));
            }
        }
        return out;
    }

    private static void assertReceipt(String[] r, String outcome, String servedBy, int status, long bytes,
            String tag, String ranges) {
        String shown = String.join(" ", r);
        assertEquals(outcome, r[0], shown);
        assertEquals(servedBy, r[1], shown);
        assertEquals(Integer.toString(status), r[2], shown);
        assertEquals(Long.toString(bytes), r[3], shown);
        assertEquals(tag, r[4], shown);
        assertEquals(ranges, r[5], shown);
    }

    private static String describe(List<String[]> lines) {
        StringBuilder sb = new StringBuilder();
        for (String[] l : lines) {
            sb.append("\n  ").append(String.join(" ", l));
        }
        return sb.toString();
    }
}
