package dev.xaccel.filter;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;
import static org.mockito.ArgumentMatchers.anyInt;
import static org.mockito.ArgumentMatchers.anyString;
import static org.mockito.ArgumentMatchers.eq;
import static org.mockito.Mockito.atLeastOnce;
import static org.mockito.Mockito.doAnswer;
import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.never;
import static org.mockito.Mockito.verify;
import static org.mockito.Mockito.when;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.logging.Level;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletContext;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import dev.xaccel.filter.internal.config.Placeholders;
import dev.xaccel.filter.internal.config.XAccelConfig;
import dev.xaccel.filter.internal.delivery.DeclaredState;
import dev.xaccel.filter.internal.delivery.OffloadDecision;
import dev.xaccel.filter.internal.delivery.OffloadHeaders;
import dev.xaccel.filter.internal.delivery.OffloadResponseWrapper;
import dev.xaccel.filter.internal.fs.Resolution;
import dev.xaccel.testsupport.LogCapture;
import dev.xaccel.testsupport.servlet.TestFilterConfig;

/** doFilter units: Mockito request/response (servlet interfaces only) and lambda chains. */
class XAccelFilterTest {

    @TempDir
    static Path tmp;
    static Path media;

    private LogCapture log;

    @BeforeAll
    static void files() throws IOException {
        media = Files.createDirectories(tmp.resolve("media"));
        Files.writeString(media.resolve("song.mp3"), "music");
        Files.writeString(media.resolve("a b?.mp3"), "music");
    }

    @BeforeEach
    void captureLogs() {
        log = LogCapture.exclusive(XAccelFilter.class.getPackageName());
    }

    @AfterEach
    void releaseLogs() {
        log.close();
    }

    static XAccelFilter filter(Map<String, String> extra) throws ServletException {
        Map<String, String> p = new HashMap<>();
        p.put("locations", media + " => /_xaccel/media/");
        p.put("mappings", "/library/ => " + media);
        p.put("jmxName", "none");
        p.putAll(extra);
        ServletContext ctx = mock(ServletContext.class);
        when(ctx.getMimeType("song.mp3")).thenReturn("audio/mpeg");
        XAccelFilter f = new XAccelFilter(null, Placeholders.of(Map.of(), Map.of()));
        f.init(new TestFilterConfig("xaccel", p, ctx));
        return f;
    }

    static HttpServletRequest request(String method, String servletPath, String pathInfo, String remote,
            String marker) {
        HttpServletRequest req = mock(HttpServletRequest.class);
        Map<String, Object> attrs = new HashMap<>();
        when(req.getMethod()).thenReturn(method);
        when(req.getServletPath()).thenReturn(servletPath);
        when(req.getPathInfo()).thenReturn(pathInfo);
        when(req.getRemoteAddr()).thenReturn(remote);
        // a TCP connection (ports 0 at both ends would be a Unix domain socket: FrontEndTrust)
        when(req.getRemotePort()).thenReturn(40000);
        when(req.getLocalPort()).thenReturn(8080);
        when(req.getRequestURI()).thenReturn("/must-not-be-used");
        when(req.getHeader("X-Sendfile-Type")).thenReturn(marker);
        when(req.getDateHeader(anyString())).thenReturn(-1L);
        when(req.getAttribute(anyString())).thenAnswer(i -> attrs.get(i.getArgument(0, String.class)));
        doAnswer(i -> attrs.put(i.getArgument(0), i.getArgument(1))).when(req)
                .setAttribute(anyString(), org.mockito.ArgumentMatchers.any());
        doAnswer(i -> attrs.remove(i.getArgument(0, String.class))).when(req).removeAttribute(anyString());
        return req;
    }

    static HttpServletResponse response(int status) {
        HttpServletResponse resp = mock(HttpServletResponse.class);
        when(resp.getStatus()).thenReturn(status);
        return resp;
    }

    // ---- offload decision

    @ParameterizedTest
    @CsvSource(delimiter = '|', nullValues = "null", value = {
        "auto   | 127.0.0.1   | X-Accel-Redirect | true",
        "auto   | ::1         | x-accel-REDIRECT | true",
        "auto   | 127.0.0.1   | null             | false",
        "auto   | 127.0.0.1   | X-Sendfile       | false",
        "auto   | 203.0.113.9 | X-Accel-Redirect | false",
        "auto   | bogus-host  | X-Accel-Redirect | false",
        "always | 203.0.113.9 | null             | true",
        "never  | 127.0.0.1   | X-Accel-Redirect | false",
    })
    void offloadDecision(String mode, String remote, String marker, boolean expected) throws Exception {
        XAccelFilter f = filter(Map.of("offload", mode));
        assertEquals(expected, new OffloadDecision(f.config()).asked(request("GET", "/x", null, remote, marker)));
    }

    @Test
    void offloadValues() throws Exception {
        XAccelConfig c = filter(Map.of()).config();
        Path real = media.resolve("a b?.mp3").toRealPath();
        Resolution file = c.locations().get(0).resolver().resolve("a b?.mp3");
        OffloadHeaders nginx = OffloadHeaders.of(c.headerType(), c.locations().get(0), file);
        assertEquals("/_xaccel/media/a%20b%3F.mp3", nginx.redirect());
        assertNull(nginx.rawPath(), "a raw '?' would end the path in try_files");
        assertNotNull(nginx.validators(), "the filter decides preconditions with nginx's own validators");
        XAccelConfig s = filter(Map.of("headerType", "X-Sendfile")).config();
        OffloadHeaders sendfile = OffloadHeaders.of(s.headerType(), s.locations().get(0), file);
        assertEquals(media.toRealPath() + "/a b?.mp3", sendfile.redirect(), "raw bytes, no decoding needed");
        assertNull(sendfile.rawPath());
        assertNotNull(sendfile.validators(), "Apache and lighttpd take the file's validators from the answer");
        assertEquals(real, file.file());
    }

    // ---- mapped mode

    @Test
    void mappedOffloadDoesNotInvokeChain() throws Exception {
        XAccelFilter f = filter(Map.of());
        HttpServletResponse resp = response(200);
        AtomicBoolean chained = new AtomicBoolean();
        f.doFilter(request("GET", "/library", "/song.mp3", "127.0.0.1", "X-Accel-Redirect"), resp,
                (rq, rs) -> chained.set(true));
        assertFalse(chained.get());
        verify(resp).setHeader("X-Accel-Redirect", "/_xaccel/media/song.mp3");
        verify(resp).setContentType("audio/mpeg");
        verify(resp).setContentLength(0);
        verify(resp).setStatus(200);
        verify(resp, never()).getOutputStream();
        verify(resp, never()).setHeader(eq("Accept-Ranges"), anyString());
        assertEquals(1, f.getStatistics().getOffloaded());
    }

    /**
     * A location nested inside the mapping's root takes the files below it: the mapping's one location is used
     * without a per-request search only when no other location lies below the mapping's root.
     */
    @Test
    void mappedOffloadNamesTheMostSpecificLocation() throws Exception {
        Path sub = Files.createDirectories(media.resolve("sub"));
        Files.writeString(sub.resolve("inner.mp3"), "music");
        XAccelFilter nested = filter(Map.of("locations",
                media + " => /_xaccel/media/; " + sub + " => /_xaccel/sub/"));
        HttpServletResponse inner = response(200);
        nested.doFilter(request("GET", "/library", "/sub/inner.mp3", "127.0.0.1", "X-Accel-Redirect"), inner,
                (rq, rs) -> fail("chain"));
        verify(inner).setHeader("X-Accel-Redirect", "/_xaccel/sub/inner.mp3");
        HttpServletResponse outer = response(200);
        nested.doFilter(request("GET", "/library", "/song.mp3", "127.0.0.1", "X-Accel-Redirect"), outer,
                (rq, rs) -> fail("chain"));
        verify(outer).setHeader("X-Accel-Redirect", "/_xaccel/media/song.mp3");
        HttpServletResponse sole = response(200);
        filter(Map.of()).doFilter(request("GET", "/library", "/sub/inner.mp3", "127.0.0.1", "X-Accel-Redirect"),
                sole, (rq, rs) -> fail("chain"));
        verify(sole).setHeader("X-Accel-Redirect", "/_xaccel/media/sub/inner.mp3");
        // a mapping rooted below its sole location: the path is rebased onto the location's root
        HttpServletResponse below = response(200);
        filter(Map.of("mappings", "/library/ => " + sub)).doFilter(request("GET", "/library", "/inner.mp3",
                "127.0.0.1", "X-Accel-Redirect"), below, (rq, rs) -> fail("chain"));
        verify(below).setHeader("X-Accel-Redirect", "/_xaccel/media/sub/inner.mp3");
    }

    /**
     * What the preconditions and an unsatisfiable range decide from the validators alone, the filter answers before
     * the hand-off, with no offload header: every front end answers it alike, and none opens the file for it.
     */
    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "If-Match            | \"nope\"                          | 412",
        "If-Unmodified-Since | Thu, 01 Jan 1970 00:00:00 GMT | 412",
        "If-None-Match       | *                             | 304",
        "If-Modified-Since   | Fri, 01 Jan 2100 00:00:00 GMT | 304",
        "Range               | bytes=-0                      | 416",
        "Range               | bytes=999999-                 | 416",
    })
    void offloadedRequestsThePreconditionsDecideAreAnsweredByTheFilter(String name, String value, int status)
            throws Exception {
        XAccelFilter f = filter(Map.of());
        HttpServletResponse resp = response(200);
        HttpServletRequest req = request("GET", "/library", "/song.mp3", "127.0.0.1", "X-Accel-Redirect");
        when(req.getHeader(name)).thenReturn(value);
        when(req.getHeaders(name)).thenAnswer(i -> java.util.Collections.enumeration(java.util.List.of(value)));
        if (name.endsWith("-Since")) {
            when(req.getDateHeader(name)).thenReturn(
                    java.time.ZonedDateTime.parse(value, java.time.format.DateTimeFormatter.RFC_1123_DATE_TIME)
                            .toInstant().toEpochMilli());
        }
        f.doFilter(req, resp, (rq, rs) -> {
            throw new AssertionError("chain");
        });
        verify(resp).setStatus(status);
        verify(resp, never()).setHeader(eq("X-Accel-Redirect"), anyString());
        verify(resp, never()).getOutputStream();
        if (status == 416) {
            verify(resp).setHeader("Content-Range", "bytes */5");
        }
        if (status == 304) {
            verify(resp).setHeader(eq("ETag"), anyString());
        }
        assertEquals(0, f.getStatistics().getOffloaded());
    }

    @Test
    void offloadedSatisfiableRangeIsTheFrontEndsPart() throws Exception {
        XAccelFilter f = filter(Map.of());
        HttpServletResponse resp = response(200);
        HttpServletRequest req = request("GET", "/library", "/song.mp3", "127.0.0.1", "X-Accel-Redirect");
        when(req.getHeader("Range")).thenReturn("bytes=1-2");
        f.doFilter(req, resp, (rq, rs) -> {
            throw new AssertionError("chain");
        });
        verify(resp).setStatus(200);
        verify(resp).setHeader("X-Accel-Redirect", "/_xaccel/media/song.mp3");
        verify(resp, never()).setHeader(eq("Content-Range"), anyString());
        assertEquals(1, f.getStatistics().getOffloaded());
    }

    /** nginx alone, confining at open time, no link followed: what the walk decides, nginx's open decides again. */
    static final Map<String, String> CONFINED_BY_NGINX = Map.of("frontEnd", "nginx", "frontEndConfines", "true",
            "symlinks", "never");

    /**
     * With nothing asked of the file (no conditional, no range) the hand-off is made by the names alone: a missing
     * file is named as well, and nginx answers it when it opens the name (404; a link 403, refused).
     */
    @Test
    void confinedByNginxHandsOffByTheNamesAlone() throws Exception {
        XAccelFilter f = filter(CONFINED_BY_NGINX);
        HttpServletResponse resp = response(200);
        f.doFilter(request("GET", "/library", "/not-there.mp3", "127.0.0.1", "X-Accel-Redirect"), resp, (rq, rs) -> {
            throw new AssertionError("chain");
        });
        verify(resp).setStatus(200);
        verify(resp).setHeader("X-Accel-Redirect", "/_xaccel/media/not-there.mp3");
        verify(resp).setContentLength(0);
        verify(resp, never()).setHeader(eq("ETag"), anyString());
        verify(resp, never()).sendError(anyInt());
        assertEquals(1, f.getStatistics().getOffloaded());
        // the names are checked as always
        HttpServletResponse hidden = response(200);
        f.doFilter(request("GET", "/library", "/.hidden.mp3", "127.0.0.1", "X-Accel-Redirect"), hidden,
                (rq, rs) -> {
                    throw new AssertionError("chain");
                });
        verify(hidden).sendError(404);
        verify(hidden, never()).setHeader(eq("X-Accel-Redirect"), anyString());
    }

    /**
     * Each of the three statements is needed, and a request that asks something of the file's validators or size
     * gets the check: a missing file is the filter's 404, not handed off.
     */
    @ParameterizedTest
    @CsvSource(delimiter = '|', nullValues = "null", value = {
        "frontEnd         | any         | null              | null",
        "frontEndConfines | false       | null              | null",
        "symlinks         | within-root | null              | null",
        "null             | null        | Range             | bytes=0-1",
        "null             | null        | If-None-Match     | \"x\"",
        "null             | null        | If-Match          | *",
        "null             | null        | If-Modified-Since | Thu, 01 Jan 1970 00:00:00 GMT",
        "null             | null        | If-Unmodified-Since | Thu, 01 Jan 1970 00:00:00 GMT",
    })
    void otherwiseAMissingFileIsTheFiltersOwn404(String param, String value, String header, String headerValue)
            throws Exception {
        Map<String, String> params = new HashMap<>(CONFINED_BY_NGINX);
        if (param != null) {
            params.put(param, value);
        }
        XAccelFilter f = filter(params);
        HttpServletResponse resp = response(200);
        HttpServletRequest req = request("GET", "/library", "/not-there.mp3", "127.0.0.1", "X-Accel-Redirect");
        if (header != null) {
            when(req.getHeader(header)).thenReturn(headerValue);
        }
        f.doFilter(req, resp, (rq, rs) -> {
            throw new AssertionError("chain");
        });
        verify(resp).sendError(404);
        verify(resp, never()).setHeader(eq("X-Accel-Redirect"), anyString());
        assertEquals(0, f.getStatistics().getOffloaded());
    }

    /** Checked by its names alone but not handed off after all (too long a name): checked and opened anew. */
    @Test
    void aFileCheckedByItsNamesAndServedDirectlyIsCheckedAgain() throws Exception {
        Map<String, String> params = new HashMap<>(CONFINED_BY_NGINX);
        params.put("maxRedirectLength", "256");
        XAccelFilter f = filter(params);
        String longName = "x".repeat(246) + ".mp3"; // with /_xaccel/media/ over 256
        Files.writeString(media.resolve(longName), "music");
        HttpServletResponse missing = response(200);
        f.doFilter(request("GET", "/library", "/y" + longName, "127.0.0.1", "X-Accel-Redirect"), missing,
                (rq, rs) -> {
                    throw new AssertionError("chain");
                });
        verify(missing).sendError(404);
        verify(missing, never()).setHeader(eq("X-Accel-Redirect"), anyString());
        HttpServletResponse present = response(200);
        java.io.ByteArrayOutputStream body = new java.io.ByteArrayOutputStream();
        when(present.getOutputStream()).thenReturn(new jakarta.servlet.ServletOutputStream() {
            @Override
            public void write(int b) {
                body.write(b);
            }

            @Override
            public boolean isReady() {
                return true;
            }

            @Override
            public void setWriteListener(jakarta.servlet.WriteListener listener) {
            }
        });
        f.doFilter(request("GET", "/library", "/" + longName, "127.0.0.1", "X-Accel-Redirect"), present,
                (rq, rs) -> {
                    throw new AssertionError("chain");
                });
        verify(present, never()).setHeader(eq("X-Accel-Redirect"), anyString());
        assertEquals("music", body.toString(java.nio.charset.StandardCharsets.UTF_8));
        assertEquals(0, f.getStatistics().getOffloaded());
    }

    @Test
    void mappedPostIs405WithAllow() throws Exception {
        XAccelFilter f = filter(Map.of());
        HttpServletResponse resp = response(200);
        f.doFilter(request("POST", "/library/song.mp3", null, "127.0.0.1", null), resp, (rq, rs) -> {
            throw new AssertionError("chain");
        });
        verify(resp).setHeader("Allow", "GET, HEAD");
        verify(resp).sendError(405);
        assertEquals(1, f.getStatistics().getRejected());
    }

    @Test
    void mappedMissingIs404AndCounted() throws Exception {
        XAccelFilter f = filter(Map.of());
        HttpServletResponse resp = response(200);
        f.doFilter(request("GET", "/library/nope.mp3", null, "127.0.0.1", null), resp, (rq, rs) -> {
            throw new AssertionError("chain");
        });
        verify(resp).sendError(404);
        assertEquals(1, f.getStatistics().getNotFound());
    }

    @Test
    void unmappedPathGoesDownChainWrapped() throws Exception {
        XAccelFilter f = filter(Map.of());
        HttpServletResponse resp = response(200);
        HttpServletRequest req = request("GET", "/other", null, "127.0.0.1", null);
        AtomicBoolean chained = new AtomicBoolean();
        f.doFilter(req, resp, (rq, rs) -> {
            chained.set(true);
            assertSame(req, rq);
            assertTrue(rs instanceof OffloadResponseWrapper);
            assertTrue(XAccel.isAvailable((HttpServletRequest) rq));
        });
        assertTrue(chained.get());
        assertFalse(XAccel.isAvailable(req), "attribute removed after a synchronous request");
        verify(resp, never()).setHeader(eq("X-Accel-Redirect"), anyString());
    }

    // ---- declared mode

    @Test
    void declaredFileIsOffloadedOnRawResponse() throws Exception {
        XAccelFilter f = filter(Map.of());
        HttpServletResponse resp = response(200);
        HttpServletRequest req = request("GET", "/dl", null, "127.0.0.1", "X-Accel-Redirect");
        FilterChain chain = (rq, rs) -> {
            HttpServletResponse w = (HttpServletResponse) rs;
            w.setHeader("X-Accel-Redirect", "/evil");
            XAccel.sendFile((HttpServletRequest) rq, w, XAccelFile.of(media.resolve("song.mp3")).downloadName("S.mp3"));
            w.getWriter().write("discarded");
            w.setContentLength(9);
            w.flushBuffer();
        };
        f.doFilter(req, resp, chain);
        verify(resp, never()).setHeader("X-Accel-Redirect", "/evil");
        verify(resp).setHeader("X-Accel-Redirect", "/_xaccel/media/song.mp3");
        verify(resp).setHeader("Content-Disposition", "inline; filename=\"S.mp3\"");
        verify(resp, never()).getWriter();
        verify(resp, never()).setContentLength(9);
        verify(resp, never()).flushBuffer();
        assertEquals(1, log.count(Level.WARNING, "[X-Accel-Redirect]"));
    }

    @Test
    void declaredButErrorStatusIsNotOffloaded() throws Exception {
        XAccelFilter f = filter(Map.of());
        HttpServletResponse resp = response(403);
        f.doFilter(request("GET", "/dl", null, "127.0.0.1", "X-Accel-Redirect"), resp,
                (rq, rs) -> XAccel.sendFile((HttpServletRequest) rq, (HttpServletResponse) rs,
                        media.resolve("song.mp3")));
        verify(resp, never()).setHeader(eq("X-Accel-Redirect"), anyString());
        assertEquals(0, f.getStatistics().getOffloaded());
    }

    @Test
    void declaredOutsideLocationsIs500() throws Exception {
        Path outside = Files.writeString(tmp.resolve("outside.txt"), "x");
        XAccelFilter f = filter(Map.of());
        HttpServletResponse resp = response(200);
        f.doFilter(request("GET", "/dl", null, "127.0.0.1", "X-Accel-Redirect"), resp,
                (rq, rs) -> XAccel.sendFile((HttpServletRequest) rq, (HttpServletResponse) rs, outside));
        verify(resp).sendError(500);
        assertEquals(1, log.count(Level.SEVERE, outside.toString()));
    }

    @Test
    void repeatedDeclaredOutsideLocationsLogsSevereOnceAMinute() throws Exception {
        Path outside = Files.writeString(tmp.resolve("outside-repeated.txt"), "x");
        XAccelFilter f = filter(Map.of());
        for (int i = 0; i < 5; i++) {
            HttpServletResponse resp = response(200);
            f.doFilter(request("GET", "/dl", null, "127.0.0.1", null), resp,
                    (rq, rs) -> XAccel.sendFile((HttpServletRequest) rq, (HttpServletResponse) rs, outside));
            verify(resp).sendError(500);
        }
        assertEquals(1, log.count(Level.SEVERE, outside.toString()));
        assertEquals(5, f.getStatistics().getRejected());
    }

    @Test
    void repeatedDeclaredOnCommittedResponseLogsWarningOnceAMinute() throws Exception {
        XAccelFilter f = filter(Map.of());
        for (int i = 0; i < 3; i++) {
            HttpServletResponse resp = response(200);
            AtomicBoolean committed = new AtomicBoolean();
            when(resp.isCommitted()).thenAnswer(inv -> committed.get());
            f.doFilter(request("GET", "/dl", null, "127.0.0.1", null), resp, (rq, rs) -> {
                XAccel.sendFile((HttpServletRequest) rq, (HttpServletResponse) rs, media.resolve("song.mp3"));
                committed.set(true);
            });
            verify(resp, never()).setHeader(eq("X-Accel-Redirect"), anyString());
        }
        assertEquals(1, log.count(Level.WARNING, "committed"));
    }

    @Test
    void sendFileWithoutFilterFailsClearly() {
        HttpServletRequest req = request("GET", "/dl", null, "127.0.0.1", null);
        IllegalStateException e = assertThrows(IllegalStateException.class,
                () -> XAccel.sendFile(req, response(200), media.resolve("song.mp3")));
        assertTrue(e.getMessage().contains("No XAccelFilter"), e.getMessage());
        assertFalse(XAccel.isAvailable(req));
    }

    @Test
    void sendFileOnCommittedResponseFails() throws Exception {
        XAccelFilter f = filter(Map.of());
        HttpServletResponse resp = response(200);
        when(resp.isCommitted()).thenReturn(true);
        f.doFilter(request("GET", "/dl", null, "127.0.0.1", null), resp, (rq, rs) -> assertThrows(
                IllegalStateException.class,
                () -> XAccel.sendFile((HttpServletRequest) rq, (HttpServletResponse) rs, media.resolve("song.mp3"))));
    }

    @Test
    void asyncDeclarationAfterChainReturnedIsDeliveredImmediately() throws Exception {
        XAccelFilter f = filter(Map.of());
        HttpServletResponse resp = response(200);
        HttpServletRequest req = request("GET", "/dl", null, "127.0.0.1", "X-Accel-Redirect");
        when(req.isAsyncStarted()).thenReturn(true);
        f.doFilter(req, resp, (rq, rs) -> { /* started async, declares later */ });
        verify(resp, never()).setHeader(eq("X-Accel-Redirect"), anyString());
        assertTrue(XAccel.isAvailable(req), "state kept for the async thread");
        XAccel.sendFile(req, resp, media.resolve("song.mp3"));
        verify(resp).setHeader("X-Accel-Redirect", "/_xaccel/media/song.mp3");
        assertThrows(IllegalStateException.class, () -> XAccel.sendFile(req, resp, media.resolve("song.mp3")));
    }

    @Test
    void declarationAfterSynchronousRequestEndedIsRejected() throws Exception {
        XAccelFilter f = filter(Map.of());
        HttpServletRequest req = request("GET", "/dl", null, "127.0.0.1", null);
        Object[] state = new Object[1];
        f.doFilter(req, response(200), (rq, rs) -> state[0] = rq.getAttribute(DeclaredState.ATTRIBUTE));
        assertThrows(IllegalStateException.class,
                () -> ((DeclaredState) state[0]).declare(XAccelFile.of(media.resolve("song.mp3")), req));
    }

    @Test
    void nestedDispatchPassesThrough() throws Exception {
        XAccelFilter f = filter(Map.of());
        HttpServletRequest req = request("GET", "/library/song.mp3", null, "127.0.0.1", null);
        req.setAttribute(DeclaredState.ATTRIBUTE, new DeclaredState((state, file) -> { }, req, response(200)));
        HttpServletResponse resp = response(200);
        AtomicBoolean chained = new AtomicBoolean();
        f.doFilter(req, resp, (rq, rs) -> {
            chained.set(true);
            assertSame(resp, rs);
        });
        assertTrue(chained.get());
    }

    @Test
    void uninitializedFilterFailsClosed() {
        XAccelFilter f = new XAccelFilter();
        assertThrows(ServletException.class,
                () -> f.doFilter(request("GET", "/x", null, "127.0.0.1", null), response(200), (a, b) -> { }));
    }

    @Test
    void pathInApplicationUsesServletPathAndPathInfo() {
        assertEquals("/library/a b", XAccelFilter.pathInApplication(request("GET", "/library", "/a b", "", null)));
        assertEquals("/x", XAccelFilter.pathInApplication(request("GET", "/x", null, "", null)));
    }

    // ---- XAccelFile

    @Test
    @SuppressWarnings("deprecation") // the get... accessors still answer
    void xaccelFileIsImmutable() {
        XAccelFile a = XAccelFile.of(media.resolve("song.mp3"));
        XAccelFile b = a.downloadName("x.mp3").contentType("audio/x").attachment();
        assertNotSame(a, b);
        assertTrue(a.downloadName().isEmpty());
        assertTrue(a.disposition().isEmpty());
        assertEquals("x.mp3", b.downloadName().get());
        assertEquals("audio/x", b.contentType().get());
        assertEquals(Disposition.ATTACHMENT, b.disposition().get());
        assertEquals(Disposition.INLINE, b.inline().disposition().get());
        assertEquals(b, a.downloadName("x.mp3").contentType("audio/x").attachment());
        assertThrows(IllegalArgumentException.class, () -> XAccelFile.of(Path.of("relative")));
        assertThrows(IllegalArgumentException.class, () -> a.contentType("text/plain\r\nX-Evil: 1"));
        assertThrows(NullPointerException.class, () -> XAccelFile.of(null));
    }

    @Test
    void perFileNginxSettingsAreCheckedByTheInitParamsRulesWhenDeclared() {
        XAccelFile a = XAccelFile.of(media.resolve("song.mp3"));
        XAccelFile b = a.limitRate(4096).buffering(false).charset("utf-8").accelExpires("@1767225600");
        assertTrue(a.limitRate().isEmpty() && a.buffering().isEmpty() && a.charset().isEmpty());
        assertTrue(a.accelExpires().isEmpty());
        assertEquals(4096, b.limitRate().getAsLong());
        assertEquals(false, b.buffering().get());
        assertEquals("utf-8", b.charset().get());
        assertEquals("@1767225600", b.accelExpires().get());
        assertEquals(b, a.limitRate(4096).buffering(false).charset("utf-8").accelExpires("@1767225600"));
        assertNotEquals(b, b.limitRate(0));
        assertTrue(b.toString().contains("limitRate=4096, buffering=no, charset=utf-8"), b.toString());

        IllegalArgumentException rate = assertThrows(IllegalArgumentException.class, () -> a.limitRate(-1));
        assertEquals("Invalid value [-1] for the answer's limitRate: "
                + "expected an integer number of bytes per second >= 0 (no units)", rate.getMessage());
        IllegalArgumentException charset = assertThrows(IllegalArgumentException.class,
                () -> a.charset("utf-8\r\nX-Evil: 1"));
        assertTrue(charset.getMessage().contains("[utf-8\r\nX-Evil: 1] for the answer's charset"),
                charset.getMessage());
        assertThrows(IllegalArgumentException.class, () -> a.charset(null));
        IllegalArgumentException expires = assertThrows(IllegalArgumentException.class, () -> a.accelExpires("1h"));
        assertTrue(expires.getMessage().contains("[1h] for the answer's accelExpires"), expires.getMessage());
        XAccelRemote remote = XAccelRemote.of(java.net.URI.create("https://store.example/b/k?sig=1"));
        assertThrows(IllegalArgumentException.class, () -> remote.limitRate(-5));
        assertEquals(0, remote.limitRate(0).buffering(false).limitRate().getAsLong());
    }

    @Test
    void wrapperRecognisesOffloadHeaders() {
        assertTrue(OffloadResponseWrapper.isOffloadHeader("x-accel-redirect"));
        assertTrue(OffloadResponseWrapper.isOffloadHeader("X-Accel-Limit-Rate"));
        assertTrue(OffloadResponseWrapper.isOffloadHeader("X-Sendfile"));
        assertTrue(OffloadResponseWrapper.isOffloadHeader("X-SENDFILE-TEMPORARY"));
        assertTrue(OffloadResponseWrapper.isOffloadHeader("X-LIGHTTPD-send-file"));
        assertFalse(OffloadResponseWrapper.isOffloadHeader("X-Accelerated"));
        assertFalse(OffloadResponseWrapper.isOffloadHeader("Content-Type"));
        assertFalse(OffloadResponseWrapper.isOffloadHeader(null));
    }

    @Test
    void bodyBeforeDeclarationReachesResponse() throws Exception {
        XAccelFilter f = filter(Map.of());
        HttpServletResponse resp = response(200);
        java.io.StringWriter out = new java.io.StringWriter();
        when(resp.getWriter()).thenReturn(new java.io.PrintWriter(out));
        f.doFilter(request("GET", "/page", null, "127.0.0.1", null), resp, (rq, rs) -> {
            rs.getWriter().write("hello");
            rs.getWriter().flush();
        });
        assertEquals("hello", out.toString());
        verify(resp, atLeastOnce()).getWriter();
    }
}
