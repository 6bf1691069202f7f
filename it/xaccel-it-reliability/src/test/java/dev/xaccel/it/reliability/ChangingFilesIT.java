package dev.xaccel.it.reliability;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.xaccel.testsupport.LogCapture;
import dev.xaccel.testsupport.Poll;
import dev.xaccel.testsupport.TestPaths;
import dev.xaccel.testsupport.load.LoadLoop;
import dev.xaccel.testsupport.load.Probe;
import dev.xaccel.testsupport.load.StreamingGet;
import dev.xaccel.testsupport.nginx.DocsNginx;
import dev.xaccel.testsupport.nginx.NginxServer;
import dev.xaccel.testsupport.servlet.BearerAuthFilter;
import dev.xaccel.testsupport.servlet.SuiteApp;
import dev.xaccel.testsupport.servlet.WebApp;
import dev.xaccel.testsupport.tomcat.EmbeddedTomcat;
import jakarta.servlet.Filter;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletRequest;
import jakarta.servlet.ServletResponse;
import jakarta.servlet.http.HttpServletRequest;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.logging.Level;
import org.junit.jupiter.api.Test;

/**
 * Scenario 6: files changing underneath, directly (the filter copies from the file it opened) and through nginx
 * (docs/nginx/xaccel.conf.template):
 * <ul>
 * <li>a file replaced atomically (a rename over it) again and again while clients download it: every answer is
 * one version, whole and byte-exact, never a mix;</li>
 * <li>a file truncated during a download: the connection ends before the announced length (the client can tell),
 * never a 200 with a silently short or padded body;</li>
 * <li>a file deleted after the application's decision: nginx answers 404; deleted during a direct download, the
 * download completes byte-exact from the file the filter holds open.</li>
 * </ul>
 */
class ChangingFilesIT {

    /** A request header naming a file of the root that {@link DeleteAfterDecision} deletes once the filter answered. */
    static final String DELETE_AFTER = "X-Test-Delete-After";

    @Test
    void everyClientGetsOneWholeVersionOrCanTellItDidNot() throws Exception {
        Figures fig = new Figures("6-changing-files");
        DataRoot data = DataRoot.create("changing", 64L << 20);
        WebApp app = SuiteApp.app(new BearerAuthFilter()).filter("delete-after", new DeleteAfterDecision(data.dir))
                .xaccelFilter(Node.filterParams(data.dir, Map.of()));
        try (LogCapture logs = LogCapture.of("");
                EmbeddedTomcat tomcat = EmbeddedTomcat.builder(TestPaths.freshDir("changing/tomcat")).webapp(app)
                        .start();
                NginxServer nginx = DocsNginx.start("changing", tomcat.port(), data.dir)) {
            replaced(data, tomcat.port(), nginx.port(), fig);
            truncated(data, tomcat.port(), "direct", fig);
            truncated(data, nginx.port(), "nginx", fig);
            deleted(data, tomcat.port(), nginx.port(), fig);
            fig.put("WARNING+ log records of the JVM", logs.messages(Level.WARNING));
        } finally {
            fig.write();
        }
    }

    private void replaced(DataRoot data, int direct, int proxied, Figures fig) throws Exception {
        Random random = new Random(6);
        Path v0 = data.file("version-0.data");
        Path v1 = data.file("version-1.data");
        DataRoot.write(v0, 1 << 20, random);
        DataRoot.write(v1, (1 << 20) + 4096, random);
        Path target = data.file("swapped.bin");
        Files.copy(v0, target);
        Set<String> versions = Set.of(StreamingGet.sha256(v0), StreamingGet.sha256(v1));
        Map<String, String> auth = Map.of("Authorization", BearerAuthFilter.AUTHORIZATION);
        Probe probe = new Probe("swapped", "/library/swapped.bin", auth, Set.of(200), versions);
        AtomicBoolean swapping = new AtomicBoolean(true);
        AtomicLong swaps = new AtomicLong();
        CompletableFuture<Void> swapper = CompletableFuture.runAsync(() -> {
            Path tmp = data.file("swapped.tmp");
            try {
                while (swapping.get()) {
                    Files.deleteIfExists(tmp);
                    Files.createLink(tmp, swaps.get() % 2 == 0 ? v1 : v0);
                    Files.move(tmp, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
                    swaps.incrementAndGet();
                    Thread.sleep(0, 200_000);
                }
            } catch (IOException | InterruptedException e) {
                throw new IllegalStateException(e);
            }
        });
        long requests = Figures.size(1_000, 10_000);
        try (LoadLoop straight = LoadLoop.start(direct, List.of(probe), 3);
                LoadLoop through = LoadLoop.start(proxied, List.of(probe), 3)) {
            assertTrue(Poll.until(Duration.ofSeconds(Figures.size(50, 240)), Duration.ofMillis(100),
                    () -> straight.requests() >= requests && through.requests() >= requests), "too few requests: "
                            + straight.requests() + " direct, " + through.requests() + " through nginx");
            straight.stop();
            through.stop();
            swapping.set(false);
            swapper.get();
            fig.put("atomic replacements during the downloads", swaps.get())
                    .put("downloads direct / through nginx", straight.requests() + " / " + through.requests())
                    .put("answers direct", straight.counts()).put("answers through nginx", through.counts())
                    .put("downloads that were not exactly one version", straight.failed() + through.failed());
            assertTrue(swaps.get() > 100, "too few replacements: " + swaps.get());
            assertEquals(List.of(), straight.failures(), "direct");
            assertEquals(List.of(), through.failures(), "through nginx");
        }
    }

    private void truncated(DataRoot data, int port, String how, Figures fig) throws Exception {
        Path file = data.file("truncated-" + how + ".bin");
        DataRoot.write(file, 64L << 20, new Random(how.hashCode()));
        StreamingGet get = StreamingGet.of(port, "/library/" + file.getFileName())
                .header("Authorization", BearerAuthFilter.AUTHORIZATION).readRate(16L << 20).receiveBuffer(16 * 1024);
        CompletableFuture<StreamingGet.Result> download = CompletableFuture.supplyAsync(get::run);
        assertTrue(Poll.until(Duration.ofSeconds(30), () -> get.progress() >= 2L << 20 || download.isDone()),
                "download not under way");
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.WRITE)) {
            ch.truncate(4L << 20);
        }
        StreamingGet.Result r = download.get();
        fig.put("truncated to 4 MiB during a 64 MiB download (" + how + ")", r);
        assertEquals(200, r.status(), r.toString());
        assertEquals(64L << 20, r.contentLength(), r.toString());
        assertTrue(r.received() < r.contentLength(), "a whole body of a truncated file? " + r);
        assertTrue(r.error() != null && r.error().startsWith("connection closed"), "the client cannot tell: " + r);
    }

    private void deleted(DataRoot data, int direct, int proxied, Figures fig) throws Exception {
        Path doomed = data.file("deleted-after.bin");
        Files.copy(data.file(DataRoot.small(3)), doomed);
        StreamingGet.Result r = StreamingGet.of(proxied, "/library/deleted-after.bin")
                .header("Authorization", BearerAuthFilter.AUTHORIZATION).header(DELETE_AFTER, "deleted-after.bin")
                .run();
        fig.put("deleted after the decision, through nginx", r.status());
        assertEquals(404, r.status(), r.toString());
        assertTrue(r.complete(), r.toString());
        assertTrue(Files.notExists(doomed));

        Path during = data.file("deleted-during.bin");
        DataRoot.write(during, 32L << 20, new Random(3));
        String sha = StreamingGet.sha256(during);
        StreamingGet get = StreamingGet.of(direct, "/library/deleted-during.bin")
                .header("Authorization", BearerAuthFilter.AUTHORIZATION).readRate(16L << 20).receiveBuffer(16 * 1024);
        CompletableFuture<StreamingGet.Result> download = CompletableFuture.supplyAsync(get::run);
        assertTrue(Poll.until(Duration.ofSeconds(30), () -> get.progress() >= 1L << 20 || download.isDone()));
        Files.delete(during);
        StreamingGet.Result whole = download.get();
        fig.put("deleted during a direct 32 MiB download", whole + (sha.equals(whole.sha256()) ? ", byte-exact" : ""));
        assertTrue(whole.complete(), whole.toString());
        assertEquals(sha, whole.sha256());
        StreamingGet.Result gone = StreamingGet.of(direct, "/library/deleted-during.bin")
                .header("Authorization", BearerAuthFilter.AUTHORIZATION).run();
        assertEquals(404, gone.status(), gone.toString());
    }

    /**
     * Deletes the file a request names in {@value #DELETE_AFTER} once the filters after it have answered, before the
     * answer leaves Tomcat: nginx then opens a file that the application's decision named and that is gone.
     */
    static final class DeleteAfterDecision implements Filter {
        private final Path root;

        DeleteAfterDecision(Path root) {
            this.root = root;
        }

        @Override
        public void doFilter(ServletRequest request, ServletResponse response, FilterChain chain)
                throws IOException, ServletException {
            chain.doFilter(request, response);
            String name = ((HttpServletRequest) request).getHeader(DELETE_AFTER);
            if (name != null && !name.contains("/")) {
                Files.deleteIfExists(root.resolve(name));
            }
        }
    }
}
