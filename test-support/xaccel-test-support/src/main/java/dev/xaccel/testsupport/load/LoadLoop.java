package dev.xaccel.testsupport.load;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;

/**
 * Client threads that send the {@link Probe}s in turn, one connection per request, until stopped, and check every
 * answer: a wrong status, a short body or a wrong byte is a failure, recorded with what arrived. For "nothing fails
 * while ..." tests: start it, do something to the servers, stop it, assert {@link #failures()} is empty and that
 * enough requests got through (a loaded machine may serve few). Latencies are kept for the percentiles.
 */
public final class LoadLoop implements AutoCloseable {

    private static final int MAX_KEPT = 50;

    private final int port;
    private final List<Probe> probes;
    private final List<Thread> threads = new ArrayList<>();
    private final AtomicBoolean running = new AtomicBoolean(true);
    private final LongAdder requests = new LongAdder();
    private final AtomicLong failed = new AtomicLong();
    private final List<String> failures = new CopyOnWriteArrayList<>();
    private final Map<String, LongAdder> byProbe = new ConcurrentHashMap<>();
    private final long[][] latencies;
    private final int[] latencyCount;

    private LoadLoop(int port, List<Probe> probes, int clients) {
        this.port = port;
        this.probes = List.copyOf(probes);
        this.latencies = new long[clients][];
        this.latencyCount = new int[clients];
        for (int i = 0; i < clients; i++) {
            latencies[i] = new long[1024];
        }
    }

    /** Starts {@code clients} threads against 127.0.0.1:{@code port}; each begins at a different probe. */
    public static LoadLoop start(int port, List<Probe> probes, int clients) {
        LoadLoop loop = new LoadLoop(port, probes, clients);
        for (int i = 0; i < clients; i++) {
            int id = i;
            Thread t = new Thread(() -> loop.client(id), "load-" + i);
            t.setDaemon(true);
            loop.threads.add(t);
            t.start();
        }
        return loop;
    }

    private void client(int id) {
        int next = id;
        while (running.get()) {
            Probe p = probes.get(next++ % probes.size());
            long t0 = System.nanoTime();
            StreamingGet get = StreamingGet.of(port, p.target());
            p.headers().forEach(get::header);
            StreamingGet.Result r = get.run();
            record(id, System.nanoTime() - t0);
            requests.increment();
            byProbe.computeIfAbsent(p.name() + " " + r.status(), k -> new LongAdder()).increment();
            String wrong = p.wrong(r);
            if (wrong != null) {
                failed.incrementAndGet();
                if (failures.size() < MAX_KEPT) {
                    failures.add(wrong);
                }
            }
        }
    }

    private void record(int id, long nanos) {
        if (latencyCount[id] == latencies[id].length) {
            latencies[id] = Arrays.copyOf(latencies[id], latencies[id].length * 2);
        }
        latencies[id][latencyCount[id]++] = nanos;
    }

    /** Requests answered so far (correctly or not). */
    public long requests() {
        return requests.sum();
    }

    /** How many answers were wrong. */
    public long failed() {
        return failed.get();
    }

    /** The first wrong answers (up to 50), each with the probe's name and what arrived. */
    public List<String> failures() {
        return List.copyOf(failures);
    }

    /** Answers per {@code "<probe> <status>"}. */
    public Map<String, Long> counts() {
        Map<String, Long> out = new java.util.TreeMap<>();
        byProbe.forEach((k, v) -> out.put(k, v.sum()));
        return out;
    }

    /** Stops the threads (each finishes its current request) and waits for them, up to 60 s in all. */
    public void stop() {
        running.set(false);
        long deadline = System.nanoTime() + 60_000_000_000L;
        for (Thread t : threads) {
            try {
                t.join(Math.max(1, (deadline - System.nanoTime()) / 1_000_000L));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    /** The {@code p}-th percentile (0-100) of the latencies in milliseconds, after {@link #stop()}. */
    public double percentileMillis(double p) {
        int total = 0;
        for (int c : latencyCount) {
            total += c;
        }
        if (total == 0) {
            return Double.NaN;
        }
        long[] all = new long[total];
        int pos = 0;
        for (int i = 0; i < latencies.length; i++) {
            System.arraycopy(latencies[i], 0, all, pos, latencyCount[i]);
            pos += latencyCount[i];
        }
        Arrays.sort(all);
        int index = (int) Math.min(total - 1, Math.max(0, Math.ceil(p / 100.0 * total) - 1));
        return all[index] / 1e6;
    }

    @Override
    public void close() {
        stop();
    }
}
