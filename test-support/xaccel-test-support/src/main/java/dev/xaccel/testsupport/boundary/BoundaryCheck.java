package dev.xaccel.testsupport.boundary;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;

import dev.xaccel.testsupport.RawHttp;

/**
 * Sends every target of a corpus through a front end as every caller and reports each response that carries a
 * byte of a file the application denies that caller: the differential test of the trust boundary. A file is
 * recognized by probes (slices from several offsets of its content), so a partial body or a body inside an error
 * page counts too.
 */
public final class BoundaryCheck {

    /** A caller: a name and the request headers that carry its credentials (none for anonymous). */
    public record Caller(String name, Map<String, String> headers) {
        public static Caller anonymous() {
            return new Caller("anonymous", Map.of());
        }
    }

    /**
     * A protected file: its name for reports, its content, and the callers that may read it.
     *
     * @param readers names of the callers the application allows to read it
     */
    public record Secret(String name, byte[] content, Set<String> readers) {
        public Secret {
            if (content.length < 16) {
                throw new IllegalArgumentException("a secret needs at least 16 bytes to be recognized: " + name);
            }
        }

        /**
         * Slices of 16 to 32 bytes at eight evenly spaced offsets, each moved forward to the first window of varied
         * bytes (a run of zeros or silence would match unrelated responses), without those another secret has too
         * (file headers such as PNG's are the same in every file of a kind).
         */
        List<byte[]> probes(List<Secret> all) {
            List<byte[]> probes = new ArrayList<>();
            for (byte[] p : candidates()) {
                boolean shared = false;
                for (Secret other : all) {
                    shared |= other != this && RawHttp.indexOf(other.content(), p, 0) >= 0;
                }
                if (!shared) {
                    probes.add(p);
                }
            }
            if (probes.isEmpty()) {
                throw new IllegalArgumentException("every slice of " + name + " is in another secret too");
            }
            return probes;
        }

        private List<byte[]> candidates() {
            int len = Math.min(32, content.length);
            List<byte[]> probes = new ArrayList<>();
            for (int eighth = 0; eighth < 8; eighth++) {
                int from = Math.min(content.length - len, content.length * eighth / 8);
                while (from + len < content.length && distinct(content, from, len) < len / 2) {
                    from++;
                }
                byte[] p = new byte[len];
                System.arraycopy(content, from, p, 0, len);
                probes.add(p);
            }
            return probes;
        }

        private static int distinct(byte[] b, int from, int len) {
            boolean[] seen = new boolean[256];
            int n = 0;
            for (int i = from; i < from + len; i++) {
                if (!seen[b[i] & 0xff]) {
                    seen[b[i] & 0xff] = true;
                    n++;
                }
            }
            return n;
        }
    }

    /** A response that carried a secret to a caller it is denied to. */
    public record Finding(String caller, String target, int status, String secret) {
        @Override
        public String toString() {
            return caller + " GET " + target + " -> " + status + " carried " + secret;
        }
    }

    /**
     * A 5xx answer: malformed input must get a precise 4xx, never a server error, from the front end, the filter or
     * the application behind them.
     */
    public record ServerError(String caller, String target, int status) {
        @Override
        public String toString() {
            return caller + " GET " + target + " -> " + status;
        }
    }

    /** What was sent and found: the leaks, and the answers with a 5xx status, each sorted by caller and target. */
    public record Result(int requests, Map<Integer, Integer> statuses, List<Finding> findings,
            List<ServerError> serverErrors) {
        /** One line for the test report, plus the first leaks and server errors. */
        public String summary(int maxFindings) {
            StringBuilder sb = new StringBuilder();
            sb.append(requests).append(" requests, statuses ").append(statuses).append(", ")
                    .append(findings.size()).append(" leaks");
            for (int i = 0; i < Math.min(maxFindings, findings.size()); i++) {
                sb.append("\n  ").append(findings.get(i));
            }
            for (int i = 0; i < Math.min(maxFindings, serverErrors.size()); i++) {
                sb.append("\n  server error: ").append(serverErrors.get(i));
            }
            return sb.toString();
        }
    }

    private static final int THREADS = 4;

    private BoundaryCheck() {
    }

    /**
     * @param port    the front end's loopback port
     * @param targets request targets, sent verbatim
     * @param callers every caller sends every target
     * @param secrets the protected files
     */
    public static Result run(int port, List<String> targets, List<Caller> callers, List<Secret> secrets)
            throws Exception {
        Map<Secret, List<byte[]>> probes = new LinkedHashMap<>();
        for (Secret s : secrets) {
            probes.put(s, s.probes(secrets));
        }
        List<Finding> findings = Collections.synchronizedList(new ArrayList<>());
        List<ServerError> serverErrors = Collections.synchronizedList(new ArrayList<>());
        Map<Integer, AtomicInteger> statuses = new java.util.concurrent.ConcurrentSkipListMap<>();
        ExecutorService pool = Executors.newFixedThreadPool(THREADS);
        try {
            List<Future<?>> done = new ArrayList<>();
            for (Caller caller : callers) {
                for (String target : targets) {
                    done.add(pool.submit(() -> {
                        RawHttp.Response r = RawHttp.get(target).headers(caller.headers()).send(port);
                        statuses.computeIfAbsent(r.status(), k -> new AtomicInteger()).incrementAndGet();
                        if (r.status() >= 500) {
                            serverErrors.add(new ServerError(caller.name(), target, r.status()));
                        }
                        for (Map.Entry<Secret, List<byte[]>> e : probes.entrySet()) {
                            if (!e.getKey().readers().contains(caller.name()) && carries(r.raw(), e.getValue())) {
                                findings.add(new Finding(caller.name(), target, r.status(), e.getKey().name()));
                            }
                        }
                        return null;
                    }));
                }
            }
            for (Future<?> f : done) {
                f.get();
            }
        } finally {
            pool.shutdownNow();
        }
        Map<Integer, Integer> counts = new LinkedHashMap<>();
        statuses.forEach((k, v) -> counts.put(k, v.get()));
        List<Finding> sorted = new ArrayList<>(findings);
        sorted.sort(java.util.Comparator.comparing(Finding::caller).thenComparing(Finding::target));
        List<ServerError> errors = new ArrayList<>(serverErrors);
        errors.sort(java.util.Comparator.comparing(ServerError::caller).thenComparing(ServerError::target));
        return new Result(callers.size() * targets.size(), counts, sorted, errors);
    }

    private static boolean carries(byte[] response, List<byte[]> probes) {
        for (byte[] p : probes) {
            if (RawHttp.indexOf(response, p, 0) >= 0) {
                return true;
            }
        }
        return false;
    }

    /** Content that no other file has: a name-derived prefix and seeded random bytes. */
    public static byte[] uniqueContent(String name, int size) {
        byte[] head = ("secret:" + name + ":").getBytes(StandardCharsets.UTF_8);
        byte[] out = new byte[Math.max(size, head.length + 64)];
        new java.util.Random(name.hashCode() * 31L + size).nextBytes(out);
        System.arraycopy(head, 0, out, 0, head.length);
        return out;
    }
}
