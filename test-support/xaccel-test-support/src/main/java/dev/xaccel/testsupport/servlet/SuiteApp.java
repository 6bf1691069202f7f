package dev.xaccel.testsupport.servlet;

import dev.xaccel.testsupport.RawHttp;
import jakarta.servlet.Filter;
import java.util.Map;

/**
 * The shape of the end-to-end suites' web application, the same in every container: the URL prefixes, the
 * {@code <mime-mapping>}s and the authorization filter first. The XAccelFilter and the servlets are added by the
 * caller ({@code .xaccelFilter(params).servlet(...)}).
 */
public final class SuiteApp {

    /** nginx's internal location of the media root. */
    public static final String INTERNAL_PREFIX = "/_xaccel/media/";
    /** The filter's mapping of the media root ({@code mappings}). */
    public static final String MAPPED_PREFIX = "/library/";
    /** The declared-API servlet ({@code XAccel.sendFile}). */
    public static final String DECLARED_PREFIX = "/files/";

    /** The &lt;mime-mapping&gt;s of the test application (a subset of Tomcat's conf/web.xml). */
    public static final Map<String, String> MIME_TYPES = Map.of(
            "txt", "text/plain",
            "html", "text/html",
            "mp3", "audio/mpeg",
            "pdf", "application/pdf",
            "jpg", "image/jpeg",
            // Unknown to nginx's mime.types: proves the backend's Content-Type crosses the redirect.
            "xat", "application/x-xaccel-test");

    private SuiteApp() {
    }

    /**
     * The suites' web application, as its web.xml would declare it:
     * <pre>
     * &lt;filter&gt; recorder ({@link OffloadRecorder})       &lt;filter-mapping&gt; /*
     * &lt;filter&gt; auth (the given filter)                &lt;filter-mapping&gt; /*
     * &lt;filter&gt; xaccel (dev.xaccel.filter.XAccelFilter)  &lt;filter-mapping&gt; /*   + &lt;init-param&gt;s
     *                                                 (the caller adds it: {@code .xaccelFilter(params)})
     * &lt;servlet&gt; ... the suite's servlets               &lt;servlet-mapping&gt;
     * &lt;servlet&gt; default: 404 for anything unmapped     &lt;servlet-mapping&gt; /
     * </pre>
     */
    public static WebApp app(Filter auth) {
        return WebApp.root().mimeMappings(MIME_TYPES).filter("recorder", new OffloadRecorder()).filter("auth", auth);
    }

    /** A GET that {@link BearerAuthFilter} lets through. */
    public static RawHttp.Request authGet(String target) {
        return RawHttp.get(target).header("Authorization", BearerAuthFilter.AUTHORIZATION);
    }
}
