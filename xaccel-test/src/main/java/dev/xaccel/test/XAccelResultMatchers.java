package dev.xaccel.test;

import org.springframework.test.web.servlet.ResultMatcher;

import dev.xaccel.filter.Disposition;

/**
 * Spring MVC {@link ResultMatcher}s over the answer of a {@code MockMvc} request that went through the
 * XAccelFilter (Spring Boot's {@code MockMvc} applies the application's filters); the same checks as
 * {@link OffloadAssert}, with the same messages (they need AssertJ, which {@code spring-boot-starter-test} brings).
 *
 * <pre>{@code
 * import static dev.xaccel.test.XAccelResultMatchers.xaccel;
 *
 * mockMvc.perform(get("/files/1").header("X-Sendfile-Type", "X-Accel-Redirect"))
 *         .andExpect(xaccel().offloadedTo("/_xaccel/library/a.mp3"))
 *         .andExpect(xaccel().disposition(Disposition.ATTACHMENT));
 * }</pre>
 */
public final class XAccelResultMatchers {

    private static final XAccelResultMatchers INSTANCE = new XAccelResultMatchers();

    private XAccelResultMatchers() {
    }

    /**
     * The matchers.
     *
     * @return the factory of the xaccel matchers
     */
    public static XAccelResultMatchers xaccel() {
        return INSTANCE;
    }

    /**
     * Offloaded (status 200, {@code X-Accel-Redirect} or {@code X-Sendfile}).
     *
     * @return the matcher
     */
    public ResultMatcher isOffloaded() {
        return result -> XAccelAssertions.assertThat(result.getResponse()).isOffloaded();
    }

    /**
     * Offloaded to nginx's internal location at this URI.
     *
     * @param uri the expected {@code X-Accel-Redirect}
     * @return the matcher
     */
    public ResultMatcher offloadedTo(String uri) {
        return result -> XAccelAssertions.assertThat(result.getResponse()).toInternalUri(uri);
    }

    /**
     * Served directly (no offload header, status 200 or 206).
     *
     * @return the matcher
     */
    public ResultMatcher servedDirectly() {
        return result -> XAccelAssertions.assertThat(result.getResponse()).servedDirectly();
    }

    /**
     * The answer's disposition.
     *
     * @param disposition the expected disposition
     * @return the matcher
     */
    public ResultMatcher disposition(Disposition disposition) {
        return result -> XAccelAssertions.assertThat(result.getResponse()).withDisposition(disposition);
    }

    /**
     * The name the browser saves the file as.
     *
     * @param name the expected name
     * @return the matcher
     */
    public ResultMatcher downloadName(String name) {
        return result -> XAccelAssertions.assertThat(result.getResponse()).withDownloadName(name);
    }

    /**
     * nginx's rate for the answer ({@code X-Accel-Limit-Rate}).
     *
     * @param bytesPerSecond the expected rate
     * @return the matcher
     */
    public ResultMatcher limitRate(long bytesPerSecond) {
        return result -> XAccelAssertions.assertThat(result.getResponse()).withLimitRate(bytesPerSecond);
    }
}
