package dev.xaccel.filter;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.lang.management.ManagementFactory;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Random;
import javax.management.ObjectName;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import dev.xaccel.testsupport.RawHttp;
import dev.xaccel.testsupport.TestPaths;
import dev.xaccel.testsupport.nginx.DocsNginx;
import dev.xaccel.testsupport.nginx.NginxServer;
import dev.xaccel.testsupport.servlet.WebApp;
import dev.xaccel.testsupport.tomcat.EmbeddedTomcat;

/**
 * A declaration's own nginx settings ({@link XAccelFile#limitRate}, {@link XAccelFile#charset},
 * {@link XAccelFile#buffering}) through the shipped nginx config (docs/nginx/xaccel.conf.template) in front of a
 * real Tomcat: the root context offloads, {@code /never} sends every file itself (offload=never) through the same
 * nginx. What each test observes is nginx's behaviour, not the header (nginx hides {@code X-Accel-*} from clients).
 */
class PerFileSettingsIT {

    /** Large enough for a throttled download to take seconds, small enough for the unthrottled one. */
    private static final int RATED_SIZE = 512 * 1024;
    private static final long RATE = 128 * 1024;
    /**
     * More than every buffer between the filter and a client that does not read can hold (the filter's and
     * nginx's socket buffers, tcp_wmem/tcp_rmem at most 4 + 32 MiB here, and the client's small one): with
     * buffering off the filter cannot finish writing before the client reads.
     */
    private static final int STREAM_SIZE = 48 * 1024 * 1024;

    private static Path media;
    private static EmbeddedTomcat tomcat;
    private static NginxServer nginx;

    @BeforeAll
    static void start() throws Exception {
        Path dir = TestPaths.freshDir("per-file");
        media = Files.createDirectories(dir.resolve("media")).toRealPath();
        byte[] rated = new byte[RATED_SIZE];
        new Random(25).nextBytes(rated);
        Files.write(media.resolve("rated.bin"), rated);
        Files.writeString(media.resolve("notes.txt"), "gr\u00fc\u00dfe\n", StandardCharsets.UTF_8);
        byte[] block = new byte[1 << 20];
        new Random(26).nextBytes(block);
        try (OutputStream out = Files.newOutputStream(media.resolve("stream.bin"))) {
            for (int i = 0; i < STREAM_SIZE / block.length; i++) {
                out.write(block);
            }
        }
        Map<String, String> params = new LinkedHashMap<>();
        params.put("locations", media + " => /_xaccel/media/");
        Map<String, String> never = new LinkedHashMap<>(params);
        never.put("offload", "never");
        tomcat = EmbeddedTomcat.builder(dir.resolve("tomcat"))
                .webapp(app("", params)).webapp(app("/never", never)).start();
        nginx = DocsNginx.start("per-file", tomcat.port(), media);
    }

    private static WebApp app(String path, Map<String, String> params) {
        return WebApp.at(path).containerMimeMappings().xaccelFilter(params)
                .servlet("/declare/*", new DeclaringServlet(media)).defaultServlet(new ChainServlet());
    }

    @AfterAll
    static void stop() {
        if (nginx != null) {
            nginx.close();
        }
        if (tomcat != null) {
            tomcat.close();
        }
    }

    /**
     * nginx lets a throttled answer send one second's worth at once, then {@code limitRate} a second: the whole
     * body takes at least {@code size / rate - 1} seconds. Without the per-file rate it arrives at loopback speed.
     */
    @Test
    void perFileLimitRateThrottlesThatDownloadOnly() {
        long t0 = System.nanoTime();
        RawHttp.Response free = RawHttp.get("/declare/x?f=rated.bin").send(nginx.port());
        double freeSeconds = (System.nanoTime() - t0) / 1e9;
        long t1 = System.nanoTime();
        RawHttp.Response rated = RawHttp.get("/declare/x?f=rated.bin&rate=" + RATE).send(nginx.port());
        double ratedSeconds = (System.nanoTime() - t1) / 1e9;

        assertEquals(200, free.status());
        assertEquals(200, rated.status());
        assertEquals(RATED_SIZE, rated.body().length);
        assertArrayEquals(free.body(), rated.body());
        double lowerBound = 0.8 * ((double) RATED_SIZE / RATE - 1);
        assertTrue(ratedSeconds >= lowerBound, "a download at " + RATE + " B/s took " + ratedSeconds
                + " s, less than " + lowerBound + " s (without the rate: " + freeSeconds + " s)");
    }

    /** Offloaded, nginx appends the X-Accel-Charset; sent by the filter, the charset is in its Content-Type. */
    @Test
    void perFileCharsetEndsUpInTheContentType() {
        RawHttp.Response offloaded = RawHttp.get("/declare/x?f=notes.txt&charset=utf-8").send(nginx.port());
        RawHttp.Response plain = RawHttp.get("/declare/x?f=notes.txt").send(nginx.port());
        RawHttp.Response direct = RawHttp.get("/never/declare/x?f=notes.txt&charset=utf-8").send(nginx.port());

        assertEquals(200, offloaded.status());
        assertEquals("text/plain; charset=utf-8", offloaded.header("Content-Type"));
        assertEquals("text/plain", plain.header("Content-Type"));
        assertEquals(200, direct.status());
        assertEquals("text/plain;charset=utf-8", direct.header("Content-Type"));
        assertEquals("gr\u00fc\u00dfe\n", new String(direct.body(), StandardCharsets.UTF_8));
    }

    /**
     * {@code X-Accel-Buffering} on an answer the filter sends itself through nginx, to a client that does not read.
     * nginx's default ({@code proxy_buffering on}) reads the whole body ahead into a temporary file, so the filter's
     * delivery ends while the client still waits (and nginx logs the temporary file). With {@code buffering(false)}
     * nginx reads the body only as the client takes it: the delivery stays in flight until the client reads.
     */
    @Test
    void bufferingOffMakesNginxStreamWhatTheFilterSends() throws Exception {
        String buffered = "/never/declare/x?f=stream.bin&run=buffered";
        try (Socket client = stalledClient(buffered)) {
            long deadline = System.nanoTime() + 60_000_000_000L;
            while (inFlight() != 0 && System.nanoTime() < deadline) {
                Thread.sleep(50);
            }
            assertEquals(0, inFlight(), "nginx buffers by default: the filter finished while the client waited");
            assertEquals(STREAM_SIZE, readBody(client));
        }
        assertTrue(errorLogMentions("buffered to a temporary file", "run=buffered"), "no temporary file in the log");

        String streamed = "/never/declare/x?f=stream.bin&buffering=no&run=streamed";
        try (Socket client = stalledClient(streamed)) {
            // what the buffered run needed to finish is long past; the filter still writes (blocked on nginx)
            Thread.sleep(2000);
            assertEquals(1, inFlight(), "with X-Accel-Buffering: no nginx must not read ahead of the client");
            assertEquals(STREAM_SIZE, readBody(client));
        }
        assertFalse(errorLogMentions("buffered to a temporary file", "run=streamed"), "streamed, yet buffered");
    }

    /** Sends a GET through nginx and does not read: a receive buffer of 16 KiB, full at once. */
    private static Socket stalledClient(String target) throws IOException {
        Socket s = new Socket();
        s.setReceiveBufferSize(16 * 1024);
        s.connect(new InetSocketAddress("127.0.0.1", nginx.port()), 5000);
        s.setSoTimeout(RawHttp.TIMEOUT_MILLIS);
        s.getOutputStream().write(("GET " + target + " HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n")
                .getBytes(StandardCharsets.US_ASCII));
        s.getOutputStream().flush();
        return s;
    }

    /** Reads the rest of the answer; the body's length (all but the head). */
    private static long readBody(Socket s) throws IOException {
        InputStream in = s.getInputStream();
        byte[] buf = new byte[1 << 16];
        long total = 0;
        long headEnd = -1;
        int matched = 0;
        for (int n; (n = in.read(buf)) >= 0;) {
            for (int i = 0; i < n && headEnd < 0; i++) {
                matched = buf[i] == "\r\n\r\n".charAt(matched) ? matched + 1 : (buf[i] == '\r' ? 1 : 0);
                if (matched == 4) {
                    headEnd = total + i + 1;
                }
            }
            total += n;
        }
        return total - headEnd;
    }

    private static long inFlight() throws Exception {
        return (Long) ManagementFactory.getPlatformMBeanServer().getAttribute(
                new ObjectName("dev.xaccel:type=XAccelFilter,context=/never,name=xaccel"), "InFlight");
    }

    private static boolean errorLogMentions(String what, String request) throws IOException {
        return Files.readAllLines(nginx.prefix().resolve("logs/error.log")).stream()
                .anyMatch(l -> l.contains(what) && l.contains(request));
    }
}
