package dev.xaccel.it.reliability;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.xaccel.testsupport.Poll;
import dev.xaccel.testsupport.TestPaths;
import dev.xaccel.testsupport.load.LoadLoop;
import dev.xaccel.testsupport.load.Probe;
import dev.xaccel.testsupport.load.StreamingGet;
import dev.xaccel.testsupport.nginx.DocsNginx;
import dev.xaccel.testsupport.nginx.NginxServer;
import dev.xaccel.testsupport.servlet.BearerAuthFilter;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * Scenario 4: scale-out. Three application nodes (JVMs of their own, the same data root, the same signed-link
 * secret) behind one nginx {@code upstream} with keepalive, docs/nginx/xaccel-scale-out.conf.template verbatim.
 * <ul>
 * <li>One node is killed (SIGKILL) under load: 0 failed client requests — the idempotent GETs that were on it, or
 * went to it before nginx took it out of the rotation, are answered by another node ({@code proxy_next_upstream});
 * once started again it gets requests again without a reload.</li>
 * <li>Signed links issued by any node are valid through nginx, and cached decisions outlive every node: both are
 * nginx's, whichever node issued them (the signed-link and cached-decision templates with the scale-out upstream
 * and retry lines in place of their one-node upstream, as a deployment with several nodes would have them).</li>
 * </ul>
 */
class ScaleOutIT {

    static final String TEMPLATE = "docs/nginx/xaccel-scale-out.conf.template";
    private static final String SIGNED_TEMPLATE = "docs/nginx/xaccel-signed-links.conf.template";
    private static final Map<String, String> AUTH = Map.of("Authorization", BearerAuthFilter.AUTHORIZATION);
    private static final String SECRET = "reliability-scale-out-secret-0123456789abcdef";

    @Test
    void aNodeKilledUnderLoadCostsNoRequestAndLinksAndDecisionsOutliveTheNodes() throws Exception {
        Figures fig = new Figures("4-scale-out");
        DataRoot data = DataRoot.create("scale-out", 1 << 20);
        try (Nodes nodes = Nodes.start("scale-out", 3, data.dir, "--secret", SECRET, "--expires", "60")) {
            killUnderLoad(nodes, data, fig);
            linksAndDecisions(nodes, data, fig);
        } finally {
            fig.write();
        }
    }

    private void killUnderLoad(Nodes nodes, DataRoot data, Figures fig) throws Exception {
        try (NginxServer nginx = NginxServer.builder(TestPaths.target().resolve("scale-out/nginx"))
                .template(DocsNginx.text(TEMPLATE)).values(nodeValues(nodes)).value("MEDIA_ROOT", data.dir.toString())
                .workersRead(data.dir).start()) {
            List<Probe> probes = new ArrayList<>();
            for (int i = 0; i < 6; i++) {
                probes.add(Probe.ok("offloaded", "/library/" + DataRoot.small(i), AUTH, data.smallHashes.get(i)));
            }
            probes.add(new Probe("node", "/node", AUTH, Set.of(200), whoBodies(3)));
            probes.add(Probe.ok("large", "/library/" + DataRoot.LARGE, AUTH, data.largeHash));
            int clients = 6;
            try (LoadLoop load = LoadLoop.start(nginx.port(), probes, clients)) {
                assertTrue(Poll.until(Duration.ofSeconds(20), () -> load.requests() >= 300), "no load");
                long before = load.requests();
                nodes.get(2).kill();
                long killedAt = load.requests();
                assertTrue(Poll.until(Duration.ofSeconds(60), () -> load.requests() >= killedAt + 600),
                        "too few requests after the kill: " + (load.requests() - killedAt));
                long afterKill = load.requests();
                nodes.get(2).restart();
                Set<String> answeredBy = new HashSet<>();
                boolean back = Poll.until(Duration.ofSeconds(40), Duration.ofMillis(200), () -> {
                    StreamingGet.Result r = StreamingGet.of(nginx.port(), "/node").header("Authorization",
                            BearerAuthFilter.AUTHORIZATION).run();
                    answeredBy.add(r.sha256());
                    return answeredBy.contains(StreamingGet.sha256(bytes("node-2\n")));
                });
                load.stop();
                fig.put("nodes", 3).put("client threads", clients)
                        .put("requests before the kill", before)
                        .put("requests from the kill until node 2 is restarted", afterKill - before)
                        .put("requests in all", load.requests()).put("answers", load.counts())
                        .put("failed client requests", load.failed())
                        .put("p50 ms", String.format("%.1f", load.percentileMillis(50)))
                        .put("p99 ms", String.format("%.1f", load.percentileMillis(99)))
                        .put("node 2 answers again after its restart", back);
                assertEquals(List.of(), load.failures(), "client requests that failed while node 2 died");
                assertTrue(back, "the restarted node gets no requests: " + nginx.errorLog());
            }
        }
    }

    private void linksAndDecisions(Nodes nodes, DataRoot data, Figures fig) throws Exception {
        String upstream = upstreamOfScaleOut();
        Map<String, String> values = new java.util.HashMap<>(nodeValues(nodes));
        values.put("TOMCAT_PORT", "(several nodes)"); // left in the templates' comments only
        try (NginxServer signed = NginxServer.builder(TestPaths.target().resolve("scale-out/nginx-signed"))
                .template(withUpstream(DocsNginx.text(SIGNED_TEMPLATE), upstream)).values(values)
                .value("MEDIA_ROOT", data.dir.toString()).value("LINK_SECRET", SECRET).workersRead(data.dir).start();
                NginxServer cached = NginxServer.builder(TestPaths.target().resolve("scale-out/nginx-cached"))
                        .template(withUpstream(DocsNginx.text(DocsNginx.CACHED_TEMPLATE), upstream)).values(values)
                        .value("MEDIA_ROOT", data.dir.toString()).value("PUBLIC_PREFIX", "/library/")
                        .workersRead(data.dir).start()) {
            // a link from every node, each for another file
            Map<Integer, String> links = new java.util.LinkedHashMap<>();
            for (int i = 1; i <= 3; i++) {
                StreamingGet.Result r = StreamingGet.of(nodes.get(i).port(), "/sign/" + DataRoot.small(10 + i))
                        .header("Authorization", BearerAuthFilter.AUTHORIZATION).run();
                assertEquals(200, r.status(), "node " + i + " signs no link: " + r);
                links.put(10 + i, new String(RawBody.of(nodes.get(i).port(), "/sign/" + DataRoot.small(10 + i)),
                        StandardCharsets.US_ASCII).trim());
            }
            // decisions cached while all nodes are up (each by whichever node nginx chose)
            for (int i = 0; i < 6; i++) {
                assertOk(cached.port(), "/library/" + DataRoot.small(i), data.smallHashes.get(i), AUTH);
            }
            for (int i = 1; i <= 3; i++) {
                nodes.get(i).kill();
            }
            int linksOk = 0;
            for (Map.Entry<Integer, String> e : links.entrySet()) {
                assertOk(signed.port(), e.getValue(), data.smallHashes.get(e.getKey()), Map.of());
                linksOk++;
            }
            int decisionsOk = 0;
            for (int i = 0; i < 6; i++) {
                assertOk(cached.port(), "/library/" + DataRoot.small(i), data.smallHashes.get(i), AUTH);
                decisionsOk++;
            }
            StreamingGet.Result uncached = StreamingGet.of(cached.port(), "/library/" + DataRoot.small(9))
                    .header("Authorization", BearerAuthFilter.AUTHORIZATION).run();
            StreamingGet.Result denied = StreamingGet.of(cached.port(), "/library/" + DataRoot.small(0)).run();
            fig.put("signed links from nodes 1, 2, 3 served with every node dead", linksOk + " of 3")
                    .put("cached decisions served with every node dead", decisionsOk + " of 6")
                    .put("uncached file with every node dead", uncached.status())
                    .put("cached file without credentials with every node dead", denied.status());
            assertTrue(uncached.status() == 502 || uncached.status() == 503, "uncached without nodes: " + uncached);
            assertTrue(denied.status() != 200, "a cached decision served without credentials: " + denied);
        }
    }

    private static void assertOk(int port, String target, String sha, Map<String, String> headers) {
        StreamingGet get = StreamingGet.of(port, target);
        headers.forEach(get::header);
        StreamingGet.Result r = get.run();
        assertEquals(200, r.status(), target + ": " + r);
        assertEquals(sha, r.sha256(), target + ": " + r);
    }

    private static Map<String, String> nodeValues(Nodes nodes) {
        return Map.of("NODE_1", nodes.address(1), "NODE_2", nodes.address(2), "NODE_3", nodes.address(3));
    }

    private static Set<String> whoBodies(int n) {
        Set<String> out = new HashSet<>();
        for (int i = 1; i <= n; i++) {
            out.add(StreamingGet.sha256(bytes("node-" + i + "\n")));
        }
        return out;
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.US_ASCII);
    }

    /** The scale-out template's upstream block and the retry lines after it, as shipped. */
    static String upstreamOfScaleOut() throws Exception {
        Matcher m = Pattern.compile("(?s)    upstream xaccel_app \\{.*?\n    \\}.*?proxy_connect_timeout[^;]*;")
                .matcher(DocsNginx.text(TEMPLATE));
        assertTrue(m.find(), "no upstream block in " + TEMPLATE);
        return m.group();
    }

    /** {@code template} with its one-node {@code upstream xaccel_app} replaced by {@code upstream}. */
    static String withUpstream(String template, String upstream) {
        Matcher m = Pattern.compile("(?s)    upstream xaccel_app \\{.*?\n    \\}").matcher(template);
        assertTrue(m.find(), "no upstream xaccel_app block");
        return template.substring(0, m.start()) + upstream + template.substring(m.end());
    }
}
