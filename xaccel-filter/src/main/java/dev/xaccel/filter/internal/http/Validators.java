package dev.xaccel.filter.internal.http;

/**
 * A file's validators as nginx computes them, the same whoever sends the file: the strong ETag of its size and
 * modification time, and {@code Last-Modified} in whole seconds (HTTP dates have no finer unit, and conditionals
 * compare at that precision).
 *
 * @param etag         the strong entity tag, quoted
 * @param lastModified epoch milliseconds, a whole number of seconds
 */
public record Validators(String etag, long lastModified) {

    /** The validators of a file of {@code size} bytes modified at {@code modifiedMillis}. */
    public static Validators of(long size, long modifiedMillis) {
        return new Validators(ETags.strong(size, modifiedMillis), Math.floorDiv(modifiedMillis, 1000L) * 1000L);
    }
}
