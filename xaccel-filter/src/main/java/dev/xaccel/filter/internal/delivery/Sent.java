package dev.xaccel.filter.internal.delivery;

import dev.xaccel.filter.internal.metrics.FilterStatistics;

/**
 * What an answer the filter sent itself came to: a body of so many bytes (0 for HEAD, 304, 412, 416), a 404
 * because the file or object was gone, or a failure answered with a bare 5xx. A value, so that no byte count
 * doubles as a code.
 *
 * @param kind  which of the three
 * @param bytes the body bytes written or handed to the container, 0 unless {@link Kind#BODY}
 */
public record Sent(Kind kind, long bytes) {

    /** The three ways a direct answer ends. */
    public enum Kind {
        /** The answer went out (its body may be empty). */
        BODY,
        /** The file vanished or the store answered 404: 404 was sent. */
        NOT_FOUND,
        /** The file shrank before its first byte, or the store failed: a bare 5xx was sent. */
        FAILED
    }

    public static final Sent NOT_FOUND = new Sent(Kind.NOT_FOUND, 0);
    public static final Sent FAILED = new Sent(Kind.FAILED, 0);

    /** An answer whose body was {@code bytes} long. */
    public static Sent body(long bytes) {
        return new Sent(Kind.BODY, bytes);
    }

    /** Counts this answer in the filter's statistics. */
    void countIn(FilterStatistics stats) {
        switch (kind) {
            case NOT_FOUND -> stats.notFound.increment();
            case FAILED -> stats.rejected.increment();
            default -> {
                stats.servedDirectly.increment();
                stats.bytesServedDirectly.add(bytes);
            }
        }
    }
}
