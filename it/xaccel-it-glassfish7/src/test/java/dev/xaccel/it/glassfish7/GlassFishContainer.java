package dev.xaccel.it.glassfish7;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.OptionalInt;

import org.glassfish.embeddable.CommandResult;
import org.glassfish.embeddable.GlassFish;
import org.glassfish.embeddable.GlassFishProperties;
import org.glassfish.embeddable.GlassFishRuntime;

import dev.xaccel.testsupport.Ports;
import dev.xaccel.testsupport.TestPaths;
import dev.xaccel.testsupport.servlet.AdminDeployedContainer;
import dev.xaccel.testsupport.servlet.ServletContainer;

/**
 * GlassFish 7 (embedded, in the tests' JVM) on 127.0.0.1 running one application per container, deployed with
 * GlassFish's deployer on a virtual server and listener of its own ({@link AdminDeployedContainer}).
 * <p>
 * One GlassFish per JVM, started with the first application and stopped when the JVM exits: embedded GlassFish
 * cannot start a second server in a JVM once one was disposed (its services' run levels stay set).
 */
final class GlassFishContainer extends AdminDeployedContainer {

    /** GlassFish's own listener and virtual server, where an application deployed without naming one lands. */
    static final String DEFAULT_VIRTUAL_SERVER = "server";
    private static GlassFish glassfish;
    private static int defaultPort;

    private GlassFishContainer(String suite) {
        super("GlassFish", suite);
    }

    private static synchronized GlassFish server() throws Exception {
        if (glassfish == null) {
            // GlassFish unpacks its instance to a temporary directory: below target/, not /tmp
            Path tmp = Files.createDirectories(TestPaths.target().resolve("glassfish-tmp").toAbsolutePath());
            System.setProperty("glassfish.embedded.tmpdir", tmp.toString());
            GlassFishProperties properties = new GlassFishProperties();
            int port = Ports.freeLoopbackPort();
            properties.setPort("http-listener", port);
            properties.setProperty("embedded-glassfish-config.server.network-config.network-listeners"
                    + ".network-listener.http-listener.address", "127.0.0.1");
            // The setting docs/containers.md gives users: on its own listener GlassFish maps the request itself and
            // answers 500 to an encoded slash without it (DefaultListenerIT; the suite's listeners are not concerned)
            properties.setProperty("embedded-glassfish-config.server.network-config.protocols.protocol"
                    + ".http-listener.http.encoded-slash-enabled", "true");
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
            defaultPort = port;
        }
        return glassfish;
    }

    /**
     * Deploys the exploded WAR {@code dir} as {@code name} at the root of GlassFish's own virtual server, on its
     * own listener {@code http-listener} (booted with {@code encoded-slash-enabled=true}), as an application
     * deployed without naming a virtual server.
     *
     * @return that listener's port
     */
    static int deployOnDefaultListener(String name, Path dir) throws Exception {
        if (server().getDeployer().deploy(dir.toFile(), "--name=" + name, "--virtualservers=" + DEFAULT_VIRTUAL_SERVER,
                "--contextroot=/") == null) {
            throw new IllegalStateException("deploy failed: " + dir);
        }
        return defaultPort;
    }

    static void undeployFromDefaultListener(String name) throws Exception {
        server().getDeployer().undeploy(name);
    }

    @Override
    protected void admin(String command, String... args) throws Exception {
        CommandResult result = server().getCommandRunner().run(command, args);
        if (result.getExitStatus() != CommandResult.ExitStatus.SUCCESS) {
            throw new IllegalStateException(command + " failed: " + result.getOutput(), result.getFailureCause());
        }
    }

    @Override
    protected void deploy(String name, String virtualServer, String contextRoot, Path dir) throws Exception {
        if (server().getDeployer().deploy(dir.toFile(), "--name=" + name, "--virtualservers=" + virtualServer,
                "--contextroot=" + contextRoot) == null) {
            throw new IllegalStateException("deploy failed: " + dir);
        }
    }

    @Override
    protected void undeploy(String name) throws Exception {
        server().getDeployer().undeploy(name);
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

        /**
         * Measured (docs/containers.md, "GlassFish 7"): 503 to a {@code :} in the path (its JACC check cannot make a
         * permission of that path and answers 503), 200 with an empty body to a {@code %u} escape (Grizzly's
         * decoder throws, the adapter logs it and completes the response).
         */
        @Override
        public OptionalInt ownStatus(String target) {
            String path = target.startsWith("/") ? target.split("\\?", 2)[0] : "";
            if (path.contains(":")) {
                return OptionalInt.of(503);
            }
            return path.contains("%u") ? OptionalInt.of(200) : OptionalInt.empty();
        }
    }
}
