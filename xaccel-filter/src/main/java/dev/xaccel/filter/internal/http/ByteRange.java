package dev.xaccel.filter.internal.http;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;

/**
 * One satisfiable byte range of a representation, {@code start} to {@code end} inclusive, and the parser for
 * the {@code Range} request header (RFC 9110 §14.1.2, §14.2).
 *
 * <p>{@link #parse(String, long)} answers:
 * <ul>
 * <li>{@code null}: ignore the header and send the whole representation (200). That is the answer for a
 * missing header, another range unit, invalid syntax (RFC 9110 allows ignoring), more than
 * {@link #MAX_RANGES} range-specs (like Apache's MaxRanges and nginx's max_ranges) and an empty
 * representation (no 206 can be formed).</li>
 * <li>an empty list: none of the ranges is satisfiable (416).</li>
 * <li>otherwise the satisfiable ranges sorted by start, with overlapping and adjacent ranges coalesced, so
 * the parts never overlap and their total never exceeds the length (no amplification).</li>
 * </ul>
 *
 * @param start first byte
 * @param end   last byte, inclusive
 */
public record ByteRange(long start, long end) {

    /** More range-specs than this and the {@code Range} header is ignored. */
    public static final int MAX_RANGES = 100;

    public ByteRange {
        if (start < 0 || end < start) {
            throw new IllegalArgumentException(start + "-" + end);
        }
    }

    public long length() {
        return end - start + 1;
    }

    /** The {@code Content-Range} value for this range of a representation of {@code total} bytes. */
    public String contentRange(long total) {
        return "bytes " + start + "-" + end + "/" + total;
    }

    /**
     * @param header the {@code Range} header value, may be {@code null}
     * @param length the representation length
     * @return {@code null} to ignore, an empty list for 416, or the coalesced ranges
     */
    public static List<ByteRange> parse(String header, long length) {
        if (header == null || length <= 0) {
            return null;
        }
        int eq = header.indexOf('=');
        if (eq < 0 || !header.substring(0, eq).trim().toLowerCase(Locale.ROOT).equals("bytes")) {
            return null;
        }
        List<ByteRange> ranges = new ArrayList<>();
        int specs = 0;
        for (String raw : header.substring(eq + 1).split(",", -1)) {
            String spec = raw.trim();
            if (spec.isEmpty()) {
                continue; // empty list elements are allowed by the list syntax
            }
            if (++specs > MAX_RANGES) {
                return null;
            }
            int dash = spec.indexOf('-');
            if (dash < 0) {
                return null;
            }
            String first = spec.substring(0, dash);
            String last = spec.substring(dash + 1);
            if (first.isEmpty()) {
                long suffix = digits(last);
                if (suffix < 0) {
                    return null;
                }
                if (suffix > 0) {
                    ranges.add(new ByteRange(Math.max(0, length - suffix), length - 1));
                }
            } else {
                long from = digits(first);
                if (from < 0) {
                    return null;
                }
                long to;
                if (last.isEmpty()) {
                    to = Long.MAX_VALUE;
                } else {
                    to = digits(last);
                    if (to < 0 || to < from) {
                        return null;
                    }
                }
                if (from < length) {
                    ranges.add(new ByteRange(from, Math.min(to, length - 1)));
                }
            }
        }
        if (specs == 0) {
            return null;
        }
        return coalesce(ranges);
    }

    private static List<ByteRange> coalesce(List<ByteRange> ranges) {
        if (ranges.size() <= 1) {
            return ranges;
        }
        ranges.sort((a, b) -> Long.compare(a.start, b.start));
        List<ByteRange> merged = new ArrayList<>();
        ByteRange current = ranges.get(0);
        for (int i = 1; i < ranges.size(); i++) {
            ByteRange next = ranges.get(i);
            if (next.start <= current.end + 1) {
                if (next.end > current.end) {
                    current = new ByteRange(current.start, next.end);
                }
            } else {
                merged.add(current);
                current = next;
            }
        }
        merged.add(current);
        return Collections.unmodifiableList(merged);
    }

    /** @return the non-negative value (saturating at Long.MAX_VALUE), or -1 if not 1*DIGIT */
    private static long digits(String s) {
        if (s.isEmpty()) {
            return -1;
        }
        long v = 0;
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c < '0' || c > '9') {
                return -1;
            }
            if (v > (Long.MAX_VALUE - 9) / 10) {
                v = Long.MAX_VALUE;
            } else {
                v = v * 10 + (c - '0');
            }
        }
        return v;
    }

    @Override
    public String toString() {
        return start + "-" + end;
    }
}
