package dev.xaccel.sample;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.xaccel.testsupport.Poll;
import jakarta.json.JsonArray;
import jakarta.json.JsonObject;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Issue 32, step 5: the sample as shipped (Tomcat distribution, web.xml, nginx/xaccel-demo.conf.template with its
 * receipt lines) tallies delivery receipts, and {@code /api/stats} shows them. A user downloads one chapter whole
 * through nginx, breaks another off, and downloads a third straight from Tomcat (the filter sends it itself): the
 * admin's stats show each chapter completed or aborted once, and the user's bytes. Receipts arrive asynchronously
 * (nginx's syslog line, then the listener thread): polled with a bound.
 */
class DeliveryReceiptsIT {

    /** nginx sends at most this many bytes per second: the aborted chapter (3.9 MB) is still in flight. */
    static final int LIMIT_RATE = 1_000_000;
    static final Duration WAIT = Duration.ofSeconds(30);

    static SampleStack stack;
    static final Http http = new Http();

    @BeforeAll
    static void deploy() throws Exception {
        stack = SampleStack.start("receipts", Map.of("XACCEL_DEMO_USERS", "demo:demo:admin, ann:ann",
                "XACCEL_LIMIT_RATE", Integer.toString(LIMIT_RATE)));
    }

    @AfterAll
    static void undeploy() throws Exception {
        if (stack != null) {
            stack.close();
        }
    }

    @Test
    void completedAbortedAndDirectDownloadsReachTheStats() throws Exception {
        String ann = stack.bearer("ann", "ann");
        String admin = stack.bearer("demo", "demo");
        JsonObject book = Http.array(http.get(stack.url("/api/items"), "Authorization", ann)).getJsonObject(0);
        String id = book.getString("id");
        JsonArray files = book.getJsonArray("files");
        assertTrue(files.size() >= 2, book.toString());
        long whole = files.getJsonObject(0).getJsonNumber("size").longValue();
        long second = files.getJsonObject(1).getJsonNumber("size").longValue();
        assertTrue(second > 2L * LIMIT_RATE, "the aborted chapter outlasts two seconds at the rate: " + second);

        // 1. chapter 0, whole, through nginx (offloaded: nginx's line is the receipt)
        HttpResponse<byte[]> r = http.get(stack.url("/api/items/" + id + "/file/0"), "Authorization", ann);
        assertEquals(200, r.statusCode());
        assertEquals(whole, r.body().length);
        assertTrue(r.headers().firstValue("X-Xaccel-Receipt").isEmpty(), "the identifier never reaches the client");

        // 2. chapter 1 through nginx, broken off after 64 KiB with a reset
        int got = abortAfter("/api/items/" + id + "/file/1", ann, 64 * 1024);
        assertTrue(got >= 64 * 1024, "read " + got);

        // 3. chapter 0 again, straight from Tomcat: the filter sends it itself, and receipts it itself
        HttpResponse<byte[]> direct = http.get(stack.tomcat.url("/api/items/" + id + "/file/0"),
                "Authorization", ann);
        assertEquals(200, direct.statusCode());
        assertEquals(whole, direct.body().length);

        AtomicReference<JsonObject> last = new AtomicReference<>();
        boolean seen = Poll.until(WAIT, Duration.ofMillis(200), () -> {
            JsonObject d = deliveries(admin);
            last.set(d);
            return d != null && d.getJsonNumber("complete").longValue() >= 2
                    && d.getJsonNumber("aborted").longValue() >= 1;
        });
        JsonObject d = last.get();
        assertTrue(seen, "receipts did not arrive within " + WAIT + ": " + d);
        assertEquals(2, d.getJsonNumber("complete").longValue(), d.toString());
        assertEquals(1, d.getJsonNumber("aborted").longValue(), d.toString());
        assertEquals(0, d.getJsonNumber("unreceipted").longValue(), d.toString());
        assertEquals(0, d.getJsonNumber("overflow").longValue(), d.toString());
        JsonObject c0 = chapter(d, id, 0);
        JsonObject c1 = chapter(d, id, 1);
        assertEquals(2, c0.getJsonNumber("complete").longValue(), "once through nginx, once direct: " + d);
        assertEquals(0, c0.getJsonNumber("aborted").longValue(), d.toString());
        assertEquals(0, c1.getJsonNumber("complete").longValue(), d.toString());
        assertEquals(1, c1.getJsonNumber("aborted").longValue(), d.toString());
        long bytes = d.getJsonObject("bytesPerUser").getJsonNumber("ann").longValue();
        // two whole chapters, plus what nginx reported sending of the aborted one (not all of it)
        assertTrue(bytes > 2 * whole && bytes < 2 * whole + second, "ann's bytes " + bytes + ": " + d);
        assertTrue(!d.getJsonObject("bytesPerUser").containsKey("demo"), d.toString());

        // the stats stay the admin's: another user gets 403
        assertEquals(403, http.get(stack.url("/api/stats"), "Authorization", ann).statusCode());
    }

    private static JsonObject deliveries(String admin) {
        try {
            HttpResponse<byte[]> s = http.get(stack.url("/api/stats"), "Authorization", admin);
            assertEquals(200, s.statusCode(), Http.text(s));
            JsonObject o = Http.object(s);
            return o.containsKey("deliveries") && !o.isNull("deliveries") ? o.getJsonObject("deliveries") : null;
        } catch (Exception e) {
            throw new AssertionError(e);
        }
    }

    private static JsonObject chapter(JsonObject deliveries, String book, int index) {
        JsonObject found = null;
        for (JsonObject c : deliveries.getJsonArray("chapters").getValuesAs(JsonObject.class)) {
            if (book.equals(c.getString("book")) && c.getInt("chapter") == index) {
                found = c;
            }
        }
        assertNotNull(found, "no chapter " + book + "/" + index + " in " + deliveries);
        return found;
    }

    /** GET through nginx, read {@code bytes} of the answer (headers included), then reset the connection. */
    private static int abortAfter(String path, String authorization, int bytes) throws Exception {
        try (Socket s = new Socket(InetAddress.getLoopbackAddress(), stack.nginx.port())) {
            s.setSoTimeout(10_000);
            OutputStream out = s.getOutputStream();
            out.write(("GET " + path + " HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: " + authorization
                    + "\r\nConnection: close\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
            out.flush();
            InputStream in = s.getInputStream();
            byte[] buf = new byte[8192];
            int total = 0;
            while (total < bytes) {
                int n = in.read(buf);
                if (n < 0) {
                    break;
                }
                total += n;
            }
            s.setSoLinger(true, 0);                     // close = RST: the client is gone mid-download
            return total;
        }
    }
}
