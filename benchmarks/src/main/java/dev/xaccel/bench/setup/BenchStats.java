package dev.xaccel.bench.setup;

import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.function.Predicate;

import dev.xaccel.bench.client.Http;
import dev.xaccel.bench.run.BenchFailure;

/**
 * The BenchServer's {@code /_bench/stats}: lines {@code <name> <key> <value>} with the connectors' sampled maxima
 * and the XAccelFilter MBeans' counters. {@link #start()} resets the maxima and starts sampling, {@link #read()}
 * stops sampling and returns a snapshot.
 */
public final class BenchStats {

    /** One answer of the endpoint. */
    public record Snapshot(Map<String, String> values) {

        public Optional<String> get(String name, String key) {
            return Optional.ofNullable(values.get(name + " " + key));
        }

        public long number(String name, String key) {
            return Long.parseLong(get(name, key).orElseThrow(() -> new BenchFailure("no '" + name + " " + key
                    + "' in /_bench/stats")));
        }

        /** One line of the endpoint. */
        public record Entry(String name, String key, String value) {
        }

        /**
         * {@code key=value} (or {@code name key=value}) of the entries chosen, joined by {@code ", "}, in the
         * endpoint's order.
         */
        public String joined(Predicate<Entry> which, boolean withName) {
            StringBuilder sb = new StringBuilder();
            values.forEach((nameKey, value) -> {
                int blank = nameKey.indexOf(' ');
                Entry e = new Entry(nameKey.substring(0, blank), nameKey.substring(blank + 1), value);
                if (which.test(e)) {
                    sb.append(sb.length() == 0 ? "" : ", ").append(withName ? e.name() + " " : "").append(e.key())
                            .append('=').append(value);
                }
            });
            return sb.toString();
        }

        static Snapshot parse(String text) {
            Map<String, String> m = new LinkedHashMap<>();
            for (String line : text.lines().toList()) {
                String[] f = line.trim().split("\\s+");
                if (f.length == 3) {
                    m.put(f[0] + " " + f[1], f[2]);
                }
            }
            return new Snapshot(m);
        }
    }

    private final Http http;
    private final String url;

    public BenchStats(Http http, int tomcatPort) {
        this.http = http;
        this.url = "http://127.0.0.1:" + tomcatPort + "/_bench/stats";
    }

    public void start() {
        http.get(url + "?start");
    }

    public Snapshot read() {
        Http.Answer a = http.get(url);
        if (a.status() != 200) {
            throw new BenchFailure("/_bench/stats answered " + a.status());
        }
        return Snapshot.parse(new String(a.body(), StandardCharsets.UTF_8));
    }

    /**
     * Setup 16's counters (the {@code /receipts} filter's MBean): offloaded answers, and receipts that came back from
     * nginx (complete or aborted: a client wrk leaves mid-answer at its end is receipted too).
     */
    public record ReceiptCounts(long offloaded, long complete, long aborted) {

        /** Receipts that came back from nginx, complete or aborted. */
        public long receipted() {
            return complete + aborted;
        }

        /** What happened between {@code before} and this. */
        public ReceiptCounts since(ReceiptCounts before) {
            return new ReceiptCounts(offloaded - before.offloaded, complete - before.complete,
                    aborted - before.aborted);
        }
    }

    /** The {@code /receipts} filter's counters now. */
    public ReceiptCounts receiptCounts() {
        Snapshot s = read();
        String f = "filter/receipts";
        return new ReceiptCounts(s.number(f, "Offloaded"), s.number(f, "ReceiptsComplete"),
                s.number(f, "ReceiptsAborted"));
    }

    /**
     * The counters once every offload since {@code before} is receipted, or after {@code wait} ms: the last lines
     * are a buffer flush (nginx's flush=1s) and a read of the file away from the counters when the client stops.
     */
    public ReceiptCounts awaitReceipts(ReceiptCounts before, long wait) {
        long end = System.nanoTime() + wait * 1_000_000;
        ReceiptCounts now = receiptCounts();
        while (now.since(before).receipted() < now.since(before).offloaded() && System.nanoTime() < end) {
            dev.xaccel.bench.run.Sleep.millis(20);
            now = receiptCounts();
        }
        return now;
    }

    /** Milliseconds the BenchServer JVM's JIT compilers have worked since it started. */
    public long compilationMillis() {
        return read().number("jvm", "compilationMillis");
    }

    /** Requests that reached the application through setup 6 and were allowed: the /cached filter's Offloaded. */
    public long cachedBackendRequests() {
        return read().number("filter/cached", "Offloaded");
    }
}
