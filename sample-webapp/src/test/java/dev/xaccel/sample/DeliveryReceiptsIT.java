package dev.xaccel.sample;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.xaccel.testsupport.Poll;
import jakarta.json.JsonArray;
import jakarta.json.JsonObject;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.Socket;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
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
        stack = SampleStack.start("receipts", Map.of("XACCEL_DEMO_USERS", "demo:demo:admin, ann:ann, bob:bob",
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

    /**
     * The podcast feed's enclosures are signed links nginx serves without Tomcat: fetched through nginx with the
     * shipped template, each fetch is counted per book and episode; a forged line (a signature the secret did not
     * make) sent to the receipts port counts forged and no fetch.
     */
    @Test
    void enclosureFetchesAreCountedAndAForgedLineIsNot() throws Exception {
        String bob = stack.bearer("bob", "bob");
        String admin = stack.bearer("demo", "demo");
        HttpResponse<byte[]> t = http.post(stack.url("/api/feed-token"), "", "Authorization", bob);
        assertEquals(200, t.statusCode(), Http.text(t));
        String token = Http.object(t).getString("token");
        JsonObject book = Http.array(http.get(stack.url("/api/items"), "Authorization", bob)).getJsonObject(0);
        String id = book.getString("id");
        HttpResponse<byte[]> feed = http.get(stack.url("/feeds/" + id + ".xml?token=" + token));
        assertEquals(200, feed.statusCode(), Http.text(feed));
        List<String> enclosures = FeedXml.children(FeedXml.channel(FeedXml.parse(feed.body())), null, "item").stream()
                .map(i -> FeedXml.child(i, null, "enclosure").getAttribute("url")).toList();
        String url = enclosures.get(0);
        String name = book.getJsonArray("files").getJsonObject(0).getString("name");
        long size = book.getJsonArray("files").getJsonObject(0).getJsonNumber("size").longValue();
        int linesBefore = stack.nginx.accessLog().size();
        HttpResponse<byte[]> got = http.get(url);
        assertEquals(200, got.statusCode(), url);
        assertEquals(size, got.body().length);
        assertTrue(stack.nginx.accessLog().stream().skip(linesBefore).anyMatch(l -> l.contains("/f/library/")
                && l.contains(" ustatus=- ")), "nginx served it without Tomcat");

        long forged = filterStat(admin, "receiptLinesForged");
        String query = url.substring(url.indexOf('?') + 1);
        String md5 = query.replaceAll(".*md5=([^&]+).*", "$1");
        String expires = query.replaceAll(".*expires=(\\d+).*", "$1");
        String other = name.equals("x.mp3") ? "y.mp3" : "x.mp3";
        String path = java.net.URI.create(url).getPath();
        String forgedLine = "<190>Dec  5 06:00:00 xaccel: xs1 " + md5 + " " + expires + " 200 " + size
                + " c=OK 0.001 r=\"-\" u=" + path.substring(0, path.lastIndexOf('/') + 1) + other;
        try (DatagramSocket s = new DatagramSocket()) {
            byte[] b = forgedLine.getBytes(StandardCharsets.US_ASCII);
            s.send(new DatagramPacket(b, b.length, InetAddress.getLoopbackAddress(), stack.receiptsPort));
        }

        AtomicReference<JsonObject> last = new AtomicReference<>();
        boolean seen = Poll.until(WAIT, Duration.ofMillis(200), () -> {
            JsonObject d = deliveries(admin);
            last.set(d);
            return d != null && d.getJsonNumber("enclosureFetches").longValue() >= 1
                    && filterStat(admin, "receiptLinesForged") > forged;
        });
        JsonObject d = last.get();
        assertTrue(seen, "the fetch's receipt and the forged line within " + WAIT + ": " + d);
        assertEquals(forged + 1, filterStat(admin, "receiptLinesForged"));
        assertEquals(1, d.getJsonNumber("enclosureFetches").longValue(), "the forged line is no fetch: " + d);
        JsonObject e = d.getJsonArray("enclosures").getJsonObject(0);
        assertEquals(id, e.getString("book"), d.toString());
        assertEquals(name, e.getString("file"), d.toString());
        assertEquals(1, e.getJsonNumber("complete").longValue(), d.toString());
        assertEquals(0, e.getJsonNumber("aborted").longValue(), d.toString());
    }

    private static long filterStat(String admin, String attribute) {
        try {
            HttpResponse<byte[]> s = http.get(stack.url("/api/stats"), "Authorization", admin);
            assertEquals(200, s.statusCode(), Http.text(s));
            return Http.object(s).getJsonArray("filters").getJsonObject(0).getJsonNumber(attribute).longValue();
        } catch (Exception e) {
            throw new AssertionError(e);
        }
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
