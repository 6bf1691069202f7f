package dev.xaccel.it.frontends;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;
import java.util.stream.Collectors;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

import dev.xaccel.suite.DeliveryStack;
import dev.xaccel.testsupport.Poll;
import dev.xaccel.testsupport.RawHttp;
import dev.xaccel.testsupport.TestPaths;
import dev.xaccel.testsupport.apache.ApacheFrontEnd;
import dev.xaccel.testsupport.caddy.CaddyFrontEnd;
import dev.xaccel.testsupport.frontend.FrontEnd;
import dev.xaccel.testsupport.lighttpd.LighttpdFrontEnd;
import dev.xaccel.testsupport.media.MediaFixture;
import dev.xaccel.testsupport.nginx.NginxFrontEnd;
import dev.xaccel.testsupport.servlet.BearerAuthFilter;
import dev.xaccel.testsupport.servlet.OffloadRecorder;
import dev.xaccel.testsupport.servlet.SuiteApp;

/**
 * Request smuggling and oversized heads through every shipped front end (nginx, Apache httpd + mod_xsendfile,
 * lighttpd, Caddy, each with its shipped config) in front of the filter in Tomcat 11: per case one raw connection
 * carries a request with contradictory or malformed framing whose body holds a second, complete request for a file
 * (the would-be smuggled one), followed by a pipelined, well-formed request. A request the front end parsed itself
 * reaches the application with the front end's marker header ({@code X-Sendfile-Type}, set by every shipped config);
 * the smuggled one was written by the client and has none. So the application's recorder
 * ({@link OffloadRecorder}) tells a desync apart from the front end's own (legitimate) reading of a pipeline: no
 * request without the marker may ever reach the application. After each case a fresh request through the same front
 * end must get its own file (no leftover bytes on a pooled upstream connection). The front end's answer to the
 * malformed request is recorded (target/desync.md) and asserted exactly ({@link #EXPECTED}). The cases include
 * HTTP/2's two ways in on a cleartext port (prior knowledge, {@code Upgrade: h2c}): no shipped config speaks it.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class DesyncIT {

    /** Longer than every front end's default limit for one header line and the whole head. */
    static final int OVERSIZED = 70 * 1024;
    /**
     * The first answer of each front end to each case, in the order of {@link #frontEnds()} (nginx, Apache,
     * lighttpd, Caddy), as measured on Debian 12's packages (nginx 1.22.1, Apache 2.4.71, lighttpd 1.4.69, Caddy
     * 2.6.2) and listed in docs/front-ends.md: asserted exactly, so an upgrade that changes one is noticed.
     * {@code a|b} where both were measured: Caddy streams a chunked body on to Tomcat while it parses it, and the
     * test application answers 401 without reading the body, so Caddy's own 400 for a bad chunk (the shipped
     * {@code handle_errors}) races with that 401. The only 5xx are 501 (a transfer coding the server does not
     * implement, RFC 9112 6.1; lighttpd counts an obs-folded one among them) and 505 (an HTTP version it does not
     * speak); {@link #FIVE_XX} keeps it so. 401 is the test application's answer to the first request, which
     * carries no credentials: the front end parsed the framing and forwarded it.
     */
    static final Map<String, String> EXPECTED = expected();
    /** The only 5xx a shipped config may answer malformed input with. */
    static final Set<Integer> FIVE_XX = Set.of(501, 505);

    private static Map<String, String> expected() {
        Map<String, String> e = new LinkedHashMap<>();
        e.put("CL.TE", "400 401 400 401");
        e.put("TE.CL", "400 401 400 401");
        e.put("duplicate Content-Length", "400 400 400 400");
        e.put("obs-fold Transfer-Encoding", "400 401 501 401");
        e.put("bare LF before Transfer-Encoding", "400 400 400 401");
        e.put("bare LF line endings", "400 400 400 401");
        e.put("Transfer-Encoding: chunked, identity", "501 400 501 501");
        e.put("Transfer-Encoding: xchunked", "501 400 501 501");
        e.put("Transfer-Encoding: identity, chunked", "501 501 501 501");
        e.put("Transfer-Encoding: gzip, chunked", "501 501 501 501");
        e.put("Transfer-Encoding: chunked, chunked", "501 501 501 501");
        e.put("GET with Transfer-Encoding: identity, chunked", "501 501 501 501");
        e.put("space before the colon", "400 400 400 400");
        e.put("malformed chunk size", "400 400 400 400|401");
        e.put("overflowing chunk size", "400 413 400 400|401");
        e.put("chunk size with 0x", "400 400 400 400|401");
        e.put("negative chunk size", "400 400 400 400|401");
        e.put("chunk size with a trailing space", "401 401 401 401");
        e.put("chunk data longer than its size", "400 400 400 400|401");
        e.put("chunk size with 20 leading zeros", "401 401 401 400|401");
        e.put("chunk extension over 4 KiB", "401 401 400 400|401");
        e.put("oversized request header", "400 400 431 400");
        e.put("oversized request line", "414 414 431 400");
        e.put("HTTP/2 prior-knowledge preface", "400 400 505 400");
        e.put("Upgrade: h2c", "401 401 401 401");
        return e;
    }

    /** The answers {@link #EXPECTED} allows for front end number {@code index} in case {@code name}. */
    static Set<Integer> expected(String name, int index) {
        String row = EXPECTED.get(name);
        if (row == null) {
            return Set.of();
        }
        return Arrays.stream(row.split(" ")[index].split("\\|")).map(Integer::parseInt).collect(Collectors.toSet());
    }

    private final Map<String, DeliveryStack> stacks = new LinkedHashMap<>();
    private int ids;

    static List<FrontEnd.Factory> frontEnds() {
        return List.of(new NginxFrontEnd.Factory(), new ApacheFrontEnd(), new LighttpdFrontEnd(), new CaddyFrontEnd());
    }

    @AfterAll
    void stop() {
        stacks.values().forEach(DeliveryStack::close);
    }

    private DeliveryStack stack(FrontEnd.Factory fe) throws Exception {
        DeliveryStack s = stacks.get(fe.name());
        if (s == null) {
            String suite = "desync-" + fe.name();
            s = DeliveryStack.start(suite, MediaFixture.create(suite), Map.of("jmxName", "none"), fe, false);
            stacks.put(fe.name(), s);
        }
        return s;
    }

    private static String request(String target, String id, String more) {
        return "GET " + target + " HTTP/1.1\r\nHost: localhost\r\nAuthorization: " + BearerAuthFilter.AUTHORIZATION
                + "\r\nX-Request-Id: " + id + "\r\n" + more + "\r\n";
    }

    /** The smuggling cases: the first request's bytes, given the complete request to hide in its body. */
    static Map<String, Function<String, String>> cases() {
        String post = "POST " + SuiteApp.MAPPED_PREFIX + "small.txt HTTP/1.1\r\nHost: localhost\r\n";
        Map<String, Function<String, String>> c = new LinkedHashMap<>();
        c.put("CL.TE", s -> post + "Content-Length: " + (5 + s.length()) + "\r\nTransfer-Encoding: chunked\r\n\r\n"
                + "0\r\n\r\n" + s);
        c.put("TE.CL", s -> post + "Transfer-Encoding: chunked\r\nContent-Length: 4\r\n\r\n"
                + Integer.toHexString(s.length()) + "\r\n" + s + "\r\n0\r\n\r\n");
        c.put("duplicate Content-Length", s -> post + "Content-Length: 0\r\nContent-Length: " + s.length()
                + "\r\n\r\n" + s);
        c.put("obs-fold Transfer-Encoding", s -> post + "Content-Length: " + (5 + s.length())
                + "\r\nTransfer-Encoding:\r\n chunked\r\n\r\n0\r\n\r\n" + s);
        c.put("bare LF before Transfer-Encoding", s -> post + "X-Junk: a\nTransfer-Encoding: chunked\r\n"
                + "Content-Length: " + (5 + s.length()) + "\r\n\r\n0\r\n\r\n" + s);
        c.put("bare LF line endings", s -> post.replace("\r\n", "\n") + "Content-Length: " + s.length()
                + "\nTransfer-Encoding: chunked\n\n0\r\n\r\n" + s);
        c.put("Transfer-Encoding: chunked, identity", s -> post + "Content-Length: " + (5 + s.length())
                + "\r\nTransfer-Encoding: chunked, identity\r\n\r\n0\r\n\r\n" + s);
        c.put("Transfer-Encoding: xchunked", s -> post + "Content-Length: " + (5 + s.length())
                + "\r\nTransfer-Encoding: xchunked\r\n\r\n0\r\n\r\n" + s);
        c.put("Transfer-Encoding: identity, chunked", s -> post + "Transfer-Encoding: identity, chunked\r\n\r\n"
                + chunked(s));
        c.put("Transfer-Encoding: gzip, chunked", s -> post + "Transfer-Encoding: gzip, chunked\r\n\r\n" + chunked(s));
        c.put("Transfer-Encoding: chunked, chunked", s -> post + "Transfer-Encoding: chunked, chunked\r\n\r\n"
                + chunked(s));
        c.put("GET with Transfer-Encoding: identity, chunked", s -> "GET " + SuiteApp.MAPPED_PREFIX + "small.txt "
                + "HTTP/1.1\r\nHost: localhost\r\nTransfer-Encoding: identity, chunked\r\n\r\n" + chunked(s));
        c.put("space before the colon", s -> post + "Content-Length: " + (5 + s.length())
                + "\r\nTransfer-Encoding : chunked\r\n\r\n0\r\n\r\n" + s);
        c.put("malformed chunk size", s -> post + "Transfer-Encoding: chunked\r\n\r\nzz\r\n" + s + "\r\n0\r\n\r\n");
        c.put("overflowing chunk size", s -> post + "Transfer-Encoding: chunked\r\n\r\nfffffffffffffffff"
                + Integer.toHexString(s.length()) + "\r\n" + s + "\r\n0\r\n\r\n");
        c.put("chunk size with 0x", s -> post + "Transfer-Encoding: chunked\r\n\r\n0x" + chunked(s));
        c.put("negative chunk size", s -> post + "Transfer-Encoding: chunked\r\n\r\n-" + chunked(s));
        c.put("chunk size with a trailing space", s -> post + "Transfer-Encoding: chunked\r\n\r\n"
                + Integer.toHexString(s.length()) + " \r\n" + s + "\r\n0\r\n\r\n");
        c.put("chunk data longer than its size", s -> post + "Transfer-Encoding: chunked\r\n\r\n4\r\n" + s
                + "\r\n0\r\n\r\n");
        // valid by RFC 9112 7.1 (chunk-size = 1*HEXDIG): Go's parser refuses more than 16 digits
        c.put("chunk size with 20 leading zeros", s -> post + "Transfer-Encoding: chunked\r\n\r\n"
                + "0".repeat(20) + chunked(s));
        c.put("chunk extension over 4 KiB", s -> post + "Transfer-Encoding: chunked\r\n\r\n"
                + Integer.toHexString(s.length()) + ";x=" + "a".repeat(5000) + "\r\n" + s + "\r\n0\r\n\r\n");
        c.put("oversized request header", s -> "GET " + SuiteApp.MAPPED_PREFIX + "small.txt HTTP/1.1\r\nHost: "
                + "localhost\r\nX-Big: " + "a".repeat(OVERSIZED) + "\r\n\r\n");
        c.put("oversized request line", s -> "GET " + SuiteApp.MAPPED_PREFIX + "small.txt?x=" + "a".repeat(OVERSIZED)
                + " HTTP/1.1\r\nHost: localhost\r\n\r\n");
        // HTTP/2 on a cleartext port: a server that speaks it reads what follows as frames
        c.put("HTTP/2 prior-knowledge preface", s -> "PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n" + s);
        c.put("Upgrade: h2c", s -> "GET " + SuiteApp.MAPPED_PREFIX + "small.txt HTTP/1.1\r\nHost: localhost\r\n"
                + "Connection: Upgrade, HTTP2-Settings\r\nUpgrade: h2c\r\nHTTP2-Settings: AAMAAABkAAQAoAAAAAIAAAAA"
                + "\r\n\r\n" + s);
        return c;
    }

    /** {@code s} as one chunk and the last chunk. */
    private static String chunked(String s) {
        return Integer.toHexString(s.length()) + "\r\n" + s + "\r\n0\r\n\r\n";
    }

    /** One case's outcome. */
    record Outcome(String frontEnd, String name, int firstStatus, int answers, boolean smuggled, String note) {
    }

    @Test
    void noFrontEndLetsASmuggledRequestReachTheContainer() throws Exception {
        List<Outcome> outcomes = new ArrayList<>();
        List<String> wrong = new ArrayList<>();
        List<FrontEnd.Factory> frontEnds = frontEnds();
        for (int index = 0; index < frontEnds.size(); index++) {
            FrontEnd.Factory fe = frontEnds.get(index);
            DeliveryStack s = stack(fe);
            for (Map.Entry<String, Function<String, String>> c : cases().entrySet()) {
                String tag = fe.name() + "-" + (++ids);
                String smuggledId = "smuggled-" + tag;
                String followId = "follow-" + tag;
                String hidden = request(SuiteApp.MAPPED_PREFIX + "song.mp3", smuggledId, "");
                String raw = c.getValue().apply(hidden)
                        + request(SuiteApp.MAPPED_PREFIX + "small.txt", followId, "Connection: close\r\n");
                byte[] answer = exchange(s.frontEndPort(), raw.getBytes(StandardCharsets.ISO_8859_1));
                List<Integer> statuses = statuses(answer);
                // a fresh request through the same front end gets its own file: nothing left on an upstream
                String sentinelId = "sentinel-" + tag;
                RawHttp.Response sentinel = RawHttp.get(SuiteApp.MAPPED_PREFIX + "small.txt")
                        .header("Authorization", BearerAuthFilter.AUTHORIZATION).header("X-Request-Id", sentinelId)
                        .send(s.frontEndPort());
                assertEquals(200, sentinel.status(), fe.name() + " " + c.getKey() + ": sentinel " + sentinel);
                assertArrayEquals(s.media.content("small.txt"), sentinel.body(), fe.name() + " " + c.getKey());
                Poll.first(Duration.ofSeconds(5), () -> OffloadRecorder.answer(sentinelId)).orElseThrow();
                Optional<OffloadRecorder.Answer> hiddenSeen = OffloadRecorder.answer(smuggledId);
                boolean smuggled = hiddenSeen.isPresent()
                        && !hiddenSeen.get().requestHeaders().containsKey("x-sendfile-type");
                int first = statuses.isEmpty() ? -1 : statuses.get(0);
                String note = hiddenSeen.isPresent() && !smuggled ? "the front end read the hidden request as the "
                        + "client's next one (with its marker)" : "";
                Outcome o = new Outcome(fe.name(), c.getKey(), first, statuses.size(), smuggled, note);
                outcomes.add(o);
                if (smuggled) {
                    wrong.add(o + ": the container answered a request the front end never parsed");
                }
                Set<Integer> expected = expected(c.getKey(), index);
                if (!expected.contains(first)) {
                    wrong.add(o + ": expected " + expected);
                }
                if (first >= 500 && !FIVE_XX.contains(first)) {
                    wrong.add(o + ": a 5xx of the front end's own making");
                }
            }
        }
        StringBuilder table = new StringBuilder("| front end | case | first answer | answers on the connection "
                + "| smuggled | note |\n|---|---|---|---|---|---|\n");
        for (Outcome o : outcomes) {
            table.append("| ").append(o.frontEnd()).append(" | ").append(o.name()).append(" | ")
                    .append(o.firstStatus() == -1 ? "closed, no answer" : o.firstStatus()).append(" | ")
                    .append(o.answers()).append(" | ").append(o.smuggled() ? "**yes**" : "no").append(" | ")
                    .append(o.note()).append(" |\n");
        }
        Files.writeString(TestPaths.target().resolve("desync.md"), table, StandardCharsets.UTF_8);
        System.out.println(table);
        assertEquals(List.of(), wrong);
        assertFalse(outcomes.isEmpty());
        assertTrue(outcomes.size() == frontEnds().size() * cases().size());
    }

    /** The statuses of every response in {@code raw}, in order (heads only; bodies are skipped by their length). */
    static List<Integer> statuses(byte[] raw) {
        List<Integer> out = new ArrayList<>();
        String text = new String(raw, StandardCharsets.ISO_8859_1);
        int at = 0;
        while (at < text.length() && text.startsWith("HTTP/", at)) {
            int eol = text.indexOf("\r\n", at);
            int end = text.indexOf("\r\n\r\n", at);
            if (eol < 0 || end < 0) {
                break;
            }
            String[] line = text.substring(at, eol).split(" ");
            int status = Integer.parseInt(line[1]);
            out.add(status);
            String head = text.substring(at, end).toLowerCase(Locale.ROOT);
            int body = 0;
            int cl = head.indexOf("\r\ncontent-length:");
            if (cl >= 0 && status != 304 && status != 204) {
                body = Integer.parseInt(head.substring(cl + 17, head.indexOf("\r\n", cl + 2) < 0 ? head.length()
                        : head.indexOf("\r\n", cl + 2)).trim());
            } else if (head.contains("\r\ntransfer-encoding: chunked")) {
                int p = end + 4;
                while (true) {
                    int e = text.indexOf("\r\n", p);
                    if (e < 0) {
                        return out;
                    }
                    int size = Integer.parseInt(text.substring(p, e).split(";")[0].trim(), 16);
                    p = e + 2 + size + 2;
                    if (size == 0) {
                        break;
                    }
                }
                body = p - end - 6;
            }
            at = end + 4 + body;
        }
        return out;
    }

    /** Writes {@code raw} and reads until the front end closes (or stays silent for 3 s). */
    static byte[] exchange(int port, byte[] raw) throws IOException {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress("127.0.0.1", port), RawHttp.TIMEOUT_MILLIS);
            socket.setSoTimeout(3_000);
            ByteArrayOutputStream all = new ByteArrayOutputStream();
            try {
                socket.getOutputStream().write(raw);
                socket.getOutputStream().flush();
            } catch (SocketException closedEarly) {
                // refused while the rest was still being written: read its answer
            }
            InputStream in = socket.getInputStream();
            byte[] buf = new byte[16 * 1024];
            try {
                int n;
                while ((n = in.read(buf)) >= 0) {
                    all.write(buf, 0, n);
                }
            } catch (SocketTimeoutException | SocketException stopped) {
                // kept open (waiting for more) or reset after the answer: what arrived is the outcome
            }
            return all.toByteArray();
        }
    }
}
