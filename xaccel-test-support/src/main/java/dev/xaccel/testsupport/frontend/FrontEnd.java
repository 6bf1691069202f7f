package dev.xaccel.testsupport.frontend;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Map;

/**
 * A kind of front end a delivery test runs through: how the filter behind it is configured (the offload header it
 * understands) and how to start it in front of an application.
 */
public interface FrontEnd {

    /** {@code nginx}, {@code apache}, {@code lighttpd}, {@code caddy}: for test names and directories. */
    String id();

    /** The filter's {@code headerType} behind this front end (the marker value it sets, too). */
    String headerType();

    /**
     * The filter's init-params that make it offload through this front end from {@code mediaRoot}: its
     * {@code locations} entry and {@code headerType}.
     */
    Map<String, String> filterParams(Path mediaRoot);

    /**
     * Starts it with {@code prefix} as its directory, in front of the application on loopback port {@code appPort},
     * offloading from {@code mediaRoot} (a real path).
     *
     * @param extra values of further placeholders the configuration may have
     */
    FrontEndServer start(Path prefix, int appPort, Path mediaRoot, Map<String, String> extra) throws IOException;

    /** {@link #start(Path, int, Path, Map)} without further values. */
    default FrontEndServer start(Path prefix, int appPort, Path mediaRoot) throws IOException {
        return start(prefix, appPort, mediaRoot, Map.of());
    }
}
