package dev.xaccel.testsupport.load;

import java.util.Map;
import java.util.Set;

/**
 * One kind of request of a {@link LoadLoop} and what a correct answer is: a status among {@code statuses}, and for a
 * 2xx answer the whole announced body with a SHA-256 among {@code bodies} (empty: any body, as long as it is whole).
 *
 * @param name     for the report ({@code offloaded}, {@code 401}, ...)
 * @param target   the request target, sent verbatim
 * @param headers  request headers
 * @param statuses the statuses that count as correct
 * @param bodies   hex SHA-256 of the acceptable bodies of a 2xx answer; empty: not compared
 */
public record Probe(String name, String target, Map<String, String> headers, Set<Integer> statuses,
        Set<String> bodies) {

    public Probe {
        headers = Map.copyOf(headers);
        statuses = Set.copyOf(statuses);
        bodies = Set.copyOf(bodies);
    }

    /** A GET answered 200 with exactly the body of {@code sha256}. */
    public static Probe ok(String name, String target, Map<String, String> headers, String sha256) {
        return new Probe(name, target, headers, Set.of(200), Set.of(sha256));
    }

    /** A GET answered with {@code status} (any whole body). */
    public static Probe status(String name, String target, Map<String, String> headers, int status) {
        return new Probe(name, target, headers, Set.of(status), Set.of());
    }

    /** Why {@code r} is not a correct answer, or null when it is. */
    public String wrong(StreamingGet.Result r) {
        if (!statuses.contains(r.status())) {
            return name + ": " + r;
        }
        if (r.error() != null || (r.contentLength() >= 0 && r.received() != r.contentLength())) {
            return name + ": incomplete body: " + r;
        }
        if (r.status() / 100 == 2 && !bodies.isEmpty() && !bodies.contains(r.sha256())) {
            return name + ": wrong body (sha256 " + r.sha256() + "): " + r;
        }
        return null;
    }
}
