package dev.xaccel.it.reliability;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.xaccel.testsupport.Poll;
import dev.xaccel.testsupport.Processes;
import dev.xaccel.testsupport.TestPaths;
import dev.xaccel.testsupport.load.LoadLoop;
import dev.xaccel.testsupport.load.Probe;
import dev.xaccel.testsupport.load.StreamingGet;
import dev.xaccel.testsupport.nginx.DocsNginx;
import dev.xaccel.testsupport.nginx.NginxServer;
import dev.xaccel.testsupport.servlet.BearerAuthFilter;
import dev.xaccel.testsupport.tomcat.EmbeddedTomcat;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * Scenario 3: nginx reloaded ({@code nginx -s reload}) and upgraded on the fly (USR2, WINCH, QUIT, as nginx
 * documents the binary upgrade) while large offloaded downloads are in flight and clients keep asking for small
 * files and application pages: no download fails (every one byte-exact, those begun before the reload and those
 * begun between the reload and the upgrade), no request fails, and the new master serves afterwards. nginx
 * daemonized (a master in the foreground ignores WINCH) with docs/nginx/xaccel.conf.template verbatim.
 */
class NginxReloadIT {

    private static final Map<String, String> AUTH = Map.of("Authorization", BearerAuthFilter.AUTHORIZATION);

    @Test
    void noDownloadAndNoRequestFailsAcrossReloadAndBinaryUpgrade() throws Exception {
        Figures fig = new Figures("3-nginx-reload");
        long size = Figures.size(16, 64) << 20;
        long rate = 4L << 20;
        int perBatch = 4;
        DataRoot data = DataRoot.create("nginx-reload", size);
        try (EmbeddedTomcat tomcat = EmbeddedTomcat.builder(TestPaths.freshDir("nginx-reload/tomcat"))
                .webapp(Node.app(data.dir, Map.of("limit-rate", Long.toString(rate)))).start();
                NginxServer nginx = NginxServer.builder(TestPaths.target().resolve("nginx-reload/nginx")).daemon()
                        .template(DocsNginx.text(DocsNginx.TEMPLATE))
                        .value("TOMCAT_PORT", Integer.toString(tomcat.port()))
                        .value("MEDIA_ROOT", data.dir.toString()).workersRead(data.dir).start()) {
            List<Probe> probes = new ArrayList<>();
            for (int i = 0; i < 4; i++) {
                probes.add(Probe.ok("small", "/library/" + DataRoot.small(i), AUTH, data.smallHashes.get(i)));
            }
            probes.add(new Probe("node", "/node", AUTH, Set.of(200),
                    Set.of(StreamingGet.sha256("node-1\n".getBytes()))));
            probes.add(Probe.status("401", "/library/" + DataRoot.small(5), Map.of(), 401));
            long firstMaster = nginx.pid();
            try (LoadLoop load = LoadLoop.start(nginx.port(), probes, 3);
                    Downloads before = Downloads.start(perBatch, nginx.port(), "/library/" + DataRoot.LARGE, 0)) {
                assertTrue(before.awaitUnderWay(512 * 1024, Duration.ofSeconds(30)), "downloads not under way");
                var oldWorkers = nginx.reload();
                long afterReload = load.requests();
                assertTrue(Poll.until(Duration.ofSeconds(20), () -> load.requests() >= afterReload + 50),
                        "no requests after the reload");
                try (Downloads between = Downloads.start(perBatch, nginx.port(), "/library/" + DataRoot.LARGE, 0)) {
                    assertTrue(between.awaitUnderWay(512 * 1024, Duration.ofSeconds(30)), "downloads not under way");
                    ProcessHandle oldMaster = nginx.upgrade();
                    long afterUpgrade = load.requests();
                    assertTrue(Poll.until(Duration.ofSeconds(20), () -> load.requests() >= afterUpgrade + 50),
                            "no requests after the upgrade");
                    List<StreamingGet.Result> all = new ArrayList<>(before.await(Duration.ofSeconds(size / rate + 60)));
                    all.addAll(between.await(Duration.ofSeconds(size / rate + 60)));
                    assertTrue(Processes.awaitExit(oldMaster, Duration.ofSeconds(30)),
                            "the old master did not exit after its downloads");
                    load.stop();
                    fig.put("downloads begun before the reload", perBatch)
                            .put("downloads begun between reload and upgrade", perBatch)
                            .put("old workers at the reload", oldWorkers.size())
                            .put("masters (before, after the upgrade)", firstMaster + ", " + nginx.pid())
                            .put("requests during reload and upgrade", load.requests())
                            .put("their answers", load.counts()).put("wrong answers", load.failed())
                            .put("p50 ms", String.format("%.1f", load.percentileMillis(50)))
                            .put("p99 ms", String.format("%.1f", load.percentileMillis(99)));
                    int exact = 0;
                    for (StreamingGet.Result r : all) {
                        if (r.complete() && r.status() == 200 && data.largeHash.equals(r.sha256())) {
                            exact++;
                        }
                    }
                    fig.put("downloads completed byte-exact", exact + " of " + all.size())
                            .put("bytes compared", exact * size);
                    assertEquals(all.size(), exact, "downloads that failed: " + all);
                    assertEquals(List.of(), load.failures(), "requests that failed");
                }
            }
            assertTrue(nginx.pid() != firstMaster && nginx.isAlive(), "no new master");
            StreamingGet.Result r = StreamingGet.of(nginx.port(), "/library/" + DataRoot.small(7))
                    .header("Authorization", BearerAuthFilter.AUTHORIZATION).run();
            assertEquals(200, r.status(), r.toString());
            assertEquals(data.smallHashes.get(7), r.sha256());
            nginx.reload();
            r = StreamingGet.of(nginx.port(), "/library/" + DataRoot.small(8))
                    .header("Authorization", BearerAuthFilter.AUTHORIZATION).run();
            assertEquals(200, r.status(), "after a reload of the new master: " + r);
        } finally {
            fig.write();
        }
    }
}
