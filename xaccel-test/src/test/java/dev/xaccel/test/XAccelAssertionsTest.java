package dev.xaccel.test;

import static dev.xaccel.filter.Disposition.ATTACHMENT;
import static dev.xaccel.filter.Disposition.INLINE;
import static dev.xaccel.test.XAccelAssertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.lang.reflect.Proxy;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;
import org.springframework.mock.web.MockHttpServletResponse;
import org.springframework.test.web.servlet.MvcResult;
import org.springframework.test.web.servlet.ResultMatcher;

/** Each assertion passing on the right answer and failing, with a message that says why, on a wrong one. */
class XAccelAssertionsTest {

    /** What the filter answers nginx for an attachment. */
    private static MockHttpServletResponse offloaded() {
        MockHttpServletResponse r = new MockHttpServletResponse();
        r.setStatus(200);
        r.setContentType("audio/mpeg");
        r.setHeader("Content-Disposition", "attachment; filename=\"a.mp3\"; filename*=UTF-8''Caf%C3%A9%20a.mp3");
        r.setHeader("X-Accel-Redirect", "/_xaccel/media/a.mp3");
        r.setHeader("X-Accel-Limit-Rate", "4096");
        r.setHeader("X-Accel-Charset", "utf-8");
        r.setHeader("X-Accel-Expires", "0");
        r.setContentLength(0);
        return r;
    }

    /** What the filter sends when no front end asked. */
    private static MockHttpServletResponse direct() {
        MockHttpServletResponse r = new MockHttpServletResponse();
        r.setStatus(200);
        r.setContentType("audio/mpeg");
        r.setContentLength(3);
        return r;
    }

    private static String failure(Executable check) {
        return assertThrows(AssertionError.class, check).getMessage();
    }

    @Test
    void anOffloadedAnswerPasses() {
        assertThat(offloaded()).isOffloaded().toInternalUri("/_xaccel/media/a.mp3").withDisposition(ATTACHMENT)
                .withDownloadName("Caf\u00e9 a.mp3").withContentType("audio/mpeg").withLimitRate(4096)
                .withCharset("utf-8").withAccelExpires("0");
        assertThat(direct()).servedDirectly().withDisposition(INLINE).withContentType("audio/mpeg");
    }

    @Test
    void isOffloadedFailsOnADirectAnswer() {
        String message = failure(() -> assertThat(direct()).isOffloaded());
        assertEquals(true, message.startsWith("Expecting the answer to be offloaded (X-Accel-Redirect or "
                + "X-Sendfile), but it carries no offload header: status 200, headers {"), message);
        MockHttpServletResponse notOk = offloaded();
        notOk.setStatus(404);
        assertEquals(true, failure(() -> assertThat(notOk).isOffloaded())
                .startsWith("Expecting an offloaded answer to have status 200, but it has 404"));
    }

    @Test
    void servedDirectlyFailsOnAnOffloadedAnswer() {
        assertEquals(true, failure(() -> assertThat(offloaded()).servedDirectly()).startsWith(
                "Expecting the answer to be served directly, but it was offloaded with X-Accel-Redirect: "
                        + "/_xaccel/media/a.mp3"));
        MockHttpServletResponse missing = direct();
        missing.setStatus(404);
        assertEquals(true, failure(() -> assertThat(missing).servedDirectly())
                .startsWith("Expecting a directly served file (status 200 or 206), but the status is 404"));
    }

    @Test
    void eachDetailFailsNamingBothValues() {
        assertEquals(true, failure(() -> assertThat(offloaded()).toInternalUri("/_xaccel/media/b.mp3"))
                .startsWith("Expecting X-Accel-Redirect </_xaccel/media/b.mp3> but was </_xaccel/media/a.mp3>"));
        assertEquals(true, failure(() -> assertThat(offloaded()).withDisposition(INLINE))
                .startsWith("Expecting disposition <inline> but was <attachment>"));
        assertEquals(true, failure(() -> assertThat(direct()).withDisposition(ATTACHMENT))
                .startsWith("Expecting disposition <attachment> but was <inline> (Content-Disposition: null)"));
        assertEquals(true, failure(() -> assertThat(offloaded()).withDownloadName("a.mp3"))
                .startsWith("Expecting download name <a.mp3> but was <Caf\u00e9 a.mp3>"));
        assertEquals(true, failure(() -> assertThat(offloaded()).withContentType("text/plain"))
                .startsWith("Expecting Content-Type <text/plain> but was <audio/mpeg>"));
        assertEquals(true, failure(() -> assertThat(offloaded()).withLimitRate(1))
                .startsWith("Expecting X-Accel-Limit-Rate <1> but was <4096>"));
        assertEquals(true, failure(() -> assertThat(direct()).withCharset("utf-8"))
                .startsWith("Expecting X-Accel-Charset <utf-8> but was <null>"));
        assertEquals(true, failure(() -> assertThat(offloaded()).withAccelExpires("60"))
                .startsWith("Expecting X-Accel-Expires <60> but was <0>"));
        assertEquals(true, failure(() -> assertThat((MockHttpServletResponse) null).isOffloaded())
                .contains("Expecting actual not to be null"));
    }

    @Test
    void xSendfileNamesTheFileAsRawUtf8() {
        MockHttpServletResponse r = new MockHttpServletResponse();
        r.setStatus(200);
        String path = "/srv/media/Caf\u00e9.mp3";
        r.setHeader("X-Sendfile", new String(path.getBytes(StandardCharsets.UTF_8), StandardCharsets.ISO_8859_1));
        assertThat(r).isOffloaded().toFile(Path.of(path));
        assertEquals(true, failure(() -> assertThat(r).toFile(Path.of("/srv/media/other.mp3")))
                .startsWith("Expecting X-Sendfile </srv/media/other.mp3> but the offload target was <" + path + ">"));
        assertEquals(true, failure(() -> assertThat(offloaded()).toFile(Path.of(path)))
                .startsWith("Expecting X-Sendfile <" + path + "> but the offload target was </_xaccel/media/a.mp3>"));
    }

    @Test
    void resultMatchersCheckTheSameAndFailTheSame() throws Exception {
        MvcResult offloaded = result(offloaded());
        XAccelResultMatchers x = XAccelResultMatchers.xaccel();
        for (ResultMatcher m : new ResultMatcher[] {x.isOffloaded(), x.offloadedTo("/_xaccel/media/a.mp3"),
            x.disposition(ATTACHMENT), x.downloadName("Caf\u00e9 a.mp3"), x.limitRate(4096)}) {
            m.match(offloaded);
        }
        x.servedDirectly().match(result(direct()));
        assertEquals(true, failure(() -> x.servedDirectly().match(offloaded))
                .startsWith("Expecting the answer to be served directly, but it was offloaded"));
        assertEquals(true, failure(() -> x.offloadedTo("/x").match(offloaded))
                .startsWith("Expecting X-Accel-Redirect </x> but was </_xaccel/media/a.mp3>"));
        assertEquals(true, failure(() -> x.isOffloaded().match(result(direct())))
                .startsWith("Expecting the answer to be offloaded"));
    }

    /** A result that only has its response (all the matchers read). */
    private static MvcResult result(MockHttpServletResponse response) {
        return (MvcResult) Proxy.newProxyInstance(MvcResult.class.getClassLoader(), new Class<?>[] {MvcResult.class},
                (proxy, method, args) -> {
                    if (method.getName().equals("getResponse")) {
                        return response;
                    }
                    throw new UnsupportedOperationException(method.getName());
                });
    }
}
