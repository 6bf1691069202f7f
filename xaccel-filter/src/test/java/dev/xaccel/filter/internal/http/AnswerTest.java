package dev.xaccel.filter.internal.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.mockito.ArgumentMatchers.anyString;
import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.when;

import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import jakarta.servlet.http.HttpServletRequest;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The one decision of what a file request's conditional and Range headers make of the answer, in RFC 9110 order,
 * from the validators and size alone: the filter's own answers and the offload path take it alike.
 */
class AnswerTest {

    static final long SIZE = 8;
    static final long MODIFIED = 1_700_000_000_000L;
    static final Validators FILE = Validators.of(SIZE, MODIFIED + 789);
    static final String ETAG = FILE.etag();
    static final String LAST_MODIFIED = date(MODIFIED);
    static final String EARLIER = date(MODIFIED - 1000);
    static final String LATER = date(MODIFIED + 1000);

    static String date(long millis) {
        return DateTimeFormatter.RFC_1123_DATE_TIME.format(Instant.ofEpochMilli(millis).atOffset(ZoneOffset.UTC));
    }

    /** A request as a container presents it: {@code getDateHeader} -1 when absent, throwing on garbage. */
    static HttpServletRequest request(String method, String... headers) {
        Map<String, String> h = new LinkedHashMap<>();
        for (int i = 0; i < headers.length; i += 2) {
            h.put(headers[i], headers[i + 1]);
        }
        HttpServletRequest req = mock(HttpServletRequest.class);
        when(req.getMethod()).thenReturn(method);
        when(req.getHeader(anyString())).thenAnswer(i -> h.get(i.getArgument(0, String.class)));
        when(req.getHeaders(anyString())).thenAnswer(i -> {
            String v = h.get(i.getArgument(0, String.class));
            return Collections.enumeration(v == null ? List.of() : List.of(v));
        });
        when(req.getDateHeader(anyString())).thenAnswer(i -> {
            String v = h.get(i.getArgument(0, String.class));
            if (v == null) {
                return -1L;
            }
            try {
                return Instant.from(DateTimeFormatter.RFC_1123_DATE_TIME.parse(v)).toEpochMilli();
            } catch (DateTimeParseException e) {
                throw new IllegalArgumentException(v, e);
            }
        });
        return req;
    }

    static Answer.Kind kind(String method, String... headers) {
        return Answer.of(request(method, headers), FILE, SIZE).kind();
    }

    @Test
    void noConditionNoRangeIsTheWholeFile() {
        Answer a = Answer.of(request("GET"), FILE, SIZE);
        assertEquals(Answer.Kind.WHOLE, a.kind());
        assertTrue(a.sendsFile());
        assertEquals(List.of(), a.ranges());
    }

    /**
     * {@link Answer#needsFile}: false only when {@link Answer#of} is the whole file whatever the file (a hand-off by
     * the names alone relies on it); each header {@code of} reads makes it true, {@code If-Range} only with a range.
     */
    @Test
    void needsFileIsFalseOnlyWhenTheAnswerIsTheWholeFileWhateverTheFile() {
        List<Validators> files = List.of(FILE, Validators.of(0, 0), Validators.of(1 << 20, MODIFIED - 86_400_000L));
        List<String[]> requests = List.of(new String[0], new String[] {"If-Range", ETAG},
                new String[] {"If-Range", EARLIER}, new String[] {"Accept", "*/*"},
                new String[] {"If-Match", "\"nope\""}, new String[] {"If-None-Match", ETAG},
                new String[] {"If-Modified-Since", LATER}, new String[] {"If-Unmodified-Since", EARLIER},
                new String[] {"Range", "bytes=0-1"}, new String[] {"Range", "bytes=999999-"});
        for (String method : List.of("GET", "HEAD")) {
            for (String[] headers : requests) {
                HttpServletRequest req = request(method, headers);
                boolean needs = Answer.needsFile(req);
                assertEquals(headers.length > 0 && !headers[0].startsWith("If-Range") && !headers[0].equals("Accept"),
                        needs, String.join(": ", headers));
                if (!needs) {
                    for (Validators v : files) {
                        assertEquals(Answer.WHOLE_FILE, Answer.of(req, v, v == FILE ? SIZE : 0));
                    }
                }
            }
        }
    }

    @Test
    void ifMatchAndIfUnmodifiedSince() {
        assertEquals(Answer.Kind.PRECONDITION_FAILED, kind("GET", "If-Match", "\"nope\""));
        assertEquals(Answer.Kind.WHOLE, kind("GET", "If-Match", ETAG));
        assertEquals(Answer.Kind.WHOLE, kind("GET", "If-Match", "\"nope\", " + ETAG));
        assertEquals(Answer.Kind.WHOLE, kind("GET", "If-Match", "*"));
        assertEquals(Answer.Kind.PRECONDITION_FAILED, kind("GET", "If-Match", "W/" + ETAG), "strong comparison");
        assertEquals(Answer.Kind.PRECONDITION_FAILED,
                kind("GET", "If-Unmodified-Since", "Thu, 01 Jan 1970 00:00:00 GMT"));
        assertEquals(Answer.Kind.PRECONDITION_FAILED, kind("GET", "If-Unmodified-Since", EARLIER));
        assertEquals(Answer.Kind.WHOLE, kind("GET", "If-Unmodified-Since", LAST_MODIFIED));
        assertEquals(Answer.Kind.WHOLE, kind("GET", "If-Unmodified-Since", "garbage"), "an invalid date is ignored");
        assertEquals(Answer.Kind.WHOLE, kind("GET", "If-Match", ETAG, "If-Unmodified-Since", EARLIER),
                "If-Unmodified-Since only without If-Match");
    }

    @Test
    void ifNoneMatchAndIfModifiedSince() {
        assertEquals(Answer.Kind.NOT_MODIFIED, kind("GET", "If-None-Match", ETAG));
        assertEquals(Answer.Kind.NOT_MODIFIED, kind("HEAD", "If-None-Match", "W/" + ETAG), "weak comparison");
        assertEquals(Answer.Kind.NOT_MODIFIED, kind("GET", "If-None-Match", "*"));
        assertEquals(Answer.Kind.PRECONDITION_FAILED, kind("POST", "If-None-Match", ETAG), "not GET or HEAD");
        assertEquals(Answer.Kind.WHOLE, kind("GET", "If-None-Match", "\"other\""));
        assertEquals(Answer.Kind.NOT_MODIFIED, kind("GET", "If-Modified-Since", LAST_MODIFIED), "equal");
        assertEquals(Answer.Kind.NOT_MODIFIED, kind("GET", "If-Modified-Since", LATER), "later");
        assertEquals(Answer.Kind.WHOLE, kind("GET", "If-Modified-Since", EARLIER));
        assertEquals(Answer.Kind.WHOLE, kind("GET", "If-Modified-Since", "garbage"));
        assertEquals(Answer.Kind.WHOLE, kind("POST", "If-Modified-Since", LATER), "GET and HEAD only");
        assertEquals(Answer.Kind.WHOLE, kind("GET", "If-None-Match", "\"other\"", "If-Modified-Since", LATER),
                "If-Modified-Since only without If-None-Match");
    }

    @Test
    void thePreconditionsComeBeforeTheRange() {
        assertEquals(Answer.Kind.PRECONDITION_FAILED, kind("GET", "If-Match", "\"nope\"", "Range", "bytes=-0"));
        assertEquals(Answer.Kind.NOT_MODIFIED, kind("GET", "If-None-Match", ETAG, "Range", "bytes=999999-"));
        assertEquals(Answer.Kind.PRECONDITION_FAILED, kind("GET", "If-Match", "\"nope\"", "If-None-Match", ETAG),
                "If-Match first");
    }

    @ParameterizedTest
    @CsvSource({"bytes=-0", "bytes=8-", "bytes=999999-", "bytes=8-9,20-30", "BYTES=100-200"})
    void aRangeOutsideTheFileIsNotSatisfiable(String range) {
        Answer a = Answer.of(request("GET", "Range", range), FILE, SIZE);
        assertEquals(Answer.Kind.RANGE_NOT_SATISFIABLE, a.kind(), range);
        assertFalse(a.sendsFile());
        assertEquals(Answer.Kind.RANGE_NOT_SATISFIABLE, kind("HEAD", "Range", range));
    }

    @Test
    void satisfiableRangesAreTheFrontEndsPart() {
        Answer a = Answer.of(request("GET", "Range", "bytes=2-3,-1"), FILE, SIZE);
        assertEquals(Answer.Kind.PARTIAL, a.kind());
        assertTrue(a.sendsFile());
        assertEquals(List.of(new ByteRange(2, 3), new ByteRange(7, 7)), a.ranges());
        assertEquals(Answer.Kind.PARTIAL, kind("GET", "Range", "bytes=-0,0-0"), "one satisfiable range is enough");
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "POST | Range    | bytes=-0",
        "GET  | Range    | items=0-1",
        "GET  | Range    | bytes=5-2",
        "GET  | Range    | bytes=abc",
    })
    void anIgnoredRangeIsTheWholeFile(String method, String name, String value) {
        assertEquals(Answer.Kind.WHOLE, kind(method.trim(), name.trim(), value.trim()));
    }

    @Test
    void ifRangeDecidesWhetherTheRangeCountsAtAll() {
        assertEquals(Answer.Kind.RANGE_NOT_SATISFIABLE, kind("GET", "Range", "bytes=-0", "If-Range", ETAG));
        assertEquals(Answer.Kind.WHOLE, kind("GET", "Range", "bytes=-0", "If-Range", "\"stale\""),
                "a stale If-Range asks for the whole file, not a 416");
        assertEquals(Answer.Kind.PARTIAL, kind("GET", "Range", "bytes=0-0", "If-Range", LAST_MODIFIED));
        assertEquals(Answer.Kind.WHOLE, kind("GET", "Range", "bytes=0-0", "If-Range", EARLIER));
    }

    @Test
    void anEmptyFileHasNoRanges() {
        assertEquals(Answer.Kind.WHOLE, Answer.of(request("GET", "Range", "bytes=-0"), Validators.of(0, MODIFIED), 0)
                .kind());
    }
}
