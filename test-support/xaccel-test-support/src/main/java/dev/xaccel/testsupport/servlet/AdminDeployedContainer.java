package dev.xaccel.testsupport.servlet;

import java.nio.file.Path;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

import dev.xaccel.testsupport.Ports;
import dev.xaccel.testsupport.TestLogging;
import dev.xaccel.testsupport.TestPaths;

/**
 * A Jakarta EE server driven by admin commands (GlassFish, Payara) running one {@link WebApp} as a
 * {@link DeployedWar}, the filter in its {@code WEB-INF/lib}: as these servers run in the tests' JVM, whose class
 * path has the filter too, the WAR's {@value #DESCRIPTOR} makes its class loader take the WAR's own classes first
 * ({@link #WAR_FIRST}; {@link FilterOrigin} shows which copy runs). Each application gets a virtual server of its
 * own with an HTTP listener of its own on a free loopback port, made by {@link #start} and deleted again by
 * {@link #close()}, so that several applications at the root context run at once in the one server a JVM can hold.
 * A server module says how it runs a command and (un)deploys; the sequence is here, once.
 */
public abstract class AdminDeployedContainer implements ServletContainer {

    /** GlassFish's and Payara's own descriptor of a web application. */
    public static final String DESCRIPTOR = "WEB-INF/glassfish-web.xml";
    /** The WAR's own classes before its parent loader's (by default it asks the parent first): a WAR's extra file. */
    public static final Map<String, String> WAR_FIRST = Map.of(DESCRIPTOR, """
            <?xml version="1.0" encoding="UTF-8"?>
            <glassfish-web-app>
              <class-loader delegate="false"/>
            </glassfish-web-app>
            """);

    private static final AtomicInteger DEPLOYMENTS = new AtomicInteger();

    private final String server;
    private final String suite;
    private String deployed;
    private String listener;
    private String virtualServer;

    /**
     * @param server the server's name, in messages and in the directory of its applications under target/
     * @param suite  the suite class the application is for, in its name
     */
    protected AdminDeployedContainer(String server, String suite) {
        this.server = server;
        this.suite = suite;
    }

    /** Runs an admin command of the server (started on first use); fails, naming the command, unless it succeeds. */
    protected abstract void admin(String command, String... args) throws Exception;

    /** Deploys the exploded WAR {@code dir} as {@code name} on {@code virtualServer} at {@code contextRoot}. */
    protected abstract void deploy(String name, String virtualServer, String contextRoot, Path dir) throws Exception;

    /** Undeploys the application {@code name}. */
    protected abstract void undeploy(String name) throws Exception;

    @Override
    public final int start(WebApp app) throws Exception {
        Path log = TestLogging.install();
        String name = suite + "-" + DEPLOYMENTS.incrementAndGet();
        String dirName = server.toLowerCase(Locale.ROOT).replace(' ', '-') + "-apps";
        Path war = DeployedWar.write(app, TestPaths.target().resolve(dirName).resolve(name), WAR_FIRST);
        int port = Ports.freeLoopbackPort();
        try {
            virtualServer = "vs-" + name;
            admin("create-virtual-server", "--hosts=127.0.0.1", virtualServer);
            listener = "l-" + name;
            admin("create-http-listener", "--listeneraddress=127.0.0.1", "--listenerport=" + port,
                    "--defaultvs=" + virtualServer, listener);
            deploy(name, virtualServer, app.contextPath().isEmpty() ? "/" : app.contextPath(), war);
            deployed = name;
        } catch (Exception e) {
            close();
            throw new IllegalStateException(server + " did not start " + name + ": " + e + "; see " + log, e);
        }
        return port;
    }

    @Override
    public final void close() {
        String name = deployed;
        String l = listener;
        String vs = virtualServer;
        deployed = null;
        listener = null;
        virtualServer = null;
        try {
            if (name != null) {
                undeploy(name);
            }
            if (l != null) {
                admin("delete-http-listener", l);
            }
            if (vs != null) {
                admin("delete-virtual-server", vs);
            }
        } catch (Exception e) {
            throw new IllegalStateException(server + " did not undeploy " + name, e);
        }
    }
}
