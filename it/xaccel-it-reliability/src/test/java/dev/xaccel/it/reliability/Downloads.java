package dev.xaccel.it.reliability;

import dev.xaccel.testsupport.Poll;
import dev.xaccel.testsupport.load.StreamingGet;
import dev.xaccel.testsupport.servlet.BearerAuthFilter;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

/**
 * Several downloads of one file at once, each on a thread and connection of its own, hashed as they arrive: start
 * them, wait until every one is under way, do something to the servers, then collect what arrived.
 */
final class Downloads implements AutoCloseable {

    private final List<StreamingGet> gets = new ArrayList<>();
    private final List<CompletableFuture<StreamingGet.Result>> results = new ArrayList<>();
    private final ExecutorService pool;

    private Downloads(int n) {
        this.pool = Executors.newFixedThreadPool(n, r -> {
            Thread t = new Thread(r, "download");
            t.setDaemon(true);
            return t;
        });
    }

    /** {@code n} authorized GETs of {@code target} at {@code port}, read at {@code readRate} (0: full speed). */
    static Downloads start(int n, int port, String target, long readRate) {
        Downloads d = new Downloads(n);
        for (int i = 0; i < n; i++) {
            StreamingGet get = StreamingGet.of(port, target).header("Authorization", BearerAuthFilter.AUTHORIZATION)
                    .readRate(readRate).timeoutMillis(60_000);
            d.gets.add(get);
            d.results.add(CompletableFuture.supplyAsync(get::run, d.pool));
        }
        return d;
    }

    /** Waits until every download has received at least {@code bytes} (false after {@code timeout}). */
    boolean awaitUnderWay(long bytes, Duration timeout) {
        return Poll.until(timeout, Duration.ofMillis(50),
                () -> gets.stream().allMatch(g -> g.progress() >= bytes) || results.stream().allMatch(
                        CompletableFuture::isDone));
    }

    /** The smallest progress of all, for messages. */
    long leastProgress() {
        return gets.stream().mapToLong(StreamingGet::progress).min().orElse(0);
    }

    /** Every download's result, waiting up to {@code timeout} in all. */
    List<StreamingGet.Result> await(Duration timeout) throws Exception {
        List<StreamingGet.Result> out = new ArrayList<>();
        long deadline = System.nanoTime() + timeout.toNanos();
        for (CompletableFuture<StreamingGet.Result> f : results) {
            out.add(f.get(Math.max(1, deadline - System.nanoTime()), TimeUnit.NANOSECONDS));
        }
        return out;
    }

    @Override
    public void close() {
        pool.shutdownNow();
    }
}
