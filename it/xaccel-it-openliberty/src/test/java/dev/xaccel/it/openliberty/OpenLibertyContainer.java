package dev.xaccel.it.openliberty;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import dev.xaccel.testsupport.Poll;
import dev.xaccel.testsupport.Ports;
import dev.xaccel.testsupport.Processes;
import dev.xaccel.testsupport.TestPaths;
import dev.xaccel.testsupport.servlet.ServerProcessContainer;
import dev.xaccel.testsupport.servlet.ServletContainer;

/**
 * Open Liberty 25 (the distribution the build unpacked into target/wlp, feature servlet-6.0) in processes of its
 * own, stopped by PID when the test JVM exits. A server runs one application at a time: a file in its
 * {@code configDropins/overrides}, which Liberty reads while running, gives its default endpoint a free loopback
 * port and deploys the WAR at {@code /}; deleting the file undeploys it and closes the port. One server is booted
 * for the first application and reused by the next; a second one only while two applications run at once
 * (SpoofedMarkerIT, SymlinkSwapIT). Several applications at {@code /} in one server would need a virtual host
 * each, and Liberty picks the virtual host by the {@code Host} header alone, whose port the suite's requests and
 * nginx's {@code Host $host} leave out (port 80 for every application; measured: CWWKT0027W, the alias conflicts).
 */
final class OpenLibertyContainer extends ServerProcessContainer {

    private static final Duration BOOT = Duration.ofMinutes(3);
    private static final List<Server> SERVERS = new ArrayList<>();

    private Server server;

    private OpenLibertyContainer(String suite) {
        super("Open Liberty", suite);
    }

    /** One Liberty process and whether an application runs in it. */
    private static final class Server {
        final Path dir;
        boolean busy;

        Server(Path dir) {
            this.dir = dir;
        }

        Path messages() {
            return dir.resolve("logs/messages.log");
        }

        Path dropin() {
            return dir.resolve("configDropins/overrides/app.xml");
        }

        /** Waits until messages.log has a line with {@code ok}; fails at a {@code failed} or at the timeout. */
        void awaitLog(Process p, String ok, String... failed) {
            String[] seen = new String[1];
            boolean done = Poll.until(BOOT, Duration.ofMillis(50), () -> {
                String log = read();
                for (String f : failed) {
                    if (log.contains(f)) {
                        seen[0] = f;
                        return true;
                    }
                }
                return log.contains(ok) || p != null && !p.isAlive();
            });
            if (!done || seen[0] != null || p != null && !p.isAlive()) {
                throw new IllegalStateException("Open Liberty: no '" + ok + "' in " + messages() + ": "
                        + TestPaths.tail(messages(), 2000));
            }
        }

        private String read() {
            try {
                return Files.exists(messages()) ? Files.readString(messages(), StandardCharsets.UTF_8) : "";
            } catch (IOException e) {
                return "";
            }
        }
    }

    /** An idle server, booted when there is none. */
    private static synchronized Server take() throws IOException {
        for (Server s : SERVERS) {
            if (!s.busy) {
                s.busy = true;
                return s;
            }
        }
        Server s = boot("xaccel" + (SERVERS.size() + 1));
        s.busy = true;
        SERVERS.add(s);
        return s;
    }

    private static synchronized void release(Server s) {
        s.busy = false;
    }

    private static Server boot(String name) throws IOException {
        Path home = Path.of(System.getProperty("xaccel.openliberty.home", "target/wlp")).toAbsolutePath();
        Path usr = TestPaths.target().resolve("openliberty-usr");
        Path dir = TestPaths.fresh(usr.resolve("servers").resolve(name));
        Files.createDirectories(dir.resolve("configDropins/overrides"));
        // the default endpoint has no port until an application gives it one; no welcome page; filters and
        // servlets initialized when an application starts (Liberty's default: at its first request); the filter's
        // FINE lines for the tests (Liberty sets each logger's level from its trace specification, so a level the
        // application sets on a parent logger does not reach the loggers below it)
        Files.writeString(dir.resolve("server.xml"), """
                <server>
                  <featureManager><feature>servlet-6.0</feature></featureManager>
                  <logging traceSpecification="*=info:dev.xaccel.filter.*=fine"/>
                  <httpEndpoint id="defaultHttpEndpoint" host="127.0.0.1" httpPort="-1" httpsPort="-1"/>
                  <httpDispatcher enableWelcomePage="false"/>
                  <webContainer deferServletLoad="false" invokeFilterInitAtStartup="true"/>
                  <applicationMonitor updateTrigger="disabled" dropinsEnabled="false"/>
                  <config updateTrigger="polled" monitorInterval="100ms"/>
                </server>
                """, StandardCharsets.UTF_8);
        // no command port (the server is stopped by PID)
        Files.writeString(dir.resolve("bootstrap.properties"), "command.port=-1\n", StandardCharsets.UTF_8);
        ProcessBuilder pb = new ProcessBuilder(home.resolve("bin/server").toString(), "run", name)
                .redirectErrorStream(true).redirectOutput(TestPaths.target().resolve(name + ".out").toFile());
        pb.environment().put("WLP_USER_DIR", usr.toString());
        pb.environment().put("JAVA_HOME", System.getProperty("java.home"));
        Process p = pb.start();
        Runtime.getRuntime().addShutdownHook(new Thread(() -> Processes.stop(p.toHandle(), null, Duration.ZERO,
                Duration.ofSeconds(20)), name + "-stop"));
        Server s = new Server(dir);
        s.awaitLog(p, "CWWKF0011I");
        return s;
    }

    @Override
    protected void deploy(String name, int port, Path dir) throws Exception {
        server = take();
        Files.writeString(server.dropin(), """
                <server>
                  <httpEndpoint id="defaultHttpEndpoint" host="127.0.0.1" httpPort="%2$d" httpsPort="-1"/>
                  <webApplication id="%1$s" name="%1$s" location="%3$s" contextRoot="/"/>
                </server>
                """.formatted(name, port, dir), StandardCharsets.UTF_8);
        server.awaitLog(null, "CWWKZ0001I: Application " + name + " started", "the application " + name + ".",
                "application " + name + " was not started");
        if (!Poll.until(Duration.ofSeconds(30), () -> Ports.accepts(port))) {
            throw new IllegalStateException("nothing listens on " + port);
        }
    }

    @Override
    protected void undeploy(String name) throws Exception {
        Server s = server;
        server = null;
        Files.delete(s.dropin());
        s.awaitLog(null, "CWWKZ0009I: The application " + name + " has stopped");
        release(s);
    }

    @Override
    protected Path log() {
        return server != null ? server.messages() : TestPaths.target().resolve("openliberty-usr/servers");
    }

    /** Registered in this module's META-INF/services. */
    public static final class Factory implements ServletContainer.Factory {

        @Override
        public String name() {
            return "openliberty-25.0.0.12";
        }

        @Override
        public ServletContainer create(String suite, boolean lenient) {
            return new OpenLibertyContainer(suite);
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

        /**
         * Liberty answers a name with {@code #} ({@code %23}) 400 itself and one with {@code ;} 404 (it takes what
         * follows as a path parameter), before any filter runs (measured, docs/containers.md).
         */
        @Override
        public boolean passesName(String name) {
            return !name.contains("#") && !name.contains(";");
        }
    }
}
