package dev.xaccel.testsupport.servlet;

import java.util.OptionalInt;

/**
 * A Servlet container the end-to-end suites deploy a {@link WebApp} into, the way its web.xml would declare it
 * (filters by class name with string init-params, servlets with their mappings, the MIME mappings): Tomcat, Jetty,
 * Undertow. One instance runs one application on 127.0.0.1; {@link #close()} stops it.
 * <p>
 * A container module makes its containers known with a {@link Factory} registered for {@link java.util.ServiceLoader}
 * ({@code META-INF/services/dev.xaccel.testsupport.servlet.ServletContainer$Factory} in its test resources): the
 * delivery suite takes the one factory on the class path.
 */
public interface ServletContainer extends AutoCloseable {

    /**
     * Deploys {@code app} and starts listening on a free loopback port.
     *
     * @return the port
     * @throws Exception when the container or the application does not start (the message names the log)
     */
    int start(WebApp app) throws Exception;

    /** Stops the container; nothing happens when it never started. */
    @Override
    void close();

    /** Makes containers of one kind and version. */
    interface Factory {

        /**
         * Kind and version, as reports and directory names show it: {@code tomcat-11.0.27},
         * {@code jetty-12.1.14-ee10}.
         */
        String name();

        /**
         * A container whose working directories are below {@code target/<name()>-<suite>}.
         *
         * @param lenient let more through to the application where the container can be told to (backslashes,
         *                encoded {@code /} and {@code \}, characters it rejects in paths by default): hands the code
         *                under test input a stricter container refuses; see {@link #hasLenientMode()}
         */
        ServletContainer create(String suite, boolean lenient);

        /**
         * The Servlet version its applications run on ({@code ServletContext} major.minor): {@code 6.0}, {@code 6.1}.
         */
        String servletVersion();

        /** Whether {@code create(suite, true)} differs from the strict container. */
        boolean hasLenientMode();

        /**
         * The name of the body writer the filter picks here for a large, directly served single range by default
         * (its FINE log line {@code body via <name>}): {@code copy}, {@code channel-transfer}, {@code byte-buffer}.
         */
        String expectedBodyWriter();

        /**
         * Whether a request for a file of this name, percent-encoded as the suite sends it, reaches the application:
         * a container may answer some names itself before any filter runs (GlassFish 7: 404 for a {@code ;}, 503
         * for a name with {@code :}; docs/containers.md). For such a name the suite checks that the file is not sent
         * instead of that it is. Every other container passes every name.
         */
        default boolean passesName(String name) {
            return true;
        }

        /**
         * The status this container answers itself, before any filter runs, to the request target {@code target}
         * (sent verbatim, as TraversalIT's corpus sends it), where that answer is not what the suite asks of the
         * filter (a 4xx under a mapped prefix, never a 200 for a canary); empty for every other target, which is
         * the default. Measured per container and listed in docs/containers.md (GlassFish 7 and Payara Micro 7:
         * 503 for a {@code :} in the path, 200 with an empty body for a {@code %u} escape). TraversalIT asserts
         * exactly this status for such a target (so an upgrade that changes it is noticed), that the application's
         * first filter never saw the request, and, as for every target, that no byte from outside the root comes
         * back.
         */
        default OptionalInt ownStatus(String target) {
            return OptionalInt.empty();
        }
    }
}
