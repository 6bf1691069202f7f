package dev.xaccel.it.payara;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.OptionalInt;

import fish.payara.micro.BootstrapException;
import fish.payara.micro.ClusterCommandResult;
import fish.payara.micro.PayaraMicro;
import fish.payara.micro.PayaraMicroRuntime;
import fish.payara.micro.boot.AdminCommandRunner;

import dev.xaccel.testsupport.Ports;
import dev.xaccel.testsupport.TestPaths;
import dev.xaccel.testsupport.servlet.AdminDeployedContainer;
import dev.xaccel.testsupport.servlet.ServletContainer;

/**
 * Payara Micro 7 (in the tests' JVM, booted with its API) on 127.0.0.1 running one application per container,
 * deployed with Payara's {@code deploy} admin command on a virtual server and listener of its own
 * ({@link AdminDeployedContainer}).
 * <p>
 * One Payara Micro per JVM ({@code PayaraMicro} is a singleton), started with the first application and stopped
 * when the JVM exits. Payara Micro needs Java 21+: the module's failsafe JVM is Java 25
 * (pom.xml, {@code xaccel.java25}).
 */
final class PayaraMicroContainer extends AdminDeployedContainer {

    private static final String DOMAIN_XML = "MICRO-INF/domain/domain.xml";
    private static AdminCommandRunner admin;

    private PayaraMicroContainer(String suite) {
        super("Payara Micro", suite);
    }

    private static synchronized AdminCommandRunner server() throws BootstrapException, IOException {
        if (admin == null) {
            // In the tests' JVM (not java -jar) nothing installs a JACC policy factory, and every deployment then
            // fails in Exousia ("policyFactory is null", measured): name Payara's default one.
            System.setProperty("jakarta.security.jacc.PolicyFactory.provider",
                    "org.glassfish.exousia.modules.def.DefaultPolicyFactory");
            AdminCommandRunner[] runner = new AdminCommandRunner[1];
            PayaraMicro micro = PayaraMicro.getInstance()
                    .setRootDir(TestPaths.target().resolve("payara-root").toAbsolutePath().toFile())
                    .setAlternateDomainXML(loopbackDataGrid().toFile())
                    .setHttpPort(Ports.freeLoopbackPort())
                    .setHttpAutoBind(false)
                    .setNoCluster(true)
                    .setPrintLogo(false);
            // its default listener binds every address: loopback only
            micro.setPreBootHandler(r -> check(r.run("set", "configs.config.server-config.network-config"
                    + ".network-listeners.network-listener.http-listener.address=127.0.0.1"), "set address"));
            micro.setPostBootHandler(r -> runner[0] = r);
            PayaraMicroRuntime runtime = micro.bootStrap();
            Runtime.getRuntime().addShutdownHook(new Thread(() -> {
                try {
                    runtime.shutdown();
                } catch (Exception e) {
                    // the JVM is going: nothing is left to tell
                }
            }, "payara-stop"));
            admin = runner[0];
        }
        return admin;
    }

    /**
     * Payara's domain.xml with its data grid (Hazelcast, started even with clustering off) on loopback: by default
     * it listens on every address, port 6900 (measured).
     */
    private static Path loopbackDataGrid() throws IOException {
        String xml;
        try (InputStream in = PayaraMicro.class.getClassLoader().getResourceAsStream(DOMAIN_XML)) {
            if (in == null) {
                throw new IllegalStateException("no " + DOMAIN_XML + " in payara-micro");
            }
            xml = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
        String element = "<hazelcast-runtime-configuration ";
        if (!xml.contains(element)) {
            throw new IllegalStateException("no " + element.trim() + " in " + DOMAIN_XML);
        }
        // Hazelcast binds every address unless told not to, the interface alone is not enough
        System.setProperty("hazelcast.socket.bind.any", "false");
        Path file = TestPaths.target().resolve("payara-domain.xml").toAbsolutePath();
        Files.writeString(file, xml.replace(element, element + "interface=\"127.0.0.1\" "), StandardCharsets.UTF_8);
        return file;
    }

    @Override
    protected void admin(String command, String... args) throws Exception {
        check(server().run(command, args), command);
    }

    @Override
    protected void deploy(String name, String virtualServer, String contextRoot, Path dir) throws Exception {
        admin("deploy", "--name=" + name, "--virtualservers=" + virtualServer, "--contextroot=" + contextRoot,
                dir.toString());
    }

    @Override
    protected void undeploy(String name) throws Exception {
        admin("undeploy", name);
    }

    private static void check(ClusterCommandResult result, String what) {
        if (result.getExitStatus() != ClusterCommandResult.ExitStatus.SUCCESS) {
            throw new IllegalStateException(what + " failed: " + result.getOutput(), result.getFailureCause());
        }
    }

    /** Registered in this module's META-INF/services. */
    public static final class Factory implements ServletContainer.Factory {

        @Override
        public String name() {
            return "payara-micro-7.2025.1";
        }

        @Override
        public ServletContainer create(String suite, boolean lenient) {
            return new PayaraMicroContainer(suite);
        }

        @Override
        public String servletVersion() {
            return "6.1";
        }

        @Override
        public boolean hasLenientMode() {
            return false;
        }

        /**
         * Its response stream is {@code org.apache.catalina.connector.CoyoteOutputStream} (Payara's fork of
         * Catalina) with Servlet 6.1's {@code write(ByteBuffer)}: the filter hands it direct buffers, as on Tomcat
         * (GlassFish 7's, Servlet 6.0, has no such write and gets {@code copy}).
         */
        @Override
        public String expectedBodyWriter() {
            return "direct-buffer";
        }

        /** As GlassFish: 404 to a {@code ;} in the path, 503 to the name with {@code :} (measured). */
        @Override
        public boolean passesName(String name) {
            return !name.contains(";") && !name.contains(":");
        }

        /**
         * As GlassFish (measured, docs/containers.md, "Payara Micro 7"): 503 to a {@code :} in the path (its JACC
         * check cannot make a permission of that path), 200 with an empty body to a {@code %u} escape (Grizzly's
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
