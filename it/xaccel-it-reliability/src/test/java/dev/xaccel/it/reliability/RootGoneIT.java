package dev.xaccel.it.reliability;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.xaccel.testsupport.LogCapture;
import dev.xaccel.testsupport.RawHttp;
import dev.xaccel.testsupport.TestPaths;
import dev.xaccel.testsupport.nginx.DocsNginx;
import dev.xaccel.testsupport.nginx.NginxServer;
import dev.xaccel.testsupport.servlet.SuiteApp;
import dev.xaccel.testsupport.tomcat.EmbeddedTomcat;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.logging.Level;
import org.junit.jupiter.api.Test;

/**
 * Scenario 8: the data root goes away while everything runs, and comes back. The tests run as root, whom file
 * permissions do not stop, so two things that stop root too are simulated:
 * <ul>
 * <li><b>unmounted</b>: the root directory renamed away (its path no longer exists), then renamed back;</li>
 * <li><b>unreadable</b>: the root replaced by a regular file of the same name (no directory can be opened there,
 * for root neither), then the directory put back.</li>
 * </ul>
 * Meanwhile requests straight to Tomcat (the filter serves), through nginx (the filter decides; the redirect) and
 * signed links (nginx alone, docs/nginx/xaccel-signed-links.conf.template) get 403/404/500 answers whose bodies name
 * no path and carry no stack trace; the filter logs one WARNING for the whole outage (throttled: later ones at FINE)
 * and one INFO line when the root is back; then everything is served again, with no restart.
 */
class RootGoneIT {

    private static final String SECRET = "reliability-root-gone-secret-0123456789abcdef";

    @Test
    void answersWithoutPathsLogsOnceAndRecovers() throws Exception {
        Figures fig = new Figures("8-root-gone");
        DataRoot data = DataRoot.create("root-gone", 1 << 20);
        Path root = data.dir;
        Path away = root.resolveSibling("media.away");
        try (LogCapture logs = LogCapture.of("dev.xaccel");
                EmbeddedTomcat tomcat = EmbeddedTomcat.builder(TestPaths.freshDir("root-gone/tomcat"))
                        .webapp(Node.app(root, Map.of("secret", SECRET))).start();
                NginxServer nginx = DocsNginx.start("root-gone", DocsNginx.text(
                        "docs/nginx/xaccel-signed-links.conf.template"), Map.of("LINK_SECRET", SECRET),
                        tomcat.port(), root)) {
            String link = new String(RawBody.of(tomcat.port(), "/sign/" + DataRoot.small(4)),
                    StandardCharsets.US_ASCII).trim();
            List<String[]> requests = List.of(
                    new String[] {"direct", Integer.toString(tomcat.port()), "/library/" + DataRoot.small(1)},
                    new String[] {"direct range", Integer.toString(tomcat.port()), "/library/" + DataRoot.LARGE},
                    new String[] {"nginx", Integer.toString(nginx.port()), "/library/" + DataRoot.small(2)},
                    new String[] {"signed link", Integer.toString(nginx.port()), link});
            assertEquals(Map.of("direct", 200, "direct range", 206, "nginx", 200, "signed link", 200),
                    statuses(requests, root, 1), "before");

            Files.move(root, away);
            Map<String, Integer> unmounted = statuses(requests, root, 25);
            Files.move(away, root);
            Map<String, Integer> back1 = statuses(requests, root, 1);
            long missingLines = logs.count(Level.WARNING, "is missing or not a directory");

            Files.move(root, away);
            Files.writeString(root, "not a directory\n");
            Map<String, Integer> unreadable = statuses(requests, root, 25);
            Files.delete(root);
            Files.move(away, root);
            Map<String, Integer> back2 = statuses(requests, root, 1);

            List<String> warnings = logs.messages(Level.WARNING);
            fig.put("simulated unmount", "root directory renamed away, then back")
                    .put("answers while renamed away (25 rounds)", unmounted)
                    .put("answers once back", back1)
                    .put("simulated unreadable", "root replaced by a regular file, then the directory put back")
                    .put("answers while replaced (25 rounds)", unreadable)
                    .put("answers once back again", back2)
                    .put("WARNING lines of the filter for both outages (200 requests)", warnings.size())
                    .put("the line", warnings.isEmpty() ? "-" : warnings.get(0))
                    .put("INFO lines 'is back'", logs.count(Level.INFO, "is back"));
            for (Map<String, Integer> outage : List.of(unmounted, unreadable)) {
                outage.forEach((what, status) -> assertTrue(status == 403 || status == 404 || status == 500,
                        what + " answered " + status + " without its root"));
            }
            Map<String, Integer> ok = Map.of("direct", 200, "direct range", 206, "nginx", 200, "signed link", 200);
            assertEquals(ok, back1, "after the root came back");
            assertEquals(ok, back2, "after the root came back again");
            assertEquals(1, missingLines, "WARNING lines for the first outage: " + warnings);
            assertEquals(1, warnings.size(), "one throttled line for both outages: " + warnings);
            assertTrue(logs.count(Level.INFO, "is back") >= 1, "no line when the root came back");
        } finally {
            if (Files.isRegularFile(root)) {
                Files.delete(root);
            }
            if (Files.isDirectory(away) && !Files.exists(root)) {
                Files.move(away, root);
            }
            fig.write();
        }
    }

    /**
     * Sends every request {@code rounds} times; the status of each kind (the last round's, and the same in every
     * round); every body free of absolute paths and stack traces.
     */
    private static Map<String, Integer> statuses(List<String[]> requests, Path root, int rounds) {
        Map<String, Integer> out = new TreeMap<>();
        for (int i = 0; i < rounds; i++) {
            for (String[] r : requests) {
                RawHttp.Request req = SuiteApp.authGet(r[2]);
                if (r[0].contains("range")) {
                    req.header("Range", "bytes=10-99");
                }
                RawHttp.Response resp = req.send(Integer.parseInt(r[1]));
                String body = new String(resp.raw(), StandardCharsets.ISO_8859_1);
                assertFalse(body.contains(root.getParent().toString()) || body.contains("/work/")
                        || body.contains("Exception") || body.contains("\tat ") || body.contains(".java:"),
                        r[0] + ": a path or a stack trace in the answer: " + resp);
                Integer before = out.put(r[0], resp.status());
                assertTrue(before == null || before == resp.status(), r[0] + ": " + before + " then " + resp);
            }
        }
        return new LinkedHashMap<>(out);
    }
}
