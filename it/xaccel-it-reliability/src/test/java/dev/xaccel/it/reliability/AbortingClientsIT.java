package dev.xaccel.it.reliability;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.xaccel.testsupport.LogCapture;
import dev.xaccel.testsupport.OpenFiles;
import dev.xaccel.testsupport.Poll;
import dev.xaccel.testsupport.TestPaths;
import dev.xaccel.testsupport.load.StreamingGet;
import dev.xaccel.testsupport.nginx.DocsNginx;
import dev.xaccel.testsupport.nginx.NginxServer;
import dev.xaccel.testsupport.servlet.BearerAuthFilter;
import dev.xaccel.testsupport.tomcat.EmbeddedTomcat;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import java.util.logging.Level;
import org.junit.jupiter.api.Test;

/**
 * Scenario 5: clients that abort. Thousands of downloads (plain, one range, several ranges) are aborted at random
 * points with a reset, straight to Tomcat (the filter copies the file itself) and through nginx (the filter answers
 * the offload, nginx sends). Afterwards the JVM's open descriptors are back to what they were, no descriptor holds
 * a file of the data root (no {@code FileChannel} left open), the filter's in-flight gauge
 * ({@code XAccelFilterMXBean.getInFlight()}, read over JMX) is back to 0 (and was above 0 while they ran), nginx's
 * workers hold no more descriptors than before, and neither Tomcat, the filter nor nginx logged a line per abort.
 */
class AbortingClientsIT {

    private static final int FILE_BYTES = 1 << 20;
    /** docs/nginx/xaccel.conf.template's upstream keepalive: idle connections nginx may keep to Tomcat. */
    private static final int KEEPALIVE = 16;

    @Test
    void abortedDownloadsLeaveNothingOpenBehind() throws Exception {
        Figures fig = new Figures("5-aborting-clients");
        int aborts = Figures.size(10_000, 50_000);
        DataRoot data = DataRoot.create("aborting", FILE_BYTES);
        try (LogCapture logs = LogCapture.of("");
                EmbeddedTomcat tomcat = EmbeddedTomcat.builder(TestPaths.freshDir("aborting/tomcat"))
                        .webapp(Node.app(data.dir, java.util.Map.of())).start();
                NginxServer nginx = DocsNginx.start("aborting", tomcat.port(), data.dir)) {
            FilterGauge gauge = new FilterGauge();
            long self = OpenFiles.self();
            for (int i = 0; i < 20; i++) {
                download(tomcat.port(), -1, i % 3);
                download(nginx.port(), -1, i % 3);
            }
            assertTrue(Poll.until(Duration.ofSeconds(10), () -> gauge.inFlight() == 0), "warm-up still in flight");
            long filesBefore = nonSockets(self);
            long socketsBefore = OpenFiles.sockets(self);
            int nginxFdsBefore = nginxFds(nginx);
            int errorLogBefore = nginx.errorLog().split("\n").length;
            long warningsBefore = logs.messages(Level.WARNING).size();

            Run direct = abortMany(tomcat.port(), aborts, gauge);
            Run proxied = abortMany(nginx.port(), aborts, gauge);

            boolean idle = Poll.until(Duration.ofSeconds(20), () -> gauge.inFlight() == 0);
            boolean noFile = Poll.until(Duration.ofSeconds(20), () -> OpenFiles.below(self, data.dir).isEmpty());
            // descriptors of files and pipes exactly as before (two of slack for the JVM's own, e.g. a jar opened);
            // sockets: at most the connections nginx keeps alive to Tomcat (the template's keepalive 16)
            boolean fdsBack = Poll.until(Duration.ofSeconds(30), Duration.ofMillis(200),
                    () -> nonSockets(self) <= filesBefore + 2 && OpenFiles.sockets(self) <= socketsBefore + KEEPALIVE);
            boolean nginxBack = Poll.until(Duration.ofSeconds(20), Duration.ofMillis(200),
                    () -> nginxFds(nginx) <= nginxFdsBefore + KEEPALIVE);
            List<String> warnings = logs.messages(Level.WARNING);
            int newWarnings = (int) (warnings.size() - warningsBefore);
            int errorLogLines = nginx.errorLog().split("\n").length - errorLogBefore;
            fig.put("aborted direct downloads", direct.aborted + " of " + aborts)
                    .put("aborted downloads through nginx", proxied.aborted + " of " + aborts)
                    .put("body bytes received before the aborts (direct, nginx)", direct.bytes + ", " + proxied.bytes)
                    .put("highest in-flight seen during the direct run", direct.maxInFlight)
                    .put("in-flight afterwards", gauge.inFlight())
                    .put("JVM descriptors other than sockets and directories before, after",
                            filesBefore + ", " + nonSockets(self))
                    .put("JVM sockets before, after", socketsBefore + ", " + OpenFiles.sockets(self))
                    .put("descriptors on data-root files afterwards", OpenFiles.below(self, data.dir).size())
                    .put("nginx worker descriptors before, after", nginxFdsBefore + ", " + nginxFds(nginx))
                    .put("WARNING+ log records of the JVM during the runs", newWarnings)
                    .put("nginx error log lines during the runs", errorLogLines)
                    .put("direct downloads served by the filter", gauge.get("ServedDirectly"))
                    .put("seconds (direct, nginx)", direct.seconds + ", " + proxied.seconds);
            assertEquals(aborts, direct.aborted, "direct downloads that ended otherwise: " + direct.odd);
            assertEquals(aborts, proxied.aborted, "downloads through nginx that ended otherwise: " + proxied.odd);
            assertTrue(direct.maxInFlight > 0, "the in-flight gauge never moved");
            assertTrue(idle, "in flight after every client went away: " + gauge.inFlight());
            assertTrue(noFile, "descriptors still open on data-root files: " + OpenFiles.below(self, data.dir));
            assertTrue(fdsBack, "JVM descriptors " + filesBefore + " (not sockets) and " + socketsBefore
                    + " sockets before, " + nonSockets(self) + " and " + OpenFiles.sockets(self) + " after: "
                    + OpenFiles.targets(self));
            assertTrue(nginxBack, "nginx worker descriptors " + nginxFdsBefore + " before, " + nginxFds(nginx));
            assertTrue(newWarnings <= 3, "a log flood: " + warnings);
            assertTrue(errorLogLines <= 3, "nginx error log flood: " + nginx.errorLog());
            StreamingGet.Result after = download(tomcat.port(), -1, 0);
            assertTrue(after.complete() && data.largeHash.equals(after.sha256()), "served afterwards: " + after);
        } finally {
            fig.write();
        }
    }

    /** What one batch of aborted downloads did. */
    private static final class Run {
        final LongAdder abortedCount = new LongAdder();
        final AtomicLong received = new AtomicLong();
        final List<String> odd = new java.util.concurrent.CopyOnWriteArrayList<>();
        long aborted;
        long bytes;
        long maxInFlight;
        long seconds;
    }

    private static Run abortMany(int port, int n, FilterGauge gauge) throws Exception {
        Run run = new Run();
        long t0 = System.nanoTime();
        ExecutorService pool = Executors.newFixedThreadPool(8);
        List<Future<?>> futures = new ArrayList<>();
        AtomicLong max = new AtomicLong();
        Thread sampler = new Thread(() -> {
            while (!Thread.currentThread().isInterrupted()) {
                max.accumulateAndGet(gauge.inFlight(), Math::max);
                if (!Poll.sleep(Duration.ofMillis(2))) {
                    return;
                }
            }
        });
        sampler.setDaemon(true);
        sampler.start();
        for (int i = 0; i < n; i++) {
            int kind = i % 3;
            futures.add(pool.submit(() -> {
                StreamingGet.Result r = download(port, ThreadLocalRandom.current().nextLong(FILE_BYTES / 2), kind);
                run.received.addAndGet(r.received());
                if (r.aborted() && (r.status() == 200 || r.status() == 206)) {
                    run.abortedCount.increment();
                } else if (run.odd.size() < 10) {
                    run.odd.add(r.toString());
                }
            }));
        }
        for (Future<?> f : futures) {
            f.get(120, TimeUnit.SECONDS);
        }
        pool.shutdown();
        sampler.interrupt();
        run.aborted = run.abortedCount.sum();
        run.bytes = run.received.get();
        run.maxInFlight = max.get();
        run.seconds = (System.nanoTime() - t0) / 1_000_000_000L;
        return run;
    }

    /** A download of the large file: whole, one range or three ranges; aborted after {@code abortAfter} bytes. */
    private static StreamingGet.Result download(int port, long abortAfter, int kind) {
        StreamingGet get = StreamingGet.of(port, "/library/" + DataRoot.LARGE)
                .header("Authorization", BearerAuthFilter.AUTHORIZATION).receiveBuffer(16 * 1024);
        if (kind == 1) {
            get.header("Range", "bytes=1000-");
        } else if (kind == 2) {
            get.header("Range", "bytes=0-99,5000-300000,400000-");
        }
        if (abortAfter >= 0) {
            get.abortAfter(abortAfter);
        }
        return get.run();
    }

    private static long nonSockets(long pid) {
        return OpenFiles.countNonDirectories(pid) - OpenFiles.sockets(pid);
    }

    private static int nginxFds(NginxServer nginx) {
        return nginx.workerPids().stream().mapToInt(OpenFiles::count).sum();
    }
}
