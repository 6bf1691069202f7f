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
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import dev.xaccel.testsupport.tomcat.CatalinaLauncher;
import dev.xaccel.tomcat.internal.os.OsFamily;

/**
 * The real Tomcat distribution (unpacked by maven-dependency-plugin under {@code target/}) started with
 * {@code bin/catalina.sh} ({@link CatalinaLauncher}): the connector jar and JNA in {@code $CATALINA_BASE/lib}, the
 * protocol in {@code server.xml}, no extra JVM flags.
 */
class StandaloneTomcatIT {

    private static final OsFamily OS = OsFamily.current();

    /** The connector's protocol with an accept filter, as users configure it. */
    static final String SERVER_XML = """
            <?xml version="1.0" encoding="UTF-8"?>
            <Server port="${SHUTDOWN_PORT}" shutdown="SHUTDOWN">
              <Service name="Catalina">
                <Connector port="${HTTP_PORT}" address="127.0.0.1"
                           protocol="dev.xaccel.tomcat.AcceptFilterHttp11NioProtocol"
                           acceptFilter="httpready" deferAcceptSeconds="5" connectionTimeout="20000"/>
                <Engine name="Catalina" defaultHost="localhost">
                  <Host name="localhost" appBase="webapps" unpackWARs="false" autoDeploy="false"/>
                </Engine>
              </Service>
            </Server>
            """;

    private CatalinaLauncher tomcat;

    @AfterEach
    void stopIfStillRunning() throws IOException {
        if (tomcat != null) {
            tomcat.close();
        }
    }

    @Test
    void catalinaShStartsServesDefersAndStopsCleanly() throws Exception {
        assumeTrue(OS.kind() != OsFamily.Kind.NONE && OS != OsFamily.WINDOWS,
                "needs catalina.sh and kernel accept filters");
        Path home = Paths.get(required("xaccel.it.tomcatHome"));
        assertTrue(Files.isRegularFile(home.resolve("bin/catalina.sh")), "unpacked Tomcat at " + home);
        CatalinaLauncher.Builder builder = CatalinaLauncher.builder(home, Paths.get(required("xaccel.it.workDir")))
                .serverXml(SERVER_XML)
                .library(Paths.get(required("xaccel.it.connectorJar")))
                .file("webapps/ROOT/index.html", "hello from standalone Tomcat\n")
                .catalinaOpts("-Xmx256m -XX:TieredStopAtLevel=1");
        try (Stream<Path> libs = Files.list(Paths.get(required("xaccel.it.libDir")))) {
            libs.forEach(builder::library);
        }
        tomcat = builder.start();
        int httpPort = tomcat.httpPort();
        String log = tomcat.awaitLog(CatalinaLauncher.STARTED, Duration.ofSeconds(60));
        long pid = tomcat.pid();

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
        assertTrue(tomcat.stop(Duration.ofSeconds(30)), "Tomcat still running");
        long stopMillis = (System.nanoTime() - t0) / 1_000_000;
        assertFalse(ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false), "Tomcat still running");
        log = tomcat.log();
        assertTrue(log.contains("Stopping ProtocolHandler"), log);
        assertFalse(log.contains("did not stop cleanly"), log);
        assertFalse(log.contains("SEVERE"), log);
        System.out.println("standalone Tomcat " + home.getFileName() + ": catalina.sh stop took " + stopMillis
                + " ms");
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

    private static String required(String property) {
        String value = System.getProperty(property);
        assertNotNull(value, "system property " + property + " (set by the module's failsafe configuration)");
        return value;
    }
}
