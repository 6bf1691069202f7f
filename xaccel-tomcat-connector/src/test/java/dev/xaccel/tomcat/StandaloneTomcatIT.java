package dev.xaccel.tomcat;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import dev.xaccel.tomcat.internal.os.OsFamily;

/**
 * The real Tomcat distribution (unpacked by maven-dependency-plugin under {@code target/}) started with
 * {@code bin/catalina.sh}: the connector jar and JNA in {@code $CATALINA_BASE/lib}, the protocol in
 * {@code server.xml}, no extra JVM flags.
 */
class StandaloneTomcatIT {

    private static final OsFamily OS = OsFamily.current();

    private Path home;
    private Path base;
    private Long pid;

    @AfterEach
    void killIfStillRunning() {
        if (pid != null) {
            ProcessHandle.of(pid).ifPresent(ProcessHandle::destroyForcibly);
        }
    }

    @Test
    void catalinaShStartsServesDefersAndStopsCleanly() throws Exception {
        assumeTrue(OS.kind() != OsFamily.Kind.NONE && OS != OsFamily.WINDOWS,
                "needs catalina.sh and kernel accept filters");
        home = Paths.get(required("xaccel.it.tomcatHome"));
        assertTrue(Files.isRegularFile(home.resolve("bin/catalina.sh")), "unpacked Tomcat at " + home);
        int httpPort = freePort();
        int shutdownPort = freePort();
        base = prepareBase(httpPort, shutdownPort);

        Process start = catalina("start");
        assertEquals(0, start.waitFor(), "catalina.sh start");
        Path out = base.resolve("logs/catalina.out");
        String log = awaitLog(out, "Server startup in", 60);
        pid = Long.valueOf(Files.readString(base.resolve("catalina.pid")).trim());

        String expected = OS == OsFamily.LINUX
                ? "acceptFilter [httpready] applied as TCP_DEFER_ACCEPT: requested [5] s, kernel reports [7] s"
                : "accept filter [httpready] active, kernel reports [httpready]";
        assertTrue(log.contains(expected), log);
        // catalina.sh does not open sun.nio.ch: the listening socket was found by scanning descriptors
        assertTrue(log.contains("found by descriptor scan"), log);
        assertFalse(log.contains("runs without"), log);

        List<Socket> silent = new ArrayList<>();
        try {
            for (int i = 0; i < 2; i++) {
                Socket s = new Socket();
                s.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), httpPort), 2000);
                silent.add(s);
            }
            Thread.sleep(1000);
            if (OS == OsFamily.LINUX) {
                assertEquals(2, KernelTcpTable.synRecv(httpPort), "silent clients held in SYN-RECV");
            }
            String response = get(httpPort);
            assertTrue(response.startsWith("HTTP/1.1 200"), response);
            assertTrue(response.endsWith("hello from standalone Tomcat\n"), response);
        } finally {
            for (Socket s : silent) {
                s.close();
            }
        }

        long t0 = System.nanoTime();
        Process stop = catalina("stop", "30");
        assertEquals(0, stop.waitFor(), "catalina.sh stop");
        Optional<ProcessHandle> process = ProcessHandle.of(pid);
        if (process.isPresent()) {
            process.get().onExit().get(30, TimeUnit.SECONDS);
        }
        long stopMillis = (System.nanoTime() - t0) / 1_000_000;
        assertFalse(ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false), "Tomcat still running");
        pid = null;
        log = Files.readString(out);
        assertTrue(log.contains("Stopping ProtocolHandler"), log);
        assertFalse(log.contains("did not stop cleanly"), log);
        assertFalse(log.contains("SEVERE"), log);
        System.out.println("standalone Tomcat " + home.getFileName() + ": catalina.sh stop took " + stopMillis
                + " ms");
    }

    private Path prepareBase(int httpPort, int shutdownPort) throws IOException {
        Path dir = Paths.get(required("xaccel.it.workDir"));
        if (Files.exists(dir)) {
            try (Stream<Path> walk = Files.walk(dir)) {
                walk.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            }
        }
        for (String d : new String[] { "conf", "logs", "temp", "work", "lib", "webapps/ROOT" }) {
            Files.createDirectories(dir.resolve(d));
        }
        try (Stream<Path> conf = Files.list(home.resolve("conf"))) {
            for (Path p : (Iterable<Path>) conf::iterator) {
                if (Files.isRegularFile(p)) {
                    Files.copy(p, dir.resolve("conf").resolve(p.getFileName()), StandardCopyOption.REPLACE_EXISTING);
                }
            }
        }
        Path jar = Paths.get(required("xaccel.it.connectorJar"));
        Files.copy(jar, dir.resolve("lib").resolve(jar.getFileName()));
        try (Stream<Path> libs = Files.list(Paths.get(required("xaccel.it.libDir")))) {
            for (Path p : (Iterable<Path>) libs::iterator) {
                Files.copy(p, dir.resolve("lib").resolve(p.getFileName()));
            }
        }
        Files.writeString(dir.resolve("webapps/ROOT/index.html"), "hello from standalone Tomcat\n");
        Files.writeString(dir.resolve("conf/server.xml"), "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
                + "<Server port=\"" + shutdownPort + "\" shutdown=\"SHUTDOWN\">\n"
                + "  <Service name=\"Catalina\">\n"
                + "    <Connector port=\"" + httpPort + "\" address=\"127.0.0.1\"\n"
                + "               protocol=\"dev.xaccel.tomcat.AcceptFilterHttp11NioProtocol\"\n"
                + "               acceptFilter=\"httpready\" deferAcceptSeconds=\"5\" connectionTimeout=\"20000\"/>\n"
                + "    <Engine name=\"Catalina\" defaultHost=\"localhost\">\n"
                + "      <Host name=\"localhost\" appBase=\"webapps\" unpackWARs=\"false\" autoDeploy=\"false\"/>\n"
                + "    </Engine>\n"
                + "  </Service>\n"
                + "</Server>\n");
        return dir;
    }

    private Process catalina(String... args) throws IOException {
        List<String> command = new ArrayList<>();
        command.add("sh");
        command.add(home.resolve("bin/catalina.sh").toString());
        command.addAll(List.of(args));
        ProcessBuilder pb = new ProcessBuilder(command);
        Map<String, String> env = pb.environment();
        env.remove("JAVA_OPTS");
        env.remove("CATALINA_OPTS");
        env.remove("JRE_HOME");
        env.put("JAVA_HOME", System.getProperty("java.home"));
        env.put("CATALINA_HOME", home.toString());
        env.put("CATALINA_BASE", base.toString());
        env.put("CATALINA_PID", base.resolve("catalina.pid").toString());
        env.put("CATALINA_OUT", base.resolve("logs/catalina.out").toString());
        env.put("CATALINA_OPTS", "-Xmx256m -XX:TieredStopAtLevel=1");
        pb.redirectErrorStream(true);
        pb.redirectOutput(base.resolve("logs/catalina-sh-" + args[0] + ".txt").toFile());
        return pb.start();
    }

    private static String awaitLog(Path file, String marker, int seconds) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
        String content = "";
        while (System.nanoTime() < deadline) {
            if (Files.exists(file)) {
                content = Files.readString(file);
                if (content.contains(marker)) {
                    return content;
                }
            }
            Thread.sleep(100);
        }
        throw new AssertionError("no [" + marker + "] within " + seconds + " s in " + file + ":\n" + content);
    }

    private static String get(int port) throws IOException {
        try (Socket s = new Socket()) {
            s.setSoTimeout(10000);
            s.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 2000);
            s.getOutputStream().write("GET / HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n"
                    .getBytes(StandardCharsets.US_ASCII));
            InputStream in = s.getInputStream();
            return new String(in.readAllBytes(), StandardCharsets.ISO_8859_1);
        }
    }

    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        }
    }

    private static String required(String property) {
        String value = System.getProperty(property);
        assertNotNull(value, "system property " + property + " (set by the module's failsafe configuration)");
        return value;
    }
}
