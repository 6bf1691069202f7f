package dev.xaccel.it.reliability;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.xaccel.testsupport.Poll;
import dev.xaccel.testsupport.load.LoadLoop;
import dev.xaccel.testsupport.load.Probe;
import dev.xaccel.testsupport.load.StreamingGet;
import dev.xaccel.testsupport.nginx.DocsNginx;
import dev.xaccel.testsupport.nginx.NginxServer;
import dev.xaccel.testsupport.servlet.BearerAuthFilter;
import dev.xaccel.testsupport.tomcat.ForkedTomcat;
import dev.xaccel.testsupport.TestPaths;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * Scenario 2: the application dies mid-download. Eight large offloaded downloads are in flight (nginx holds the
 * files: the filter's {@code limitRate} keeps them going for seconds) when the application's JVM is killed with
 * SIGKILL. Every download completes byte-exact; what is asked meanwhile and afterwards gets either a whole, correct
 * 200 or a clean 502/503 from nginx (never a partial 200); once the JVM is started again on its port, nginx serves
 * again without any step on its side. nginx with docs/nginx/xaccel.conf.template verbatim.
 */
class AppDiesMidDownloadIT {

    private static final Map<String, String> AUTH = Map.of("Authorization", BearerAuthFilter.AUTHORIZATION);

    @Test
    void offloadedDownloadsSurviveTheApplicationAndServiceResumesAfterRestart() throws Exception {
        Figures fig = new Figures("2-app-dies");
        int downloads = 8;
        long size = Figures.size(16, 64) << 20;
        long rate = 2L << 20;
        DataRoot data = DataRoot.create("app-dies", size);
        try (ForkedTomcat node = ForkedTomcat.builder(Node.class.getName(), TestPaths.target().resolve("app-dies/node"))
                .args("--root", data.dir.toString(), "--id", "1", "--limit-rate", Long.toString(rate)).start();
                NginxServer nginx = DocsNginx.start("app-dies", node.port(), data.dir)) {
            Probe small = new Probe("small", "/library/" + DataRoot.small(0), AUTH, Set.of(200, 502, 503),
                    Set.of(data.smallHashes.get(0)));
            Probe page = new Probe("node", "/node", AUTH, Set.of(200, 502, 503), Set.of());
            try (Downloads d = Downloads.start(downloads, nginx.port(), "/library/" + DataRoot.LARGE, 0)) {
                assertTrue(d.awaitUnderWay(256 * 1024, Duration.ofSeconds(30)),
                        "downloads not under way: " + d.leastProgress() + " bytes");
                LoadLoop load = LoadLoop.start(nginx.port(), List.of(small, page), 2);
                Poll.until(Duration.ofSeconds(5), () -> load.requests() >= 10);
                long killedAt = System.nanoTime();
                node.kill();
                fig.put("downloads in flight at the kill", downloads).put("file size bytes", size)
                        .put("least received at the kill", d.leastProgress());
                List<StreamingGet.Result> results = d.await(Duration.ofSeconds(size / rate + 60));
                load.stop();
                fig.put("requests racing the kill", load.requests()).put("their answers", load.counts())
                        .put("wrong answers among them", load.failed());
                int exact = 0;
                for (StreamingGet.Result r : results) {
                    assertEquals(200, r.status(), r.toString());
                    assertTrue(r.complete(), r.toString());
                    assertEquals(data.largeHash, r.sha256(), "download not byte-exact: " + r);
                    exact++;
                }
                fig.put("downloads completed byte-exact", exact + " of " + downloads)
                        .put("bytes compared", exact * size)
                        .put("seconds from the kill to the last byte", (System.nanoTime() - killedAt) / 1_000_000_000L);
                assertEquals(List.of(), load.failures(), "answers while the application died");
            }
            List<Integer> afterKill = new ArrayList<>();
            for (int i = 0; i < 10; i++) {
                StreamingGet.Result r = StreamingGet.of(nginx.port(), i % 2 == 0 ? "/library/" + DataRoot.small(1)
                        : "/node").header("Authorization", BearerAuthFilter.AUTHORIZATION).run();
                assertTrue(r.status() == 502 || r.status() == 503, "not a clean 502/503 without the application: " + r);
                assertTrue(r.complete(), "not a whole error answer: " + r);
                afterKill.add(r.status());
            }
            fig.put("answers without the application (10 requests)", afterKill);

            long restart = System.nanoTime();
            node.restart();
            boolean back = Poll.until(Duration.ofSeconds(30), Duration.ofMillis(100), () -> StreamingGet.of(
                    nginx.port(), "/library/" + DataRoot.small(2)).header("Authorization",
                            BearerAuthFilter.AUTHORIZATION).run().status() == 200);
            assertTrue(back, "nginx does not serve again after the restart: " + nginx.errorLog());
            fig.put("ms from the restart command to the first 200 through nginx",
                    (System.nanoTime() - restart) / 1_000_000L);
            for (int i = 0; i < DataRoot.SMALL; i++) {
                StreamingGet.Result r = StreamingGet.of(nginx.port(), "/library/" + DataRoot.small(i))
                        .header("Authorization", BearerAuthFilter.AUTHORIZATION).run();
                assertEquals(200, r.status(), r.toString());
                assertEquals(data.smallHashes.get(i), r.sha256(), r.toString());
            }
            fig.put("requests after the restart", DataRoot.SMALL + " of " + DataRoot.SMALL + " byte-exact 200");
        } finally {
            fig.write();
        }
    }
}
