package dev.xaccel.bench.hotpath;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import jakarta.servlet.Filter;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletContext;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletRequest;
import jakarta.servlet.ServletResponse;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import dev.xaccel.filter.XAccel;

import dev.xaccel.testsupport.TestPaths;
import dev.xaccel.testsupport.servlet.TestFilterConfig;

import dev.xaccel.bench.server.BenchServer;

import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.infra.Blackhole;

/**
 * Per-request cost of the real {@code XAccelFilter}, without network or container:
 * <ul>
 * <li>{@link #offloadMapped}: mapped mode, {@code offload=auto}, request from 127.0.0.1 with the marker header:
 * URL prefix match, safe resolution of the file inside the root (file system calls), location match and the
 * {@code X-Accel-Redirect}/Content-Type headers;</li>
 * <li>{@link #offloadDeclared}: the same file declared by the application ({@code XAccel.sendFile} from the
 * chain, the way a servlet or controller hands over a file it authorized);</li>
 * <li>{@link #offloadMappedConfines}, {@link #offloadDeclaredConfines}: both with {@code frontEndConfines=true}
 * (nginx refuses links at open time, so only the file's own name is checked for one);</li>
 * <li>{@link #offloadMappedReceipts}: {@link #offloadMapped} with delivery receipts on
 * ({@code receipts=127.0.0.1:PORT}): the identifier (one AES block) and its waiting entry; no nginx answers here,
 * so past the bound of waiting entries each offload also reports the oldest unreceipted, which makes this an upper
 * bound of the receipt's cost;</li>
 * <li>{@link #offloadInPlace}: the request the benchmark's {@code /accel} context (setup 3) answers: a file at the
 * top of the root, {@link BenchServer#HOP_PARAMS} (no validators, nosniff or CSP written; handed off by the names
 * alone, no file-system call), for its figure beside the in-place one;</li>
 * <li>{@link #untouched}: a request under no mapping (the filter only passes it down the chain);</li>
 * <li>{@link #baselineChain}: the chain called directly, i.e. the cost of this harness.</li>
 * </ul>
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class FilterHotPathBenchmark {

    /** The in-place case's file, at the top of the root as the benchmark's {@code small-*.bin}. */
    private static final String IN_PLACE_FILE = "small-000.bin";

    private Path root;
    private Filter filter;
    private Filter confinesFilter;
    private Filter receiptsFilter;
    private Filter nginxFilter;
    private StubRequest offloadRequest;
    private StubRequest inPlaceRequest;
    private StubRequest declaredRequest;
    private StubRequest untouchedRequest;
    private StubResponse response;
    private FilterChain chain;
    private FilterChain declaringChain;

    @Setup(Level.Trial)
    public void setUp() throws Exception {
        root = Files.createTempDirectory("xaccel-jmh").toRealPath();
        Path dir = Files.createDirectories(root.resolve("Some Author/Some Book"));
        Files.write(dir.resolve("cover 042.jpg"), new byte[1024]);
        ServletContext context = Stubs.context("/app");
        filter = filter(context, "false");
        confinesFilter = filter(context, "true");
        receiptsFilter = filter(context, "false", "127.0.0.1:" + freeUdpPort());
        Files.write(root.resolve(IN_PLACE_FILE), new byte[1024]);
        nginxFilter = filter(context, BenchServer.HOP_PARAMS);
        inPlaceRequest = new StubRequest(context, "/app", "/library/" + IN_PLACE_FILE, null, "127.0.0.1")
                .header("X-Sendfile-Type", "X-Accel-Redirect");
        offloadRequest = new StubRequest(context, "/app", "/library/Some Author/Some Book/cover 042.jpg", null,
                "127.0.0.1").header("X-Sendfile-Type", "X-Accel-Redirect");
        declaredRequest = new StubRequest(context, "/app", "/api/covers/42", null, "127.0.0.1")
                .header("X-Sendfile-Type", "X-Accel-Redirect");
        untouchedRequest = new StubRequest(context, "/app", "/api/books/42", null, "127.0.0.1")
                .header("X-Sendfile-Type", "X-Accel-Redirect");
        response = new StubResponse();
        chain = new CountingChain();
        Path cover = dir.resolve("cover 042.jpg");
        declaringChain = (req, resp) -> XAccel.sendFile((HttpServletRequest) req, (HttpServletResponse) resp, cover);

        // Sanity check: the measured path really offloads, the untouched one really passes through.
        offloadMapped();
        String redirect = response.header("X-Accel-Redirect");
        if (redirect == null || !redirect.startsWith(BenchServer.INTERNAL_PREFIX)) {
            throw new IllegalStateException("filter did not offload: X-Accel-Redirect=" + redirect
                    + ", status=" + response.getStatus());
        }
        response.reset();
        offloadDeclared();
        String declared = response.header("X-Accel-Redirect");
        if (!redirect.equals(declared)) {
            throw new IllegalStateException("declared file not offloaded like the mapped one: X-Accel-Redirect="
                    + declared + ", status=" + response.getStatus());
        }
        response.reset();
        offloadMappedConfines();
        String confined = response.header("X-Accel-Redirect");
        response.reset();
        offloadDeclaredConfines();
        if (!redirect.equals(confined) || !redirect.equals(response.header("X-Accel-Redirect"))) {
            throw new IllegalStateException("frontEndConfines=true did not offload the same file: " + confined
                    + ", " + response.header("X-Accel-Redirect"));
        }
        response.reset();
        offloadMappedReceipts();
        if (!redirect.equals(response.header("X-Accel-Redirect")) || response.header("X-Xaccel-Receipt") == null) {
            throw new IllegalStateException("receipts=on did not offload the same file with an identifier: "
                    + response.header("X-Accel-Redirect") + ", " + response.header("X-Xaccel-Receipt"));
        }
        response.reset();
        offloadInPlace();
        if (!(BenchServer.INTERNAL_PREFIX + IN_PLACE_FILE).equals(response.header("X-Accel-Redirect"))
                || response.header("ETag") != null) {
            throw new IllegalStateException("the hop's parameters did not offload without validators: "
                    + response.header("X-Accel-Redirect") + ", ETag " + response.header("ETag"));
        }
        long before = CountingChain.calls;
        untouched(null);
        if (CountingChain.calls != before + 1) {
            throw new IllegalStateException("filter did not pass the untouched request down the chain");
        }
        Stubs.fallbackCalls = 0;
    }

    private Filter filter(ServletContext context, String frontEndConfines) throws Exception {
        return filter(context, frontEndConfines, "off");
    }

    private Filter filter(ServletContext context, String frontEndConfines, String receipts) throws Exception {
        return filter(context, Map.of("frontEndConfines", frontEndConfines, "receipts", receipts));
    }

    private Filter filter(ServletContext context, Map<String, String> more) throws Exception {
        Map<String, String> params = new HashMap<>(Map.of(
                "mappings", "/library/ => " + root,
                "locations", root + " => " + BenchServer.INTERNAL_PREFIX,
                "offload", "auto",
                "jmxName", "none"));
        params.putAll(more);
        Filter f = (Filter) Class.forName(BenchServer.FILTER_CLASS).getDeclaredConstructor().newInstance();
        f.init(new TestFilterConfig("xaccel", params, context));
        return f;
    }

    private static int freeUdpPort() throws IOException {
        try (java.net.DatagramSocket s = new java.net.DatagramSocket(0, java.net.InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        }
    }

    @TearDown(Level.Trial)
    public void tearDown() throws IOException {
        filter.destroy();
        confinesFilter.destroy();
        receiptsFilter.destroy();
        nginxFilter.destroy();
        if (Stubs.fallbackCalls > 0) {
            System.out.println("note: " + Stubs.fallbackCalls + " calls reached stub fallbacks");
        }
        TestPaths.deleteRecursively(root);
    }

    @Benchmark
    public StubResponse offloadMapped() throws IOException, ServletException {
        offloadRequest.reset();
        response.reset();
        filter.doFilter(offloadRequest, response, chain);
        return response;
    }

    @Benchmark
    public StubResponse offloadDeclared() throws IOException, ServletException {
        declaredRequest.reset();
        response.reset();
        filter.doFilter(declaredRequest, response, declaringChain);
        return response;
    }

    @Benchmark
    public StubResponse offloadMappedConfines() throws IOException, ServletException {
        offloadRequest.reset();
        response.reset();
        confinesFilter.doFilter(offloadRequest, response, chain);
        return response;
    }

    @Benchmark
    public StubResponse offloadDeclaredConfines() throws IOException, ServletException {
        declaredRequest.reset();
        response.reset();
        confinesFilter.doFilter(declaredRequest, response, declaringChain);
        return response;
    }

    @Benchmark
    public StubResponse offloadMappedReceipts() throws IOException, ServletException {
        offloadRequest.reset();
        response.reset();
        receiptsFilter.doFilter(offloadRequest, response, chain);
        return response;
    }

    @Benchmark
    public StubResponse offloadInPlace() throws IOException, ServletException {
        inPlaceRequest.reset();
        response.reset();
        nginxFilter.doFilter(inPlaceRequest, response, chain);
        return response;
    }

    @Benchmark
    public Object untouched(Blackhole bh) throws IOException, ServletException {
        untouchedRequest.reset();
        response.reset();
        filter.doFilter(untouchedRequest, response, chain);
        return response;
    }

    @Benchmark
    public Object baselineChain() throws IOException, ServletException {
        untouchedRequest.reset();
        response.reset();
        chain.doFilter(untouchedRequest, response);
        return response;
    }

    private static final class CountingChain implements FilterChain {
        static long calls;

        @Override
        public void doFilter(ServletRequest request, ServletResponse response) {
            calls++;
        }
    }
}
