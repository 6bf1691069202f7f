package dev.xaccel.it.wildfly;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.regex.Pattern;

import dev.xaccel.testsupport.Poll;
import dev.xaccel.testsupport.Ports;
import dev.xaccel.testsupport.Processes;
import dev.xaccel.testsupport.TestPaths;
import dev.xaccel.testsupport.servlet.ServerProcessContainer;
import dev.xaccel.testsupport.servlet.ServletContainer;

/**
 * WildFly 39 (the distribution the build unpacked into target/, {@code standalone.xml}) in a process of its own,
 * one per test JVM, started with the first application and stopped by PID when the JVM exits; everything on
 * 127.0.0.1 on free ports. Each application gets an Undertow server of its own (a socket binding, a server, a host
 * and an HTTP listener, added through the management API while WildFly runs) that the WAR's
 * {@code jboss-web.xml} names, and is deployed from its directory as unmanaged content. Filters are initialized
 * at deployment ({@code eager-filter-initialization}). Undeploying removes the
 * deployment only: removing a listener puts WildFly in "reload-required", after which it adds no more at runtime
 * (measured), so the listeners stay until the server stops.
 */
final class WildFlyContainer extends ServerProcessContainer {

    private static final Duration BOOT = Duration.ofMinutes(3);
    private static final Pattern SUCCESS = Pattern.compile("^\\{\\s*\"outcome\"\\s*:\\s*\"success\"");
    private static final HttpClient HTTP = HttpClient.newHttpClient();
    private static URI management;
    private static int defaultHttpPort;

    private WildFlyContainer(String suite) {
        super("WildFly", suite);
    }

    /**
     * Starts WildFly once: its base directory (configuration, data, logs) is a fresh copy under target/; the
     * management interface answers without authentication, as it is on loopback, for this JVM's tests only.
     */
    private static synchronized URI server() throws IOException {
        if (management != null) {
            return management;
        }
        Path home = Path.of(System.getProperty("xaccel.wildfly.home")).toAbsolutePath();
        Path base = TestPaths.freshDir("wildfly-base");
        Path config = Files.createDirectories(base.resolve("configuration"));
        try (var files = Files.list(home.resolve("standalone/configuration"))) {
            for (Path f : files.filter(Files::isRegularFile).toList()) {
                Files.copy(f, config.resolve(f.getFileName()));
            }
        }
        Path xml = config.resolve("standalone.xml");
        String attribute = " http-authentication-factory=\"management-http-authentication\"";
        String standalone = Files.readString(xml, StandardCharsets.UTF_8);
        if (!standalone.contains(attribute)) {
            throw new IllegalStateException("no" + attribute + " in " + xml);
        }
        // filters are initialized when an application starts, so a misconfigured one fails its deployment
        // (WildFly's default: at the first request)
        String container = "<servlet-container name=\"default\"";
        if (!standalone.contains(container + ">")) {
            throw new IllegalStateException("no " + container + "> in " + xml);
        }
        Files.writeString(xml, standalone.replace(attribute, "").replace(container + ">",
                container + " eager-filter-initialization=\"true\">"), StandardCharsets.UTF_8);
        int[] ports = Ports.freeLoopbackPorts(4).stream().mapToInt(Integer::intValue).toArray();
        ProcessBuilder pb = new ProcessBuilder(home.resolve("bin/standalone.sh").toString(),
                "--read-only-server-config=standalone.xml", "-Djboss.server.base.dir=" + base,
                "-Djboss.bind.address=127.0.0.1", "-Djboss.bind.address.management=127.0.0.1",
                "-Djboss.http.port=" + ports[0], "-Djboss.https.port=" + ports[1],
                "-Djboss.management.http.port=" + ports[2], "-Djboss.management.https.port=" + ports[3])
                .redirectErrorStream(true).redirectOutput(TestPaths.target().resolve("wildfly.out").toFile());
        pb.environment().put("JAVA_HOME", System.getProperty("java.home"));
        // the script then passes SIGTERM on to the server's JVM and waits for it
        pb.environment().put("LAUNCH_JBOSS_IN_BACKGROUND", "1");
        Process p = pb.start();
        Runtime.getRuntime().addShutdownHook(new Thread(() -> Processes.stop(p.toHandle(), null, Duration.ZERO,
                Duration.ofSeconds(20)), "wildfly-stop"));
        URI uri = URI.create("http://127.0.0.1:" + ports[2] + "/management");
        boolean running = Poll.until(BOOT, Duration.ofMillis(200), () -> {
            try {
                return !p.isAlive() || post(uri, "{\"operation\":\"read-attribute\",\"name\":\"server-state\"}")
                        .contains("\"running\"");
            } catch (IOException e) {
                return false;
            }
        });
        if (!running || !p.isAlive()) {
            throw new IllegalStateException("WildFly did not start: " + TestPaths.tail(log(base), 3000));
        }
        management = uri;
        defaultHttpPort = ports[0];
        return uri;
    }

    private static Path log(Path base) {
        return base.resolve("log/server.log");
    }

    private static String post(URI uri, String json) throws IOException {
        HttpRequest request = HttpRequest.newBuilder(uri).header("Content-Type", "application/json")
                .timeout(Duration.ofMinutes(2)).POST(HttpRequest.BodyPublishers.ofString(json)).build();
        try {
            return HTTP.send(request, HttpResponse.BodyHandlers.ofString()).body();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException(e);
        }
    }

    /** Runs a management operation (JSON); fails with WildFly's answer unless it succeeded. */
    private static void operation(String json) throws IOException {
        String answer = post(server(), json);
        if (!SUCCESS.matcher(answer).find()) {
            throw new IllegalStateException("WildFly: " + json + " -> " + answer);
        }
    }

    private static String address(String... pairs) {
        StringBuilder a = new StringBuilder("[");
        for (int i = 0; i < pairs.length; i += 2) {
            a.append(i == 0 ? "" : ",").append("{\"").append(pairs[i]).append("\":\"").append(pairs[i + 1])
                    .append("\"}");
        }
        return a.append(']').toString();
    }

    /**
     * Deploys a built WAR file as shipped (no descriptor of the harness) at {@code /} of WildFly's default server;
     * returns that server's HTTP port.
     */
    static int deployArchive(String name, Path war) throws IOException {
        server();
        operation("{\"operation\":\"add\",\"address\":" + address("deployment", name)
                + ",\"runtime-name\":\"ROOT.war\",\"content\":[{\"path\":\"" + war.toAbsolutePath()
                + "\",\"archive\":true}],\"enabled\":true}");
        return defaultHttpPort;
    }

    /** Undeploys what {@link #deployArchive} deployed. */
    static void undeployArchive(String name) throws IOException {
        operation("{\"operation\":\"remove\",\"address\":" + address("deployment", name) + "}");
    }

    @Override
    protected Map<String, String> descriptors(String name) {
        return Map.of("WEB-INF/jboss-web.xml", """
                <?xml version="1.0" encoding="UTF-8"?>
                <jboss-web>
                  <context-root>/</context-root>
                  <server-instance>s-%1$s</server-instance>
                  <virtual-host>h-%1$s</virtual-host>
                </jboss-web>
                """.formatted(name));
    }

    @Override
    protected void deploy(String name, int port, Path dir) throws Exception {
        String undertow = "\"subsystem\":\"undertow\"},{\"server\":\"s-" + name + "\"";
        operation("{\"operation\":\"composite\",\"address\":[],\"steps\":["
                + "{\"operation\":\"add\",\"address\":" + address("socket-binding-group", "standard-sockets",
                        "socket-binding", "b-" + name) + ",\"port\":" + port + ",\"interface\":\"public\"},"
                + "{\"operation\":\"add\",\"address\":[{" + undertow + "}],\"default-host\":\"h-" + name + "\"},"
                + "{\"operation\":\"add\",\"address\":[{" + undertow + "},{\"host\":\"h-" + name + "\"}]},"
                + "{\"operation\":\"add\",\"address\":[{" + undertow + "},{\"http-listener\":\"l-" + name
                + "\"}],\"socket-binding\":\"b-" + name + "\"}]}");
        operation("{\"operation\":\"add\",\"address\":" + address("deployment", name + ".war")
                + ",\"content\":[{\"path\":\"" + dir.toString().replace("\\", "\\\\").replace("\"", "\\\"")
                + "\",\"archive\":false}],\"enabled\":true}");
        if (!Poll.until(Duration.ofSeconds(30), () -> Ports.accepts(port))) {
            throw new IllegalStateException("nothing listens on " + port);
        }
    }

    @Override
    protected void undeploy(String name) throws Exception {
        operation("{\"operation\":\"remove\",\"address\":" + address("deployment", name + ".war") + "}");
    }

    @Override
    protected Path log() {
        return log(TestPaths.target().resolve("wildfly-base"));
    }

    /** Registered in this module's META-INF/services. */
    public static final class Factory implements ServletContainer.Factory {

        @Override
        public String name() {
            return "wildfly-39.0.1.Final";
        }

        @Override
        public ServletContainer create(String suite, boolean lenient) {
            return new WildFlyContainer(suite);
        }

        /**
         * WildFly 39 implements Servlet 6.1, but a context reports the version of its web.xml, and the suite's
         * WARs declare 6.0 (measured: {@code getMinorVersion()} is 0), as every Servlet 6 server accepts.
         */
        @Override
        public String servletVersion() {
            return "6.0";
        }

        @Override
        public boolean hasLenientMode() {
            return false;
        }

        /** WildFly's servlet container is Undertow: the filter hands it the open channel, as embedded Undertow. */
        @Override
        public String expectedBodyWriter() {
            return "channel-transfer";
        }
    }
}
