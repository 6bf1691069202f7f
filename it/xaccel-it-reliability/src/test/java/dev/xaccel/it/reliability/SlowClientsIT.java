package dev.xaccel.it.reliability;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.xaccel.bench.client.SlowClients;
import dev.xaccel.testsupport.LogCapture;
import dev.xaccel.testsupport.Poll;
import dev.xaccel.testsupport.Processes;
import dev.xaccel.testsupport.TestLogging;
import dev.xaccel.testsupport.TestPaths;
import dev.xaccel.testsupport.load.LoadLoop;
import dev.xaccel.testsupport.load.Probe;
import dev.xaccel.testsupport.servlet.BearerAuthFilter;
import dev.xaccel.testsupport.tomcat.EmbeddedTomcat;
import dev.xaccel.testsupport.tomcat.ForkedTomcat;
import dev.xaccel.tomcat.AcceptFilterHttp11NioProtocol;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.catalina.connector.Connector;
import org.apache.catalina.startup.Tomcat;
import org.junit.jupiter.api.Test;

/**
 * Scenario 7: slow clients against the accept-filter connector ({@code AcceptFilterHttp11NioProtocol}), with
 * {@code acceptFilter} off ({@code none}) and on ({@code httpready}, {@code TCP_DEFER_ACCEPT} on Linux): 500
 * slowloris clients (their request dribbled one byte a second) and 200 idle connections (connect, never send) from the
 * benchmark's {@link SlowClients} in a process of its own, while legitimate clients keep asking for files that the
 * filter serves itself. Every legitimate request is answered correctly both ways; their p99 and the connections
 * Tomcat holds are reported (measured, not asserted); pausing and stopping the connector under the flood is prompt
 * and clean (no "did not stop cleanly").
 */
class SlowClientsIT {

    private static final Map<String, String> AUTH = Map.of("Authorization", BearerAuthFilter.AUTHORIZATION);

    @Test
    void legitimateRequestsKeepBeingServedUnderAFloodOfSlowClients() throws Exception {
        Figures fig = new Figures("7-slow-clients");
        DataRoot data = DataRoot.create("slow-clients", 1 << 20);
        for (String mode : List.of("none", "httpready")) {
            flood(mode, data, fig);
        }
        fig.write();
    }

    private void flood(String mode, DataRoot data, Figures fig) throws Exception {
        Path dir = TestPaths.freshDir("slow-clients/" + mode);
        TestLogging.install();
        Tomcat tomcat = new Tomcat();
        tomcat.setBaseDir(dir.toString());
        AcceptFilterHttp11NioProtocol protocol = new AcceptFilterHttp11NioProtocol();
        Connector connector = new Connector(protocol);
        connector.setPort(0);
        connector.setProperty("address", "127.0.0.1");
        connector.setProperty("maxKeepAliveRequests", "-1");
        protocol.setAcceptFilter(mode);
        tomcat.setConnector(connector);
        tomcat.getHost().setAutoDeploy(false);
        EmbeddedTomcat.deploy(tomcat, Node.app(data.dir, Map.of()), Files.createDirectories(dir.resolve("docs")));
        int idle = 200;
        int slow = 500;
        int seconds = Figures.size(12, 60);
        Process flood = null;
        try (LogCapture logs = LogCapture.of("org.apache")) {
            tomcat.start();
            int port = connector.getLocalPort();
            Path ready = dir.resolve("flood.ready");
            Path out = dir.resolve("flood.out");
            flood = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-Xmx64m",
                    "-cp", ForkedTomcat.testClassPath(), SlowClients.class.getName(), "--port", Integer.toString(port),
                    "--idle", Integer.toString(idle), "--slow", Integer.toString(slow), "--interval-ms", "1000",
                    "--duration-s", Integer.toString(seconds + 10), "--path", "/library/" + DataRoot.small(0),
                    "--token", BearerAuthFilter.TOKEN, "--ready", ready.toString(), "--out", out.toString())
                    .redirectErrorStream(true).redirectOutput(dir.resolve("flood.log").toFile()).start();
            assertTrue(Poll.until(Duration.ofSeconds(30), () -> Files.exists(ready)), "the flood did not start");
            AtomicLong maxConnections = new AtomicLong();
            Thread sampler = new Thread(() -> {
                while (Poll.sleep(Duration.ofMillis(20))) {
                    maxConnections.accumulateAndGet(protocol.getConnectionCount(), Math::max);
                }
            });
            sampler.setDaemon(true);
            sampler.start();
            List<Probe> probes = new ArrayList<>();
            for (int i = 0; i < 5; i++) {
                probes.add(Probe.ok("file", "/library/" + DataRoot.small(i), AUTH, data.smallHashes.get(i)));
            }
            LoadLoop load = LoadLoop.start(port, probes, 4);
            Poll.sleep(Duration.ofSeconds(seconds / 2));
            long connectionsDuring = protocol.getConnectionCount();
            Poll.sleep(Duration.ofSeconds(seconds - seconds / 2));
            load.stop();
            long t0 = System.nanoTime();
            connector.pause();
            long pauseMs = (System.nanoTime() - t0) / 1_000_000;
            t0 = System.nanoTime();
            tomcat.stop();
            tomcat.destroy();
            long stopMs = (System.nanoTime() - t0) / 1_000_000;
            sampler.interrupt();
            String prefix = "acceptFilter=" + mode + ": ";
            fig.put(prefix + "flood", idle + " idle + " + slow + " slowloris (1 byte/s)")
                    .put(prefix + "filter in effect", protocol.getAcceptFilterEffective() + " (kernel "
                            + protocol.getAcceptFilterKernelValue() + ")")
                    .put(prefix + "legitimate requests", load.requests())
                    .put(prefix + "wrong answers", load.failed())
                    .put(prefix + "p50 ms", String.format("%.1f", load.percentileMillis(50)))
                    .put(prefix + "p99 ms", String.format("%.1f", load.percentileMillis(99)))
                    .put(prefix + "Tomcat connections mid-run, highest", connectionsDuring + ", " + maxConnections)
                    .put(prefix + "pause ms, stop ms under the flood", pauseMs + ", " + stopMs);
            assertEquals(List.of(), load.failures(), prefix + "legitimate requests that failed");
            assertTrue(load.requests() >= 100, prefix + "only " + load.requests() + " legitimate requests");
            assertFalse(logs.contains("did not stop cleanly"), prefix + logs.messages(java.util.logging.Level.INFO));
            assertTrue(stopMs < 15_000, prefix + "the stop took " + stopMs + " ms");
        } finally {
            if (flood != null) {
                Processes.stop(flood.toHandle(), null, Duration.ZERO, Duration.ofSeconds(5));
            }
            if (tomcat.getServer().getState().isAvailable()) {
                tomcat.stop();
                tomcat.destroy();
            }
        }
    }
}
