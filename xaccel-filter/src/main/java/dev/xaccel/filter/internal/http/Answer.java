package dev.xaccel.filter.internal.http;

import java.util.List;

import jakarta.servlet.http.HttpServletRequest;

/**
 * What a request's conditional and {@code Range} headers make of the answer with one file, decided from the file's
 * validators and size alone, before a byte of it is read: as Jetty's {@code ResourceService}, the preconditions
 * first ({@link Preconditions}, RFC 9110 §13.2.2 order), then the ranges ({@code If-Range}, {@link ByteRange}).
 * The same decision serves the filter's own answers and the offload path: a 304, 412 or 416 is the filter's answer
 * whoever would send the file, so every front end answers alike.
 *
 * @param kind   which answer
 * @param ranges the satisfiable ranges for {@link Kind#PARTIAL}, sorted and coalesced; empty otherwise
 */
public record Answer(Kind kind, List<ByteRange> ranges) {

    /** The answers a file request can get. */
    public enum Kind {
        /** 200 with the whole file: no {@code Range}, or one that is ignored (invalid, not GET/HEAD, If-Range). */
        WHOLE,
        /** 206 with {@link #ranges}. */
        PARTIAL,
        /** 304 with the validators: {@code If-None-Match} or {@code If-Modified-Since} of a GET or HEAD. */
        NOT_MODIFIED,
        /** 412: {@code If-Match} or {@code If-Unmodified-Since} failed (or {@code If-None-Match} of another method). */
        PRECONDITION_FAILED,
        /** 416 with {@code Content-Range: bytes *}{@code /size}: no range asked for lies in the file. */
        RANGE_NOT_SATISFIABLE
    }

    /** The whole file: what {@link #of} answers a request for which {@link #needsFile} is false. */
    public static final Answer WHOLE_FILE = new Answer(Kind.WHOLE, List.of());
    private static final Answer NOT_MODIFIED = new Answer(Kind.NOT_MODIFIED, List.of());
    private static final Answer PRECONDITION_FAILED = new Answer(Kind.PRECONDITION_FAILED, List.of());
    private static final Answer NOT_SATISFIABLE = new Answer(Kind.RANGE_NOT_SATISFIABLE, List.of());

    public Answer {
        ranges = List.copyOf(ranges);
    }

    /**
     * @param validators the file's, those the answer will carry
     * @param size       the file's length in bytes
     */
    public static Answer of(HttpServletRequest req, Validators validators, long size) {
        switch (Preconditions.evaluate(req, validators.etag(), validators.lastModified())) {
            case PRECONDITION_FAILED:
                return PRECONDITION_FAILED;
            case NOT_MODIFIED:
                return NOT_MODIFIED;
            default:
                break;
        }
        String range = req.getHeader("Range");
        if (range == null || !Preconditions.isGetOrHead(req)
                || !Preconditions.checkIfRange(req, validators.etag(), validators.lastModified())) {
            return WHOLE_FILE;
        }
        List<ByteRange> ranges = ByteRange.parse(range, size);
        if (ranges == null) {
            return WHOLE_FILE;
        }
        return ranges.isEmpty() ? NOT_SATISFIABLE : new Answer(Kind.PARTIAL, ranges);
    }

    /**
     * Whether {@link #of} needs the file's validators or size for this request: it has a conditional header
     * ({@link Preconditions}) or a {@code Range} ({@code If-Range} counts only with one). Without them the answer is
     * {@link #WHOLE_FILE}, whatever the file.
     */
    public static boolean needsFile(HttpServletRequest req) {
        return req.getHeader("Range") != null || req.getHeader("If-None-Match") != null
                || req.getHeader("If-Modified-Since") != null || req.getHeader("If-Match") != null
                || req.getHeader("If-Unmodified-Since") != null;
    }

    /** Whether the answer carries bytes of the file (200 or 206); otherwise it is the status alone. */
    public boolean sendsFile() {
        return kind == Kind.WHOLE || kind == Kind.PARTIAL;
    }
}
