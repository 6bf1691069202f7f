package dev.xaccel.test;

import java.net.http.HttpResponse;

import jakarta.servlet.http.HttpServletResponse;

/**
 * Entry point of the AssertJ assertions: {@code import static dev.xaccel.test.XAccelAssertions.assertThat;}
 * beside AssertJ's own.
 *
 * <pre>{@code
 * MockHttpServletResponse response = ...;       // or the container's, or a JDK HttpResponse
 * assertThat(response).isOffloaded().toInternalUri("/_xaccel/media/a.mp3").withDisposition(ATTACHMENT);
 * }</pre>
 */
public final class XAccelAssertions {

    private XAccelAssertions() {
    }

    /**
     * Assertions over a servlet response (a container's or Spring's {@code MockHttpServletResponse}), as it is
     * when called.
     *
     * @param response the response
     * @return the assertions
     */
    public static OffloadAssert assertThat(HttpServletResponse response) {
        return new OffloadAssert(response == null ? null : XAccelResponse.of(response));
    }

    /**
     * Assertions over an answer a JDK {@code HttpClient} received (end-to-end tests).
     *
     * @param response the answer
     * @return the assertions
     */
    public static OffloadAssert assertThat(HttpResponse<?> response) {
        return new OffloadAssert(response == null ? null : XAccelResponse.of(response));
    }

    /**
     * Assertions over a status and headers from anywhere else.
     *
     * @param response the answer's status and headers
     * @return the assertions
     */
    public static OffloadAssert assertThat(XAccelResponse response) {
        return new OffloadAssert(response);
    }
}
