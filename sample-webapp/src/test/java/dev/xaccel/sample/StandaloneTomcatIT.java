package dev.xaccel.sample;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.xaccel.sample.demolib.DemoLibrary;
import jakarta.json.JsonArray;
import jakarta.json.JsonObject;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * The sample deployed as users deploy it: the real Tomcat 11 distribution started with catalina.sh, the
 * accept-filter connector from lib/, the WAR in webapps/, nginx in front with the shipped config.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class StandaloneTomcatIT {

    static final String ADMIN = "ops";
    static final String ADMIN_PASSWORD = "ops-secret";

    static Path library;
    static CatalinaServer tomcat;
    static NginxServer nginx;
    static final Http http = new Http();

    @BeforeAll
    static void deploy() throws Exception {
        ItSupport.require(ItSupport.NGINX, "nginx");
        library = ItSupport.work("library");
        DemoLibrary.ensure(library);
        library = library.toRealPath();
        String adminHash = HexFormat.of().formatHex(java.security.MessageDigest.getInstance("SHA-256")
                .digest(ADMIN_PASSWORD.getBytes(java.nio.charset.StandardCharsets.UTF_8)));
        tomcat = CatalinaServer.start(ItSupport.work("standalone/catalina-base"), Map.of(
                "XACCEL_DEMO_LIBRARY", library.toString(),
                "XACCEL_DEMO_USERS", "demo:demo, " + ADMIN + ":{sha256}" + adminHash + ":admin"));
        nginx = NginxServer.start(ItSupport.work("standalone/nginx"), tomcat.port, library);
    }

    @AfterAll
    static void undeploy() throws Exception {
        if (nginx != null) {
            nginx.close();
        }
        if (tomcat != null) {
            tomcat.close();
        }
    }

    static String login(String user, String password) throws Exception {
        HttpResponse<byte[]> r = http.post(nginx.url("/api/login"), Http.form("user", user, "password", password));
        assertEquals(200, r.statusCode(), Http.text(r));
        return "Bearer " + Http.object(r).getString("token");
    }

    static JsonObject stats() throws Exception {
        HttpResponse<byte[]> r = http.get(nginx.url("/api/stats"), "Authorization", login(ADMIN, ADMIN_PASSWORD));
        assertEquals(200, r.statusCode(), Http.text(r));
        JsonArray filters = Http.object(r).getJsonArray("filters");
        assertEquals(1, filters.size(), "one xaccel filter MBean for context /: " + Http.text(r));
        return filters.getJsonObject(0);
    }

    static JsonArray items(String auth) throws Exception {
        HttpResponse<byte[]> r = http.get(nginx.url("/api/items"), "Authorization", auth);
        assertEquals(200, r.statusCode(), Http.text(r));
        assertTrue(r.headers().firstValue("Content-Type").orElse("").startsWith("application/json"));
        return Http.array(r);
    }

    @Test
    @Order(1)
    void tomcatRunsTheAcceptFilterConnectorAndTheApp() {
        String log = tomcat.log();
        assertTrue(log.contains("acceptFilter [httpready] applied"), "no accept-filter line in catalina.out:\n"
                + ItSupport.tail(tomcat.catalinaOut(), 4000));
        assertTrue(log.contains("XAccelFilter [xaccel] started"), log);
        assertTrue(log.contains("offload=auto"), log);
    }

    @Test
    @Order(2)
    void withoutLoginEveryFileAndApiUrlIs401WithoutAByte() throws Exception {
        String id = bookId("Ada Lovelace", "Notes on the Analytical Engine");
        List<String> urls = List.of("/api/items", "/api/items/" + id, "/api/items/" + id + "/cover",
                "/api/items/" + id + "/file/0", "/api/items/" + id + "/file/0?download=1", "/api/stats",
                "/api/me", "/library/Ada%20Lovelace/Notes%20on%20the%20Analytical%20Engine/01%20Sketch%20%231.wav",
                "/library/Ada%20Lovelace/Notes%20on%20the%20Analytical%20Engine/cover.png");
        byte[] wav = Files.readAllBytes(library.resolve("Ada Lovelace/Notes on the Analytical Engine/01 Sketch #1.wav"));
        for (String url : urls) {
            for (String[] headers : List.of(new String[0], new String[] {"Authorization", "Bearer forged-token"},
                    new String[] {"Cookie", "JSESSIONID=0123456789ABCDEF0123456789ABCDEF"})) {
                HttpResponse<byte[]> r = http.get(nginx.url(url), headers);
                assertEquals(401, r.statusCode(), url + " " + Arrays.toString(headers));
                assertTrue(r.body().length < 200, url);
                assertFalse(Http.text(r).contains("RIFF") || Http.text(r).contains("PNG"), url);
                assertTrue(r.headers().firstValue("WWW-Authenticate").orElse("").startsWith("Bearer"), url);
            }
        }
        assertTrue(wav.length > 1_000_000);
        // nobody reaches the library around the app: the internal location is 404 from outside
        HttpResponse<byte[]> internal = http.get(nginx.url(
                "/_xaccel/library/Ada%20Lovelace/Notes%20on%20the%20Analytical%20Engine/01%20Sketch%20%231.wav"));
        assertEquals(404, internal.statusCode());
        // and a wrong password gets no session and no token
        HttpResponse<byte[]> bad = http.post(nginx.url("/api/login"), Http.form("user", "demo", "password", "nope"));
        assertEquals(401, bad.statusCode());
        assertTrue(bad.headers().firstValue("Set-Cookie").isEmpty());
        assertFalse(tomcat.log().contains("nope"), "a password reached the log");
    }

    @Test
    @Order(3)
    void loginGivesAnHttpOnlySameSiteSessionAndABearerToken() throws Exception {
        HttpResponse<byte[]> r = http.post(nginx.url("/api/login"), Http.form("user", "demo", "password", "demo"));
        assertEquals(200, r.statusCode(), Http.text(r));
        JsonObject login = Http.object(r);
        assertEquals("demo", login.getString("user"));
        assertFalse(login.getBoolean("admin"));
        assertTrue(login.getString("token").length() >= 40);
        String cookie = r.headers().firstValue("Set-Cookie").orElseThrow();
        assertTrue(cookie.startsWith("JSESSIONID="), cookie);
        assertTrue(cookie.contains("HttpOnly"), cookie);
        assertTrue(cookie.contains("SameSite=Lax"), cookie);
        assertTrue(r.headers().firstValue("Cache-Control").orElse("").contains("no-store"));

        String session = cookie.substring(0, cookie.indexOf(';'));
        HttpResponse<byte[]> me = http.get(nginx.url("/api/me"), "Cookie", session);
        assertEquals(200, me.statusCode());
        assertEquals("demo", Http.object(me).getString("user"));
        assertEquals(4, items("Bearer " + login.getString("token")).size());

        // logout ends the session; the token of another login still works until it is logged out too
        String token = login("demo", "demo");
        assertEquals(204, http.post(nginx.url("/api/logout"), "", "Cookie", session).statusCode());
        assertEquals(401, http.get(nginx.url("/api/me"), "Cookie", session).statusCode());
        assertEquals(200, http.get(nginx.url("/api/me"), "Authorization", token).statusCode());
        assertEquals(204, http.post(nginx.url("/api/logout"), "", "Authorization", token).statusCode());
        assertEquals(401, http.get(nginx.url("/api/me"), "Authorization", token).statusCode());
    }

    @Test
    @Order(4)
    void itemListDescribesTheLibrary() throws Exception {
        JsonArray items = items(login("demo", "demo"));
        assertEquals(DemoLibrary.BOOKS.size(), items.size());
        for (DemoLibrary.Book spec : DemoLibrary.BOOKS) {
            JsonObject item = items.stream().map(v -> v.asJsonObject())
                    .filter(o -> o.getString("title").equals(spec.title())).findFirst().orElseThrow();
            assertEquals(spec.author(), item.getString("author"));
            assertEquals("/api/items/" + item.getString("id") + "/cover", item.getString("cover"));
            JsonArray files = item.getJsonArray("files");
            assertEquals(spec.chapters().size(), files.size());
            for (int i = 0; i < files.size(); i++) {
                JsonObject f = files.getJsonObject(i);
                Path onDisk = spec.dir(library).resolve(f.getString("name"));
                assertTrue(Files.isRegularFile(onDisk), onDisk.toString());
                assertEquals(Files.size(onDisk), f.getJsonNumber("size").longValue());
                assertEquals("audio/wav", f.getString("contentType"));
                assertTrue(f.getString("library").startsWith("/library/"));
            }
        }
    }

    @Test
    @Order(5)
    void filesComeByteExactFromNginxAndNeverThroughTomcat() throws Exception {
        String auth = login("demo", "demo");
        JsonObject before = stats();
        int logMark = nginx.accessLogLines().size();
        JsonArray items = items(auth);
        int requests = 0;
        List<String> checked = new ArrayList<>();
        for (var v : items) {
            JsonObject item = v.asJsonObject();
            DemoLibrary.Book spec = DemoLibrary.BOOKS.stream()
                    .filter(b -> b.title().equals(item.getString("title"))).findFirst().orElseThrow();
            // the cover (a Path returned by Jersey)
            HttpResponse<byte[]> cover = http.get(nginx.url(item.getString("cover")), "Authorization", auth);
            requests++;
            assertEquals(200, cover.statusCode(), item.getString("cover"));
            assertEquals(ItSupport.sha256(spec.dir(library).resolve(spec.coverFile())), ItSupport.sha256(cover.body()),
                    spec.coverFile());
            assertEquals(spec.coverFile().endsWith(".jpg") ? "image/jpeg" : "image/png",
                    cover.headers().firstValue("Content-Type").orElse(""));
            checked.add(spec.coverFile());
            // every audio file (an XAccelFile), through Jersey and through the mapped URL
            for (var fv : item.getJsonArray("files")) {
                JsonObject f = fv.asJsonObject();
                String expected = ItSupport.sha256(spec.dir(library).resolve(f.getString("name")));
                for (String url : List.of(f.getString("url"), f.getString("library"))) {
                    HttpResponse<byte[]> r = http.get(nginx.url(url), "Authorization", auth);
                    requests++;
                    assertEquals(200, r.statusCode(), url);
                    assertEquals(expected, ItSupport.sha256(r.body()), url);
                    assertEquals("audio/wav", r.headers().firstValue("Content-Type").orElse(""), url);
                }
                checked.add(f.getString("name"));
            }
        }
        assertTrue(checked.contains("Part 3 – Bonus%20track (literal).wav"), checked.toString());

        // a download keeps its original (non-ASCII) name; a seek is a Range request answered by nginx
        JsonObject verne = items.stream().map(v -> v.asJsonObject())
                .filter(o -> o.getString("author").equals("Jules Verne")).findFirst().orElseThrow();
        JsonObject chapter = verne.getJsonArray("files").getJsonObject(0);
        HttpResponse<byte[]> download = http.get(nginx.url(chapter.getString("download")), "Authorization", auth);
        requests++;
        assertEquals(200, download.statusCode());
        String disposition = download.headers().firstValue("Content-Disposition").orElse("");
        assertTrue(disposition.startsWith("attachment;"), disposition);
        assertTrue(disposition.contains("filename*=UTF-8''Chapitre%201%20%E2%80%93%20Un%20%C3%A9cueil%20fuyant.wav"),
                disposition);
        Path onDisk = library.resolve("Jules Verne/Vingt mille lieues sous les mers").resolve(chapter.getString("name"));
        HttpResponse<byte[]> range = http.get(nginx.url(chapter.getString("url")), "Authorization", auth,
                "Range", "bytes=1000000-1099999");
        requests++;
        assertEquals(206, range.statusCode());
        assertArrayEquals(Arrays.copyOfRange(Files.readAllBytes(onDisk), 1_000_000, 1_100_000), range.body());

        JsonObject after = stats();
        assertEquals(before.getJsonNumber("offloaded").longValue() + requests,
                after.getJsonNumber("offloaded").longValue(), "every file request offloaded: " + after);
        assertEquals(before.getJsonNumber("servedDirectly").longValue(), after.getJsonNumber("servedDirectly").longValue());
        assertEquals(0, after.getJsonNumber("bytesServedDirectly").longValue(), "Tomcat sent file bytes: " + after);

        // nginx saw Tomcat answer every file request with an empty body (ulen=0), served from the internal location
        List<String> lines = nginx.accessLogLines();
        List<String> offloadedLines = lines.subList(logMark, lines.size()).stream()
                .filter(l -> l.contains("uri=\"/_xaccel/library/")).toList();
        assertEquals(requests, offloadedLines.size(), String.join("\n", nginx.accessLogLines()));
        for (String line : offloadedLines) {
            assertTrue(line.contains(" ulen=0 "), line);
        }
    }

    @Test
    @Order(6)
    void statsAreForAdminsOnly() throws Exception {
        HttpResponse<byte[]> r = http.get(nginx.url("/api/stats"), "Authorization", login("demo", "demo"));
        assertEquals(403, r.statusCode());
        JsonObject s = stats();
        assertNotNull(s.getJsonNumber("offloaded"));
        assertTrue(s.getString("objectName").contains("context=/"), s.toString());
    }

    @Test
    @Order(7)
    void stopsCleanly() throws Exception {
        nginx.close();
        nginx = null;
        assertTrue(tomcat.stop(Duration.ofSeconds(30)), "Tomcat did not exit after catalina.sh stop:\n"
                + ItSupport.tail(tomcat.catalinaOut(), 4000));
        String log = tomcat.log();
        assertTrue(log.contains("Stopping ProtocolHandler"), log);
        assertFalse(log.contains("SEVERE"), "SEVERE in catalina.out:\n" + ItSupport.tail(tomcat.catalinaOut(), 6000));
        assertFalse(log.contains("did not stop cleanly"), log);
        tomcat = null;
    }

    static String bookId(String author, String title) {
        return Library.id(author + "/" + title);
    }
}
