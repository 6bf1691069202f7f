package dev.xaccel.filter.internal.http;

import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * A file's validators as nginx computes them, the same whoever sends the file: the strong ETag of its size and
 * modification time, and {@code Last-Modified} in whole seconds (HTTP dates have no finer unit, and conditionals
 * compare at that precision).
 *
 * @param etag             the strong entity tag, quoted
 * @param lastModified     epoch milliseconds, a whole number of seconds
 * @param lastModifiedText {@code lastModified} as an IMF-fixdate (RFC 9110 §5.6.7), the header's value
 */
public record Validators(String etag, long lastModified, String lastModifiedText) {

    private static final DateTimeFormatter IMF_FIXDATE = DateTimeFormatter
            .ofPattern("EEE, dd MMM yyyy HH:mm:ss 'GMT'", Locale.US).withZone(ZoneOffset.UTC);

    /** Slots of {@link #of}'s memory, a power of two: a file served again finds its values formatted. */
    private static final int SLOTS = 1024;
    private static final AtomicReferenceArray<Known> KNOWN = new AtomicReferenceArray<>(SLOTS);

    /** The validators of one file identity as {@link #of} last formatted them. */
    private record Known(long size, long modifiedMillis, Validators validators) {
    }

    /** With the header's text formatted from {@code lastModified}. */
    public Validators(String etag, long lastModified) {
        this(etag, lastModified, IMF_FIXDATE.format(Instant.ofEpochMilli(lastModified)));
    }

    /**
     * The validators of a file of {@code size} bytes modified at {@code modifiedMillis}. Formatted once per file
     * identity: the values are a pure function of the two numbers, so a slot (chosen by them, overwritten by
     * another file's) is reused only when both are equal, and a changed file gets new values at once.
     */
    public static Validators of(long size, long modifiedMillis) {
        int slot = Long.hashCode(size * 31 + modifiedMillis) * 0x9E3779B9 >>> 22;
        Known known = KNOWN.getPlain(slot);
        if (known != null && known.size == size && known.modifiedMillis == modifiedMillis) {
            return known.validators;
        }
        Validators v = new Validators(ETags.strong(size, modifiedMillis), Math.floorDiv(modifiedMillis, 1000L) * 1000L);
        // a plain write: a reader seeing it sees a record of final fields, whole; losing a race costs a format
        KNOWN.setPlain(slot, new Known(size, modifiedMillis, v));
        return v;
    }
}
