package dev.xaccel.bench.server;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

import dev.xaccel.testsupport.TestPaths;
import dev.xaccel.testsupport.servlet.WebApp;
import dev.xaccel.testsupport.tomcat.EmbeddedTomcat;

/**
 * The offload hop in place, as the benchmark's setups 3 ({@code /accel}) and 12 ({@code /bare}) answer it: real
 * Tomcat, {@link AuthFilter} wrapping the request, then the real {@code XAccelFilter} in mapped mode
 * ({@code offload=auto}, nginx's marker from loopback) or {@link BareAccelServlet}'s fixed header, each request
 * one round trip on a kept-alive loopback connection (parse, filter chain, the answer's headers encoded and
 * written). {@link #accel} minus {@link #bare} is the filter's cost where the in-place figure is measured, beside
 * the {@code FilterHotPathBenchmark} figure without container. The client shares the JVM: compare the two, not
 * either alone.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
public class InPlaceOffloadBenchmark {

    private static final String TOKEN = "jmh-token";
    private static final String GATE = "jmh-gate";
    private static final String FILE = "small-000.bin";

    private Path dir;
    private EmbeddedTomcat tomcat;
    private Socket socket;
    private OutputStream out;
    private InputStream in;
    private final byte[] buffer = new byte[8192];
    private byte[] accelRequest;
    private byte[] bareRequest;

    @Setup(Level.Trial)
    public void setUp() throws IOException {
        dir = TestPaths.freshDir("jmh-in-place");
        Path data = Files.createDirectories(dir.resolve("data")).toRealPath();
        Files.write(data.resolve(FILE), new byte[50 * 1024]);
        Path empty = Files.createDirectories(dir.resolve("empty"));
        Map<String, String> params = new HashMap<>();
        params.put("mappings", "/files/ => " + data);
        params.put("locations", data + " => " + BenchServer.INTERNAL_PREFIX);
        params.put("offload", "auto");
        params.put("jmxName", "none");
        params.putAll(BenchServer.HOP_PARAMS);
        Map<String, String> auth = Map.of(AuthFilter.PARAM_TOKEN, TOKEN, AuthFilter.PARAM_WRAP, "true");
        tomcat = EmbeddedTomcat.builder(dir.resolve("tomcat"))
                // as BenchServer's filter contexts: the default servlet's 404 behind, so every path has a chain
                .webapp(WebApp.at("/accel").containerMimeMappings().filter("auth", AuthFilter.class.getName(), auth)
                        .xaccelFilter(params))
                .webapp(WebApp.at(BareAccelServlet.CONTEXT).filter("auth", AuthFilter.class.getName(), auth)
                        .servlet("/files/*", new BareAccelServlet(GATE)).defaultServlet(null))
                .start();
        // one connection for the whole run, as nginx's upstream keep-alive holds it (Tomcat's default closes at 100)
        tomcat.tomcat().getConnector().setProperty("maxKeepAliveRequests", "-1");
        accelRequest = request("/accel/files/" + FILE, "X-Sendfile-Type: X-Accel-Redirect\r\n");
        bareRequest = request(BareAccelServlet.CONTEXT + "/files/" + FILE,
                BareAccelServlet.GATE_HEADER + ": " + GATE + "\r\n");
        socket = new Socket(InetAddress.getLoopbackAddress(), tomcat.port());
        socket.setTcpNoDelay(true);
        out = socket.getOutputStream();
        in = socket.getInputStream();
        // the measured answers are the offloads both setups give nginx
        for (byte[] r : new byte[][] {accelRequest, bareRequest}) {
            String head;
            try {
                head = exchange(r);
            } catch (IOException e) {
                throw new IOException(new String(r, StandardCharsets.US_ASCII), e);
            }
            if (!head.startsWith("HTTP/1.1 200")
                    || !head.contains("X-Accel-Redirect: " + BenchServer.INTERNAL_PREFIX + FILE + "\r\n")) {
                throw new IllegalStateException("not offloaded: " + new String(r, StandardCharsets.US_ASCII) + head);
            }
        }
    }

    @TearDown(Level.Trial)
    public void tearDown() throws IOException {
        socket.close();
        tomcat.close();
        TestPaths.deleteRecursively(dir);
    }

    /** Setup 3's answer: auth, then the XAccelFilter's check and offload answer. */
    @Benchmark
    public int accel() throws IOException {
        return send(accelRequest);
    }

    /** Setup 12's answer: auth, then a fixed {@code X-Accel-Redirect}. */
    @Benchmark
    public int bare() throws IOException {
        return send(bareRequest);
    }

    private static byte[] request(String target, String extra) {
        return ("GET " + target + " HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer " + TOKEN + "\r\n" + extra
                + "\r\n").getBytes(StandardCharsets.US_ASCII);
    }

    /** One round trip; the answer is headers only ({@code Content-Length: 0}): read to their end. */
    private int send(byte[] request) throws IOException {
        out.write(request);
        int total = 0;
        while (true) {
            int n = in.read(buffer, total, buffer.length - total);
            if (n < 0) {
                throw new IOException("connection closed after " + total + " bytes: "
                        + new String(buffer, 0, total, StandardCharsets.ISO_8859_1));
            }
            total += n;
            if (total >= 4 && buffer[total - 4] == '\r' && buffer[total - 3] == '\n' && buffer[total - 2] == '\r'
                    && buffer[total - 1] == '\n') {
                return total;
            }
        }
    }

    private String exchange(byte[] request) throws IOException {
        int n = send(request);
        return new String(buffer, 0, n, StandardCharsets.ISO_8859_1);
    }
}
