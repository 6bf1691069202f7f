package dev.xaccel.sample.api;

import dev.xaccel.filter.SignedLinks;
import dev.xaccel.filter.XAccel;
import jakarta.servlet.ServletContext;
import jakarta.servlet.http.HttpServletRequest;

/**
 * Chooses the URL of a book's cover, or of its author's picture, for the item list.
 *
 * <ul>
 *   <li><b>Signed link</b> ({@code /s/library/<path>?md5=…&expires=…}), which nginx verifies with
 *       {@code secure_link} and serves without asking Tomcat, when both hold:
 *       <ol>
 *         <li>configuration: the xaccel filter has a {@code signedLinkSecret} (the sample sets one only when
 *             {@code XACCEL_LINK_SECRET} is set and offload is not {@code never}, see
 *             {@link dev.xaccel.sample.SampleApp}), so {@link XAccel#signedLinks(ServletContext)} is
 *             available;</li>
 *         <li>this request came through nginx: it carries the proxy's marker {@value #MARKER_HEADER}:
 *             {@value #MARKER_VALUE}. A client talking to Tomcat directly could not open a signed link
 *             (only nginx verifies them), so it gets the authenticated URL. Nothing is trusted here: either
 *             URL only works for what the client may read anyway.</li>
 *       </ol></li>
 *   <li>otherwise the authenticated {@code <context>/api/items/<id>/cover} (or {@code …/author-picture}).</li>
 * </ul>
 */
final class CoverLinks {

    /** The request header nginx sets (the filter's {@code markerHeader}). */
    static final String MARKER_HEADER = "X-Sendfile-Type";
    /** Its value (the filter's {@code headerType}). */
    static final String MARKER_VALUE = "X-Accel-Redirect";

    private CoverLinks() {
    }

    /**
     * @param relativePath the image's path below the library root, '/'-separated, not encoded
     * @param apiUrl       the authenticated URL, used when signed links are not possible
     */
    static String url(ServletContext ctx, HttpServletRequest request, String relativePath, String apiUrl) {
        if (ctx.getAttribute(SignedLinks.CONTEXT_ATTRIBUTE) == null || !viaNginx(request)) {
            return apiUrl;
        }
        try {
            return XAccel.signedLinks(ctx).sign(relativePath);
        } catch (IllegalArgumentException e) {
            return apiUrl; // a name nginx would not see unchanged (e.g. control characters): never signed
        }
    }

    /** The request came through nginx (it carries the proxy's marker), the only one that opens signed links. */
    static boolean viaNginx(HttpServletRequest request) {
        return MARKER_VALUE.equalsIgnoreCase(request.getHeader(MARKER_HEADER));
    }
}
