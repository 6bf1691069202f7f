package dev.xaccel.filter;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

import dev.xaccel.testsupport.RawHttp;
import dev.xaccel.testsupport.TestPaths;
import dev.xaccel.testsupport.boundary.BoundaryCheck;
import dev.xaccel.testsupport.servlet.BearerAuthFilter;

/**
 * docs/remote.md's table "who sees the presigned URL", row by row, with the real S3 server: per row a filter with
 * that {@code trustedProxies} (nginx from the shipped remote template in front where the row says so), one object,
 * one request; "yes" means the presigned URL (its signature) is in the answer's headers, "no" that no header and no
 * byte of the answer carries it while the object still arrives byte-exact. The table is read from the page, so the
 * page cannot say what the test does not check.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class PresignedUrlExposureIT {

    private static final Pattern ROW = Pattern.compile("(?m)^\\| (a [^|]+?) \\| `([^`]+)` \\| (yes|no) \\|$");
    private static final String THROUGH_NGINX = "a client, through nginx";
    private static final String DIRECT = "a local process, directly to the container over loopback, with the marker";

    private final Map<String, RemoteStack> stacks = new LinkedHashMap<>();

    record Row(String who, String trustedProxies, boolean sees) {
    }

    static List<Row> rows() throws Exception {
        String page = Files.readString(TestPaths.repositoryFile("docs/remote.md"), StandardCharsets.UTF_8);
        int section = page.indexOf("## Who sees the presigned URL");
        assertTrue(section >= 0, "docs/remote.md has no section 'Who sees the presigned URL'");
        String text = page.substring(section, page.indexOf("\n## ", section + 1));
        List<Row> rows = new ArrayList<>();
        Matcher m = ROW.matcher(text);
        while (m.find()) {
            rows.add(new Row(m.group(1), m.group(2), m.group(3).equals("yes")));
        }
        return rows;
    }

    @AfterAll
    void stop() throws Exception {
        for (RemoteStack s : stacks.values()) {
            s.close();
        }
    }

    private RemoteStack stack(Row row) throws Exception {
        boolean nginx = row.who().equals(THROUGH_NGINX);
        String key = row.trustedProxies() + (nginx ? " nginx" : "");
        RemoteStack s = stacks.get(key);
        if (s == null) {
            s = RemoteStack.start("presigned-exposure-" + stacks.size(), nginx,
                    Map.of("trustedProxies", row.trustedProxies()));
            stacks.put(key, s);
        }
        return s;
    }

    @Test
    void everyRowOfTheDocsTableHolds() throws Exception {
        List<Row> rows = rows();
        assertEquals(3, rows.size(), "the table's rows: " + rows);
        assertTrue(rows.stream().anyMatch(r -> r.sees() && r.trustedProxies().equals("127.0.0.0/8, ::1")
                && r.who().equals(DIRECT)), "the page says that the default lets a local process see the URL");
        int n = 0;
        for (Row row : rows) {
            assertTrue(row.who().equals(THROUGH_NGINX) || row.who().equals(DIRECT), "unknown row: " + row);
            RemoteStack s = stack(row);
            byte[] content = BoundaryCheck.uniqueContent("exposure " + n, 4000);
            String key = "exposure-" + n + ".bin";
            s.store.put(key, content);
            URI presigned = s.store.presignGet(key, Duration.ofSeconds(30));
            String id = "exposure" + n++;
            s.objects.fixed(id, presigned);
            RawHttp.Request request = RawHttp.get("/objects/" + id)
                    .header("Authorization", BearerAuthFilter.AUTHORIZATION);
            RawHttp.Response r = row.who().equals(DIRECT)
                    ? request.header("X-Sendfile-Type", "X-Accel-Redirect").send(s.tomcat.port())
                    : request.send(s.nginx.port());
            assertEquals(200, r.status(), row + ": " + r);
            String signature = signature(presigned);
            String raw = new String(r.raw(), StandardCharsets.ISO_8859_1);
            if (row.sees()) {
                String header = r.header("X-Accel-Redirect");
                assertNotNull(header, row + ": " + r);
                assertTrue(header.contains(signature), row + ": the header carries the presigned URL: " + header);
                assertTrue(header.contains(presigned.getRawPath().substring(1)), header);
                assertEquals(0, r.body().length, row.toString());
            } else {
                assertFalse(raw.contains(signature), row + ": no byte of the answer carries the signature: " + raw);
                assertFalse(raw.contains("X-Amz-"), row + ": nor any part of the presigned query");
                assertEquals(null, r.header("X-Accel-Redirect"), row.toString());
                assertArrayEquals(content, r.body(), row + ": the object arrives all the same");
            }
        }
    }

    private static String signature(URI presigned) {
        Matcher m = Pattern.compile("X-Amz-Signature=([0-9a-f]+)").matcher(presigned.getRawQuery());
        assertTrue(m.find(), presigned.toString());
        return m.group(1);
    }
}
