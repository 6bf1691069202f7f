package dev.xaccel.sample;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * A standalone Tomcat 11 installed the way a user does it: the real distribution (unpacked by the build
 * from Maven Central) as CATALINA_HOME, the connector jar and JNA copied into its lib/, a CATALINA_BASE
 * with the distribution's conf/ plus sample-webapp/tomcat/server.xml (ports replaced), the WAR as
 * webapps/ROOT.war, started and stopped with bin/catalina.sh.
 */
final class CatalinaServer implements AutoCloseable {

    final Path home;
    final Path base;
    final int port;
    final int shutdownPort;
    private final Map<String, String> env;
    private boolean running;

    private CatalinaServer(Path home, Path base, int port, int shutdownPort, Map<String, String> env) {
        this.home = home;
        this.base = base;
        this.port = port;
        this.shutdownPort = shutdownPort;
        this.env = env;
    }

    /** Installs and starts; returns once the application answers. */
    static CatalinaServer start(Path base, Map<String, String> appEnv) throws Exception {
        Path home = ItSupport.property("xaccel.it.tomcatDist");
        if (!Files.isRegularFile(home.resolve("bin/catalina.sh"))) {
            throw new AssertionError("no Tomcat distribution at " + home
                    + ": the build unpacks org.apache.tomcat:tomcat (tar.gz) there in pre-integration-test");
        }
        // the connector, as users install it: jar + JNA into $CATALINA_HOME/lib
        Path connectorLib = ItSupport.property("xaccel.it.connectorLib");
        try (Stream<Path> jars = Files.list(connectorLib)) {
            List<Path> list = jars.filter(p -> p.toString().endsWith(".jar")).toList();
            if (list.stream().noneMatch(p -> p.getFileName().toString().startsWith("xaccel-tomcat-connector"))
                    || list.stream().noneMatch(p -> p.getFileName().toString().startsWith("jna"))) {
                throw new AssertionError("connector jar or JNA missing in " + connectorLib + ": " + list);
            }
            for (Path jar : list) {
                Files.copy(jar, home.resolve("lib").resolve(jar.getFileName()), StandardCopyOption.REPLACE_EXISTING);
            }
        }

        deleteTree(base);
        for (String d : List.of("conf", "logs", "temp", "webapps", "work")) {
            Files.createDirectories(base.resolve(d));
        }
        try (Stream<Path> conf = Files.list(home.resolve("conf"))) {
            for (Path f : conf.filter(Files::isRegularFile).toList()) {
                Files.copy(f, base.resolve("conf").resolve(f.getFileName()));
            }
        }
        int port = ItSupport.freePort();
        int shutdownPort = ItSupport.freePort();
        Path snippet = ItSupport.property("xaccel.it.nginxTemplate").getParent().getParent()
                .resolve("tomcat/server.xml");
        String serverXml = Files.readString(snippet, StandardCharsets.UTF_8)
                .replace("port=\"8081\"", "port=\"" + port + "\"")
                .replace("<Server port=\"8005\"", "<Server port=\"" + shutdownPort + "\"");
        if (!serverXml.contains("\"" + port + "\"") || !serverXml.contains("\"" + shutdownPort + "\"")) {
            throw new AssertionError("could not set the ports in " + snippet);
        }
        Files.writeString(base.resolve("conf/server.xml"), serverXml, StandardCharsets.UTF_8);
        Files.copy(ItSupport.property("xaccel.it.war"), base.resolve("webapps/ROOT.war"));

        Map<String, String> env = new java.util.HashMap<>(appEnv);
        env.put("CATALINA_HOME", home.toString());
        env.put("CATALINA_BASE", base.toString());
        env.put("CATALINA_PID", base.resolve("catalina.pid").toString());
        env.put("CATALINA_OUT", base.resolve("logs/catalina.out").toString());
        env.put("JAVA_HOME", System.getProperty("java.home"));
        env.put("CATALINA_OPTS", "-Xmx256m -Djava.awt.headless=true");
        CatalinaServer server = new CatalinaServer(home, base, port, shutdownPort, env);
        server.catalina("start");
        server.running = true;
        server.awaitReady();
        return server;
    }

    String url(String path) {
        return "http://127.0.0.1:" + port + path;
    }

    Path catalinaOut() {
        return base.resolve("logs/catalina.out");
    }

    String log() {
        return ItSupport.tail(catalinaOut(), 200_000);
    }

    private void awaitReady() throws Exception {
        HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
                .connectTimeout(Duration.ofSeconds(2)).build();
        boolean up = ItSupport.await(Duration.ofSeconds(90), () -> {
            try {
                HttpResponse<Void> r = client.send(HttpRequest.newBuilder(URI.create(url("/assets/app.css")))
                        .timeout(Duration.ofSeconds(5)).build(), HttpResponse.BodyHandlers.discarding());
                return r.statusCode() == 200;
            } catch (IOException e) {
                return processGone();                  // not up yet: keep polling unless the JVM died
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return false;
            }
        });
        if (!up || processGone()) {
            throw new AssertionError("Tomcat did not come up on port " + port + ":\n" + ItSupport.tail(catalinaOut(), 6000));
        }
    }

    long pid() throws IOException {
        return Long.parseLong(Files.readString(base.resolve("catalina.pid")).trim());
    }

    private boolean processGone() {
        try {
            return ProcessHandle.of(pid()).map(h -> !h.isAlive()).orElse(true);
        } catch (IOException | NumberFormatException e) {
            return false;
        }
    }

    /** Stops through the shutdown port and waits for the JVM to exit; true if it exited by itself. */
    boolean stop(Duration timeout) throws Exception {
        if (!running) {
            return true;
        }
        long pid = pid();
        catalina("stop", Long.toString(timeout.toSeconds()));
        boolean exited = ItSupport.await(timeout.plusSeconds(5),
                () -> ProcessHandle.of(pid).map(h -> !h.isAlive()).orElse(true));
        running = false;
        if (!exited) {
            ProcessHandle.of(pid).ifPresent(ProcessHandle::destroyForcibly);
        }
        return exited;
    }

    private void catalina(String... args) throws Exception {
        List<String> cmd = new java.util.ArrayList<>(List.of("bash", home.resolve("bin/catalina.sh").toString()));
        cmd.addAll(List.of(args));
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(base.resolve("logs/catalina-sh.out").toFile()));
        pb.environment().putAll(env);
        Process p = pb.start();
        if (!p.waitFor(60, TimeUnit.SECONDS) || p.exitValue() != 0) {
            p.destroyForcibly();
            throw new AssertionError("catalina.sh " + String.join(" ", args) + " failed:\n"
                    + ItSupport.tail(base.resolve("logs/catalina-sh.out"), 3000));
        }
    }

    @Override
    public void close() throws Exception {
        stop(Duration.ofSeconds(20));
    }

    static void deleteTree(Path dir) throws IOException {
        if (!Files.exists(dir)) {
            return;
        }
        try (Stream<Path> walk = Files.walk(dir)) {
            for (Path p : walk.sorted(java.util.Comparator.reverseOrder()).toList()) {
                Files.delete(p);
            }
        }
    }
}
