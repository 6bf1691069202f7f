package dev.xaccel.it.glassfish7;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicInteger;

import org.glassfish.embeddable.CommandResult;
import org.glassfish.embeddable.GlassFish;
import org.glassfish.embeddable.GlassFishProperties;
import org.glassfish.embeddable.GlassFishRuntime;

import dev.xaccel.testsupport.Ports;
import dev.xaccel.testsupport.TestLogging;
import dev.xaccel.testsupport.TestPaths;
import dev.xaccel.testsupport.servlet.ExplodedWar;
import dev.xaccel.testsupport.servlet.ServletContainer;
import dev.xaccel.testsupport.servlet.WebApp;

/**
 * GlassFish 7 (embedded, in the tests' JVM) on 127.0.0.1 running one {@link WebApp} as an {@link ExplodedWar},
 * deployed with GlassFish's deployer and undeployed by {@link #close()}.
 * <p>
 * One GlassFish per JVM, started with the first application and stopped when the JVM exits: embedded GlassFish
 * cannot start a second server in a JVM once one was disposed (its services' run levels stay set). Each container
 * is a virtual server of its own with an HTTP listener of its own on a free loopback port, made with GlassFish's
 * admin commands and deleted again by {@link #close()}, so that several applications at the root context run at
 * once (the suite's spoofed-marker and symlink-swap classes start two).
 */
final class GlassFishContainer implements ServletContainer {

    private static final AtomicInteger DEPLOYMENTS = new AtomicInteger();
    private static GlassFish glassfish;

    private final String suite;
    private ExplodedWar war;
    private String deployed;
    private String listener;
    private String virtualServer;

    private GlassFishContainer(String suite) {
        this.suite = suite;
    }

    private static synchronized GlassFish server() throws Exception {
        if (glassfish == null) {
            // GlassFish unpacks its instance to a temporary directory: below target/, not /tmp
            Path tmp = Files.createDirectories(TestPaths.target().resolve("glassfish-tmp").toAbsolutePath());
            System.setProperty("glassfish.embedded.tmpdir", tmp.toString());
            GlassFishProperties properties = new GlassFishProperties();
            properties.setPort("http-listener", Ports.freeLoopbackPort());
            properties.setProperty("embedded-glassfish-config.server.network-config.network-listeners"
                    + ".network-listener.http-listener.address", "127.0.0.1");
            GlassFish gf = GlassFishRuntime.bootstrap().newGlassFish(properties);
            gf.start();
            Runtime.getRuntime().addShutdownHook(new Thread(() -> {
                try {
                    gf.dispose();
                } catch (Exception e) {
                    // the JVM is going: nothing is left to tell
                }
            }, "glassfish-stop"));
            glassfish = gf;
        }
        return glassfish;
    }

    @Override
    public int start(WebApp app) throws Exception {
        Path log = TestLogging.install();
        String name = suite + "-" + DEPLOYMENTS.incrementAndGet();
        war = ExplodedWar.write(app, TestPaths.target().resolve("glassfish-apps").resolve(name).toAbsolutePath());
        String deployedName;
        int port = Ports.freeLoopbackPort();
        try {
            GlassFish gf = server();
            virtualServer = "vs-" + name;
            admin(gf, "create-virtual-server", "--hosts=127.0.0.1", virtualServer);
            listener = "l-" + name;
            admin(gf, "create-http-listener", "--listeneraddress=127.0.0.1", "--listenerport=" + port,
                    "--defaultvs=" + virtualServer, listener);
            deployedName = gf.getDeployer().deploy(war.dir().toFile(), "--name=" + name,
                    "--virtualservers=" + virtualServer,
                    "--contextroot=" + (app.contextPath().isEmpty() ? "/" : app.contextPath()));
        } catch (Exception e) {
            close();
            throw new IllegalStateException("GlassFish did not start: " + e + "; see " + log, e);
        }
        if (deployedName == null) {
            close();
            throw new IllegalStateException("GlassFish did not deploy " + war.dir() + "; see " + log);
        }
        deployed = deployedName;
        return port;
    }

    private static void admin(GlassFish gf, String command, String... args) throws Exception {
        CommandResult result = gf.getCommandRunner().run(command, args);
        if (result.getExitStatus() != CommandResult.ExitStatus.SUCCESS) {
            throw new IllegalStateException(command + " failed: " + result.getOutput(), result.getFailureCause());
        }
    }

    @Override
    public void close() {
        String name = deployed;
        String l = listener;
        String vs = virtualServer;
        deployed = null;
        listener = null;
        virtualServer = null;
        try {
            if (name != null) {
                glassfish.getDeployer().undeploy(name);
            }
            if (l != null) {
                admin(glassfish, "delete-http-listener", l);
            }
            if (vs != null) {
                admin(glassfish, "delete-virtual-server", vs);
            }
        } catch (Exception e) {
            throw new IllegalStateException("GlassFish did not undeploy " + name, e);
        } finally {
            if (war != null) {
                war.close();
                war = null;
            }
        }
    }

    /** Registered in this module's META-INF/services. */
    public static final class Factory implements ServletContainer.Factory {

        @Override
        public String name() {
            return "glassfish-7.0.25";
        }

        @Override
        public ServletContainer create(String suite, boolean lenient) {
            return new GlassFishContainer(suite);
        }

        @Override
        public String servletVersion() {
            return "6.0";
        }

        @Override
        public boolean hasLenientMode() {
            return false;
        }

        @Override
        public String expectedBodyWriter() {
            return "copy";
        }

        /** GlassFish answers 404 to a {@code ;} in the path and 503 to the name with {@code :} (measured). */
        @Override
        public boolean passesName(String name) {
            return !name.contains(";") && !name.contains(":");
        }
    }
}
