package dev.xaccel.testsupport.frontend;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;

/**
 * A web server in front of the Servlet container (nginx; Apache httpd, lighttpd, Caddy), started by the end-to-end
 * suites: "start with this backend port and media root, give me a port, the access log and whether a request was
 * offloaded". It proxies every request to the backend with its marker header (the filter's {@code markerHeader},
 * {@code X-Sendfile-Type}) and {@code X-Request-Id} passed on, and follows the backend's offload header by sending
 * the file from the media root itself.
 * <p>
 * The kinds are {@link Factory}s registered for {@link java.util.ServiceLoader}
 * ({@code META-INF/services/dev.xaccel.testsupport.frontend.FrontEnd$Factory}); the suites use the one that the
 * system property {@value #PROPERTY} names ({@value #DEFAULT} when unset).
 */
public interface FrontEnd extends AutoCloseable {

    /** System property naming the front end the suites run through. */
    String PROPERTY = "xaccel.frontend";
    /** The front end when {@link #PROPERTY} is unset. */
    String DEFAULT = "nginx";

    /** The port clients connect to (127.0.0.1). */
    int port();

    /** Its access log (one line per request, with the request's {@code X-Request-Id}). */
    Path accessLog();

    /**
     * What the access log says about the request that carried {@code X-Request-Id: requestId}; waits a few seconds
     * for the line (servers write it after the response).
     *
     * @throws AssertionError when no line appears
     */
    Delivery delivery(String requestId);

    /** Stops the server (by its PID, its children too). */
    @Override
    void close();

    /**
     * One request as the front end logged it.
     *
     * @param logLine         the access log line, for messages
     * @param offloaded       the front end sent a file of the media root after the backend's offload header
     * @param backendSentBody the backend's response had a non-empty body
     */
    record Delivery(String logLine, boolean offloaded, boolean backendSentBody) {
    }

    /** Starts front ends of one kind. */
    interface Factory {

        /** The name {@link #PROPERTY} selects, also in directory names: {@code nginx}. */
        String name();

        /**
         * Starts the front end in front of {@code 127.0.0.1:backendPort}, delivering offloaded files from
         * {@code mediaRoot}; its directory is below {@code target/}, named after its kind and {@code suite} (unique
         * per stack: {@code nginx-<suite>}).
         */
        FrontEnd start(String suite, int backendPort, Path mediaRoot) throws IOException;

        /**
         * The filter's init-params this front end needs for {@code mediaRoot}: {@code locations} (the root and the
         * internal prefix) and, where it is not nginx's, {@code headerType}.
         */
        Map<String, String> filterParams(Path mediaRoot);

        /**
         * The offload header the filter sends to it ({@code headerType}): {@code X-Accel-Redirect},
         * {@code X-Sendfile}.
         */
        String offloadHeader();

        /** The URI prefix of the media root that clients asking for it directly get 404 from, if it has one. */
        Optional<String> internalPrefix();

        /** Whether it keeps upstream connections alive, so that sequential downloads use one backend connection. */
        boolean reusesUpstreamConnections();

        /**
         * Whether the filter offloads the file at {@code relativePath} (below the media root) to it: its offload
         * header carries the name unchanged. X-Accel-Redirect carries every name; a raw X-Sendfile value no control
         * character, no {@code %} followed by two hex digits (lighttpd decodes it) and no trailing space (Apache
         * trims it). The filter serves the others itself.
         */
        default boolean carries(String relativePath) {
            return true;
        }

        /**
         * Whether it confines again when it opens the file, so that a link swapped in after the filter's check
         * gets no byte from outside (nginx's {@code disable_symlinks on}). Apache httpd, lighttpd and Caddy cannot:
         * through them the swap race is measured and reported, not required to be zero.
         */
        default boolean confinesAtOpenTime() {
            return true;
        }

        /**
         * Whether it passes request targets with (percent-encoded) control characters on to the application;
         * lighttpd answers them {@code 400} itself.
         */
        default boolean acceptsControlCharactersInTargets() {
            return true;
        }
    }
}
