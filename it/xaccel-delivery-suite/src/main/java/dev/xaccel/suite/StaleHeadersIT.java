package dev.xaccel.suite;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.util.Map;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import dev.xaccel.testsupport.RawHttp;
import dev.xaccel.testsupport.servlet.SuiteApp;

/**
 * Headers that downstream code set before declaring the file (validators of its own, a range, a compressing
 * filter's Content-Encoding) are gone from the answer, offloaded and served directly, and the outer headers stay
 * ({@link StaleHeadersServlet}). On Servlet 6.0 (Tomcat 10.1, Jetty ee10, Undertow 2.3) {@code setHeader(name,
 * null)} removes nothing, so this is where the filter's way of removing a header is proven. The container runs
 * the Servlet version its factory names.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
public class StaleHeadersIT {

    private DeliveryStack stack;

    @BeforeAll
    void start() throws Exception {
        stack = DeliveryStack.start("stale", Map.of("jmxName", "none"), false);
    }

    @AfterAll
    void stop() {
        if (stack != null) {
            stack.close();
        }
    }

    private RawHttp.Response get(boolean offloaded) {
        RawHttp.Request req = SuiteApp.authGet("/stale/song.mp3");
        if (offloaded) {
            req.header("X-Sendfile-Type", "X-Accel-Redirect"); // from loopback: trusted
        }
        return req.send(stack.containerPort());
    }

    @Test
    void theContainerRunsItsServletVersion() {
        assertEquals(SuiteEnvironment.container().servletVersion(), get(false).header("X-Servlet-Version"),
                SuiteEnvironment.container().name());
    }

    @ParameterizedTest
    @ValueSource(booleans = {false, true})
    void headersSetBeforeTheDeclarationAreGone(boolean offloaded) {
        RawHttp.Response r = get(offloaded);
        assertEquals(200, r.status(), r.toString());
        assertNotEquals("\"stale\"", r.header("ETag"), r.toString());
        assertNull(r.header("Content-Range"), r.toString());
        assertNull(r.header("Content-Encoding"), r.toString());
        assertEquals("kept", r.header("X-Outer"), r.toString());
        if (!offloaded) {
            assertArrayEquals(stack.media.content("song.mp3"), r.body());
            assertEquals("bytes", r.header("Accept-Ranges"));
            assertNotEquals("Thu, 01 Jan 1970 00:00:00 GMT", r.header("Last-Modified"));
        } else {
            assertEquals(SuiteApp.INTERNAL_PREFIX + "song.mp3", r.header("X-Accel-Redirect"));
            assertEquals(0, r.body().length);
            // the file's own validators (nginx drops them, the shipped Caddyfile shows the ETag), never the stale
            assertEquals(1, r.headers("ETag").size(), r.toString());
            assertNotEquals("Thu, 01 Jan 1970 00:00:00 GMT", r.header("Last-Modified"), r.toString());
            assertEquals(1, r.headers("Last-Modified").size(), r.toString());
            assertNull(r.header("Accept-Ranges"), r.toString());
        }
    }
}
