package dev.xaccel.filter.internal.delivery;

import java.util.Optional;

import dev.xaccel.filter.internal.body.CountedChannel;
import dev.xaccel.filter.internal.metrics.FilterStatistics;

/**
 * What an answer the filter sent itself came to: a body of so many bytes (0 for HEAD, 304, 412, 416), a body
 * handed to the container to send after the filter returned, a 404 because the file or object was gone, or a
 * failure answered with a bare 5xx. A value, so that no byte count doubles as a code.
 *
 * @param kind     which of the four
 * @param bytes    the body bytes written or handed to the container, 0 unless {@link Kind#BODY} or
 *                 {@link Kind#HANDED_OFF}
 * @param handOff  for {@link Kind#HANDED_OFF}, the channel that tells how far the container got when it closes it
 */
public record Sent(Kind kind, long bytes, Optional<CountedChannel> handOff) {

    /** The four ways a direct answer ends. */
    public enum Kind {
        /** The answer went out (its body may be empty). */
        BODY,
        /** The container sends the body after the filter has returned, from {@link Sent#handOff}. */
        HANDED_OFF,
        /** The file vanished or the store answered 404: 404 was sent. */
        NOT_FOUND,
        /** The file shrank before its first byte, or the store failed: a bare 5xx was sent. */
        FAILED
    }

    public static final Sent NOT_FOUND = new Sent(Kind.NOT_FOUND, 0, Optional.empty());
    public static final Sent FAILED = new Sent(Kind.FAILED, 0, Optional.empty());

    /** An answer whose body was {@code bytes} long. */
    public static Sent body(long bytes) {
        return new Sent(Kind.BODY, bytes, Optional.empty());
    }

    /** An answer whose body of {@code bytes} the container sends from {@code channel} after the filter returned. */
    static Sent handedOff(long bytes, CountedChannel channel) {
        return new Sent(Kind.HANDED_OFF, bytes, Optional.of(channel));
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
