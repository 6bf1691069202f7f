package dev.xaccel.testsupport.servlet;

import java.nio.file.Path;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

import dev.xaccel.testsupport.Ports;
import dev.xaccel.testsupport.TestPaths;

/**
 * A server in a process of its own (WildFly, Open Liberty) running one {@link WebApp} as a {@link DeployedWar}
 * under {@code target/<server>-apps/}, on a listener of its own on a free loopback port, so that several
 * applications at the root context run at once in the one server a test JVM starts. A server module says how it
 * deploys and undeploys; the sequence is here, once.
 */
public abstract class ServerProcessContainer implements ServletContainer {

    private static final AtomicInteger DEPLOYMENTS = new AtomicInteger();

    private final String server;
    private final String suite;
    private String deployed;

    /**
     * @param server the server's name, in messages and in the directory of its applications under target/
     * @param suite  the suite class the application is for, in its name
     */
    protected ServerProcessContainer(String server, String suite) {
        this.server = server;
        this.suite = suite;
    }

    /** Server-specific files of the WAR (relative name, text) for an application named {@code name}. */
    protected Map<String, String> descriptors(String name) {
        return Map.of();
    }

    /**
     * Deploys the exploded WAR {@code dir} as {@code name} at the root context on a new listener on
     * {@code 127.0.0.1:port}, starting the server first if it is not running; returns once it answers there.
     */
    protected abstract void deploy(String name, int port, Path dir) throws Exception;

    /** Undeploys the application {@code name} (its listener may stay until the server stops). */
    protected abstract void undeploy(String name) throws Exception;

    /** The server's log, for messages. */
    protected abstract Path log();

    @Override
    public final int start(WebApp app) throws Exception {
        if (!app.contextPath().isEmpty()) {
            throw new IllegalArgumentException(server + " runs the suite's applications at the root context only");
        }
        String name = suite + "-" + DEPLOYMENTS.incrementAndGet();
        Path dir = TestPaths.target().resolve(server.toLowerCase(Locale.ROOT).replace(' ', '-') + "-apps")
                .resolve(name);
        int port = Ports.freeLoopbackPort();
        try {
            DeployedWar.write(app, dir, descriptors(name));
            deploy(name, port, dir);
            deployed = name;
        } catch (Exception e) {
            throw new IllegalStateException(server + " did not start " + name + ": " + e + "; see " + log(), e);
        }
        return port;
    }

    @Override
    public final void close() {
        String name = deployed;
        deployed = null;
        if (name != null) {
            try {
                undeploy(name);
            } catch (Exception e) {
                throw new IllegalStateException(server + " did not undeploy " + name + "; see " + log(), e);
            }
        }
    }
}
