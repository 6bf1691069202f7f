package dev.xaccel.sample;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.xaccel.filter.SignedLinks;
import dev.xaccel.sample.api.UrlPaths;
import dev.xaccel.sample.demolib.DemoLibrary;
import dev.xaccel.testsupport.TestPaths;
import jakarta.json.JsonArray;
import jakarta.json.JsonObject;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * The sample deployed as users deploy it: the real Tomcat 11 distribution started with catalina.sh, the
 * accept-filter connector from lib/, the WAR in webapps/, nginx in front with the shipped config, and one
 * fresh signed-link secret given to both (XACCEL_LINK_SECRET for Tomcat, ${LINK_SECRET} in nginx's config).
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class StandaloneTomcatIT {

    static final String ADMIN = "ops";
    static final String ADMIN_PASSWORD = "ops-secret";

    /** Signed cover link: /s/library/<encoded path>?md5=<22 base64url chars>&expires=<epoch seconds>. */
    static final Pattern SIGNED = Pattern.compile("(/s/library/[^?]+)\\?md5=([A-Za-z0-9_-]{22})&expires=(\\d+)");

    static SampleStack stack;
    static final Http http = new Http();

    @BeforeAll
    static void deploy() throws Exception {
        String adminHash = HexFormat.of().formatHex(java.security.MessageDigest.getInstance("SHA-256")
                .digest(ADMIN_PASSWORD.getBytes(java.nio.charset.StandardCharsets.UTF_8)));
        stack = SampleStack.start("standalone", Map.of(
                "XACCEL_DEMO_USERS", "demo:demo, " + ADMIN + ":{sha256}" + adminHash + ":admin"));
    }

    @AfterAll
    static void undeploy() throws Exception {
        if (stack != null) {
            stack.close();
        }
    }

    static JsonObject stats() throws Exception {
        HttpResponse<byte[]> r = http.get(stack.url("/api/stats"), "Authorization",
                stack.bearer(ADMIN, ADMIN_PASSWORD));
        assertEquals(200, r.statusCode(), Http.text(r));
        JsonArray filters = Http.object(r).getJsonArray("filters");
        assertEquals(1, filters.size(), "one xaccel filter MBean for context /: " + Http.text(r));
        return filters.getJsonObject(0);
    }

    static JsonArray items(String auth) throws Exception {
        HttpResponse<byte[]> r = http.get(stack.url("/api/items"), "Authorization", auth);
        assertEquals(200, r.statusCode(), Http.text(r));
        assertTrue(r.headers().firstValue("Content-Type").orElse("").startsWith("application/json"));
        return Http.array(r);
    }

    @Test
    @Order(1)
    void tomcatRunsTheAcceptFilterConnectorAndTheApp() {
        String log = stack.tomcat.log();
        assertTrue(log.contains("acceptFilter [httpready] applied"), "no accept-filter line in catalina.out:\n"
                + TestPaths.tail(stack.tomcat.catalinaOut(), 4000));
        assertTrue(log.contains("XAccelFilter [xaccel] started"), log);
        assertTrue(log.contains("offload=auto"), log);
        assertTrue(log.contains("Covers are listed as signed links under [/s/library/]"), log);
        assertFalse(log.contains(stack.linkSecret), "the signed-link secret reached catalina.out");
    }

    @Test
    @Order(2)
    void withoutLoginEveryFileAndApiUrlIs401WithoutAByte() throws Exception {
        String id = bookId("Ada Lovelace", "Notes on the Analytical Engine");
        List<String> urls = List.of("/api/items", "/api/items/" + id, "/api/items/" + id + "/cover",
                "/api/items/" + id + "/author-picture", "/library/Ada%20Lovelace/author.jpg",
                "/api/items/" + id + "/file/0", "/api/items/" + id + "/file/0?download=1", "/api/stats",
                "/api/me", "/library/Ada%20Lovelace/Notes%20on%20the%20Analytical%20Engine/01%20Sketch%20%231.wav",
                "/library/Ada%20Lovelace/Notes%20on%20the%20Analytical%20Engine/cover.png");
        byte[] wav = Files.readAllBytes(
                stack.library.resolve("Ada Lovelace/Notes on the Analytical Engine/01 Sketch #1.wav"));
        for (String url : urls) {
            for (String[] headers : List.of(new String[0], new String[] {"Authorization", "Bearer forged-token"},
                    new String[] {"Cookie", "JSESSIONID=0123456789ABCDEF0123456789ABCDEF"})) {
                HttpResponse<byte[]> r = http.get(stack.url(url), headers);
                assertEquals(401, r.statusCode(), url + " " + Arrays.toString(headers));
                assertTrue(r.body().length < 200, url);
                assertFalse(Http.text(r).contains("RIFF") || Http.text(r).contains("PNG"), url);
                assertTrue(r.headers().firstValue("WWW-Authenticate").orElse("").startsWith("Bearer"), url);
            }
        }
        assertTrue(wav.length > 1_000_000);
        // nobody reaches the library around the app: the internal location is 404 from outside
        HttpResponse<byte[]> internal = http.get(stack.url(
                "/_xaccel/library/Ada%20Lovelace/Notes%20on%20the%20Analytical%20Engine/01%20Sketch%20%231.wav"));
        assertEquals(404, internal.statusCode());
        // and a wrong password gets no session and no token
        HttpResponse<byte[]> bad = http.post(stack.url("/api/login"), Http.form("user", "demo", "password", "nope"));
        assertEquals(401, bad.statusCode());
        assertTrue(bad.headers().firstValue("Set-Cookie").isEmpty());
        assertFalse(stack.tomcat.log().contains("nope"), "a password reached the log");
    }

    @Test
    @Order(3)
    void loginGivesAnHttpOnlySameSiteSessionAndABearerToken() throws Exception {
        HttpResponse<byte[]> r = http.post(stack.url("/api/login"), Http.form("user", "demo", "password", "demo"));
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
        HttpResponse<byte[]> me = http.get(stack.url("/api/me"), "Cookie", session);
        assertEquals(200, me.statusCode());
        assertEquals("demo", Http.object(me).getString("user"));
        assertEquals(4, items("Bearer " + login.getString("token")).size());

        // logout ends the session; the token of another login still works until it is logged out too
        String token = stack.bearer("demo", "demo");
        assertEquals(204, http.post(stack.url("/api/logout"), "", "Cookie", session).statusCode());
        assertEquals(401, http.get(stack.url("/api/me"), "Cookie", session).statusCode());
        assertEquals(200, http.get(stack.url("/api/me"), "Authorization", token).statusCode());
        assertEquals(204, http.post(stack.url("/api/logout"), "", "Authorization", token).statusCode());
        assertEquals(401, http.get(stack.url("/api/me"), "Authorization", token).statusCode());
    }

    @Test
    @Order(4)
    void itemListDescribesTheLibrary() throws Exception {
        JsonArray items = items(stack.bearer("demo", "demo"));
        assertEquals(DemoLibrary.BOOKS.size(), items.size());
        for (DemoLibrary.Book spec : DemoLibrary.BOOKS) {
            JsonObject item = items.stream().map(v -> v.asJsonObject())
                    .filter(o -> o.getString("title").equals(spec.title())).findFirst().orElseThrow();
            assertEquals(spec.author(), item.getString("author"));
            // through nginx the cover is a signed link to exactly the cover file
            Matcher signed = SIGNED.matcher(item.getString("cover"));
            assertTrue(signed.matches(), item.getString("cover"));
            assertEquals("/s/library/"
                    + UrlPaths.encodePath(spec.author() + "/" + spec.title() + "/" + spec.coverFile()),
                    signed.group(1));
            long expires = Long.parseLong(signed.group(3));
            long now = Instant.now().getEpochSecond();
            assertTrue(expires > now + 3600 - 5 && expires <= now + 2 * 3600, "expires " + expires + " now " + now);
            // and so is the author's picture, Author/author.jpg
            Matcher picture = SIGNED.matcher(item.getString("authorPicture"));
            assertTrue(picture.matches(), item.getString("authorPicture"));
            assertEquals("/s/library/" + UrlPaths.encodePath(spec.author() + "/author.jpg"), picture.group(1));
            JsonArray files = item.getJsonArray("files");
            assertEquals(spec.chapters().size(), files.size());
            for (int i = 0; i < files.size(); i++) {
                JsonObject f = files.getJsonObject(i);
                Path onDisk = spec.dir(stack.library).resolve(f.getString("name"));
                assertTrue(Files.isRegularFile(onDisk), onDisk.toString());
                assertEquals(Files.size(onDisk), f.getJsonNumber("size").longValue());
                assertEquals("audio/wav", f.getString("contentType"));
                assertTrue(f.getString("library").startsWith("/library/"));
            }
        }
    }

    /** Covers by signed links (no request reaches Tomcat); audio by plain offload (one decision each). */
    @Test
    @Order(5)
    void filesComeByteExactFromNginxAndNeverThroughTomcat() throws Exception {
        String auth = stack.bearer("demo", "demo");
        JsonObject before = stats();
        int logMark = stack.nginx.accessLog().size();
        JsonArray items = items(auth);
        int requests = 0;
        List<String> checked = new ArrayList<>();
        for (var v : items) {
            JsonObject item = v.asJsonObject();
            DemoLibrary.Book spec = DemoLibrary.BOOKS.stream()
                    .filter(b -> b.title().equals(item.getString("title"))).findFirst().orElseThrow();
            // the cover: a signed link, served by nginx alone (no credentials needed, no request to Tomcat)
            HttpResponse<byte[]> cover = http.get(stack.url(item.getString("cover")));
            assertEquals(200, cover.statusCode(), item.getString("cover"));
            assertEquals(ItSupport.sha256(spec.dir(stack.library).resolve(spec.coverFile())),
                    ItSupport.sha256(cover.body()), spec.coverFile());
            assertEquals(spec.coverFile().endsWith(".jpg") ? "image/jpeg" : "image/png",
                    cover.headers().firstValue("Content-Type").orElse(""));
            checked.add(spec.coverFile());
            // the author's picture the same way
            HttpResponse<byte[]> picture = http.get(stack.url(item.getString("authorPicture")));
            assertEquals(200, picture.statusCode(), item.getString("authorPicture"));
            assertEquals(ItSupport.sha256(spec.authorPicture(stack.library)), ItSupport.sha256(picture.body()),
                    spec.author());
            assertEquals("image/jpeg", picture.headers().firstValue("Content-Type").orElse(""));
            assertEquals("nosniff", picture.headers().firstValue("X-Content-Type-Options").orElse(""));
            // every audio file (an XAccelFile), through Jersey and through the mapped URL
            for (var fv : item.getJsonArray("files")) {
                JsonObject f = fv.asJsonObject();
                String expected = ItSupport.sha256(spec.dir(stack.library).resolve(f.getString("name")));
                for (String url : List.of(f.getString("url"), f.getString("library"))) {
                    HttpResponse<byte[]> r = http.get(stack.url(url), "Authorization", auth);
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
        HttpResponse<byte[]> download = http.get(stack.url(chapter.getString("download")), "Authorization", auth);
        requests++;
        assertEquals(200, download.statusCode());
        String disposition = download.headers().firstValue("Content-Disposition").orElse("");
        assertTrue(disposition.startsWith("attachment;"), disposition);
        assertTrue(disposition.contains("filename*=UTF-8''Chapitre%201%20%E2%80%93%20Un%20%C3%A9cueil%20fuyant.wav"),
                disposition);
        Path onDisk = stack.library.resolve("Jules Verne/Vingt mille lieues sous les mers")
                .resolve(chapter.getString("name"));
        HttpResponse<byte[]> range = http.get(stack.url(chapter.getString("url")), "Authorization", auth,
                "Range", "bytes=1000000-1099999");
        requests++;
        assertEquals(206, range.statusCode());
        assertArrayEquals(Arrays.copyOfRange(Files.readAllBytes(onDisk), 1_000_000, 1_100_000), range.body());

        JsonObject after = stats();
        assertEquals(before.getJsonNumber("offloaded").longValue() + requests,
                after.getJsonNumber("offloaded").longValue(), "every file request offloaded: " + after);
        assertEquals(before.getJsonNumber("servedDirectly").longValue(),
                after.getJsonNumber("servedDirectly").longValue());
        assertEquals(0, after.getJsonNumber("bytesServedDirectly").longValue(), "Tomcat sent file bytes: " + after);

        // nginx saw Tomcat answer every file request with an empty body (ulen=0), served from the internal location
        List<String> lines = stack.nginx.accessLog();
        List<String> offloadedLines = lines.subList(logMark, lines.size()).stream()
                .filter(l -> l.contains("uri=\"/_xaccel/library/")).toList();
        assertEquals(requests, offloadedLines.size(), String.join("\n", stack.nginx.accessLog()));
        for (String line : offloadedLines) {
            assertTrue(line.contains(" ulen=0 "), line);
        }
        // the covers and author pictures: answered from the signed-link location without any upstream
        List<String> coverLines = lines.subList(logMark, lines.size()).stream()
                .filter(l -> l.contains("uri=\"/s/library/")).toList();
        assertEquals(2 * items.size(), coverLines.size(), String.join("\n", lines));
        for (String line : coverLines) {
            assertTrue(line.contains("\" 200 ") && line.contains(" ustatus=- "), line);
        }
    }

    /** A link nginx did not get from the application is refused without asking Tomcat. */
    @Test
    @Order(6)
    void signedLinksAreCheckedByNginx() throws Exception {
        SignedLinks links = SignedLinks.create(stack.linkSecret, "/s/library/", Duration.ofHours(1));
        DemoLibrary.Book ada = DemoLibrary.BOOKS.get(0);
        String cover = ada.author() + "/" + ada.title() + "/" + ada.coverFile();
        String good = links.sign(cover);
        JsonObject before = stats();
        assertEquals(200, http.get(stack.url(good)).statusCode(), good);

        // tampered: one signature character changed, a longer expiry, no signature, another file's query
        Matcher m = SIGNED.matcher(good);
        assertTrue(m.matches(), good);
        String sig = m.group(2);
        String flipped = (sig.charAt(0) == 'A' ? 'B' : 'A') + sig.substring(1);
        String verne = DemoLibrary.BOOKS.stream().filter(b -> b.author().equals("Jules Verne"))
                .map(b -> b.author() + "/" + b.title() + "/" + b.coverFile()).findFirst().orElseThrow();
        for (String bad : List.of(
                m.group(1) + "?md5=" + flipped + "&expires=" + m.group(3),
                m.group(1) + "?md5=" + sig + "&expires=" + (Long.parseLong(m.group(3)) + 3600),
                m.group(1),
                m.group(1) + "?expires=" + m.group(3),
                "/s/library/" + UrlPaths.encodePath(verne) + good.substring(good.indexOf('?')))) {
            HttpResponse<byte[]> r = http.get(stack.url(bad));
            assertEquals(403, r.statusCode(), bad);
            assertFalse(Http.text(r).contains("PNG") || Http.text(r).contains("JFIF"), bad);
        }
        // expired (correctly signed, expiry in the past): 410
        String expired = links.sign(cover, Instant.now().minusSeconds(60));
        assertEquals(410, http.get(stack.url(expired)).statusCode(), expired);
        // least privilege: a correctly signed link to an audio file, to a file outside Author/Title/, or to a
        // hidden file is refused by the location's image check
        String chapter = ada.author() + "/" + ada.title() + "/" + ada.chapters().get(0).fileName();
        for (String path : List.of(chapter, ada.author() + "/" + ada.coverFile().replace("cover", "x"),
                ada.author() + "/" + ada.title() + "/.hidden.png")) {
            String link = links.sign(path);
            HttpResponse<byte[]> r = http.get(stack.url(link));
            assertEquals(403, r.statusCode(), link);
            assertFalse(Http.text(r).contains("RIFF"), link);
        }
        // an author's picture: exactly Author/author.jpg. A correctly signed link to any other name at that level
        // (another case, another extension, a hidden file, an audio file) is refused too
        String picture = ada.author() + "/author.jpg";
        assertEquals(200, http.get(stack.url(links.sign(picture))).statusCode(), picture);
        for (String path : List.of(ada.author() + "/Author.jpg", ada.author() + "/author.JPG",
                ada.author() + "/author.jpeg", ada.author() + "/author.png", ada.author() + "/.author.jpg",
                ada.author() + "/xauthor.jpg", ada.author() + "/author.jpg.wav", "author.jpg",
                ada.author() + "/" + ada.chapters().get(0).fileName())) {
            String link = links.sign(path);
            assertEquals(403, http.get(stack.url(link)).statusCode(), link);
        }
        // a signature made with another secret
        String foreign = SignedLinks.create(ItSupport.newLinkSecret(), "/s/library/", Duration.ofHours(1)).sign(cover);
        assertEquals(403, http.get(stack.url(foreign)).statusCode(), foreign);

        JsonObject after = stats();
        for (String counter : List.of("offloaded", "servedDirectly", "notFound", "rejected")) {
            assertEquals(before.getJsonNumber(counter).longValue(), after.getJsonNumber(counter).longValue(),
                    counter + " changed: a signed-link request reached Tomcat");
        }
    }

    /** Only nginx verifies signed links: a client talking to Tomcat directly is given the authenticated URLs. */
    @Test
    @Order(7)
    void withoutNginxTheCoverUrlIsTheAuthenticatedOne() throws Exception {
        String auth = stack.bearer("demo", "demo");
        HttpResponse<byte[]> r = http.get(stack.tomcat.url("/api/items"), "Authorization", auth);
        assertEquals(200, r.statusCode());
        for (var v : Http.array(r)) {
            JsonObject item = v.asJsonObject();
            assertEquals("/api/items/" + item.getString("id") + "/cover", item.getString("cover"));
            HttpResponse<byte[]> cover = http.get(stack.tomcat.url(item.getString("cover")), "Authorization", auth);
            assertEquals(200, cover.statusCode());
            assertTrue(cover.body().length > 1000);
            assertEquals("/api/items/" + item.getString("id") + "/author-picture", item.getString("authorPicture"));
            HttpResponse<byte[]> picture = http.get(stack.tomcat.url(item.getString("authorPicture")),
                    "Authorization", auth);
            assertEquals(200, picture.statusCode());
            assertEquals("image/jpeg", picture.headers().firstValue("Content-Type").orElse(""));
            assertTrue(picture.body().length > 1000);
        }
    }

    /**
     * Layer 2 on /library/<Author>/<Title>/<image>: Tomcat is asked once per (URI, credentials), then nginx
     * answers from its decision cache; anonymous and forged credentials get 401; audio stays uncached.
     */
    @Test
    @Order(8)
    void coverImagesByLibraryUrlUseCachedDecisions() throws Exception {
        String demo = stack.bearer("demo", "demo");
        String ops = stack.bearer(ADMIN, ADMIN_PASSWORD);
        List<String> urls = new ArrayList<>();
        Map<String, String> expected = new java.util.HashMap<>();
        for (DemoLibrary.Book b : DemoLibrary.BOOKS) {
            String url = "/library/" + UrlPaths.encodePath(b.author() + "/" + b.title() + "/" + b.coverFile());
            urls.add(url);
            expected.put(url, ItSupport.sha256(b.dir(stack.library).resolve(b.coverFile())));
        }
        JsonObject s0 = stats();
        for (int round = 0; round < 4; round++) {
            for (String url : urls) {
                HttpResponse<byte[]> r = http.get(stack.url(url), "Authorization", demo);
                assertEquals(200, r.statusCode(), url);
                assertEquals(expected.get(url), ItSupport.sha256(r.body()), url);
                assertEquals(url.endsWith(".jpg") ? "image/jpeg" : "image/png",
                        r.headers().firstValue("Content-Type").orElse(""), url);
            }
        }
        JsonObject s1 = stats();
        // a name with '?' cannot take the try_files jump unchanged: its (cached) decision is followed by a plain
        // offload each time, so it counts once more per request
        long withQuestionMark = DemoLibrary.BOOKS.stream().filter(b -> (b.title() + b.coverFile()).contains("?"))
                .count();
        assertEquals(1, withQuestionMark, "the demo library has one such cover");
        assertEquals(offloaded(s0) + urls.size() + 4 * withQuestionMark, offloaded(s1),
                "4 rounds of " + urls.size() + " covers: one decision per cover, then cache hits");
        // a Range on a cached hit is answered by nginx
        HttpResponse<byte[]> range = http.get(stack.url(urls.get(0)), "Authorization", demo, "Range", "bytes=10-19");
        assertEquals(206, range.statusCode());
        assertEquals(10, range.body().length);

        // anonymous, a forged token, a forged session: 401 from Tomcat's decision, never a byte
        for (String[] headers : List.of(new String[0], new String[] {"Authorization", "Bearer forged-token"},
                new String[] {"Cookie", "JSESSIONID=0123456789ABCDEF0123456789ABCDEF"})) {
            for (int i = 0; i < 2; i++) {
                HttpResponse<byte[]> r = http.get(stack.url(urls.get(1)), headers);
                assertEquals(401, r.statusCode(), Arrays.toString(headers));
                assertFalse(Http.text(r).contains("PNG"));
                assertTrue(r.headers().firstValue("WWW-Authenticate").orElse("").startsWith("Bearer"));
            }
        }
        // another credential is another key: Tomcat decides for it once
        JsonObject s2 = stats();
        for (int i = 0; i < 3; i++) {
            assertEquals(200, http.get(stack.url(urls.get(3)), "Authorization", ops).statusCode());
        }
        JsonObject s3 = stats();
        assertEquals(offloaded(s2) + 1, offloaded(s3));
        // audio by its /library/ URL is plain offload: Tomcat decides every time
        DemoLibrary.Book ada = DemoLibrary.BOOKS.get(0);
        String wav = "/library/" + UrlPaths.encodePath(ada.author() + "/" + ada.title() + "/"
                + ada.chapters().get(0).fileName());
        for (int i = 0; i < 2; i++) {
            assertEquals(206, http.get(stack.url(wav), "Range", "bytes=0-99", "Authorization", demo).statusCode());
        }
        JsonObject s4 = stats();
        assertEquals(offloaded(s3) + 2, offloaded(s4));
        assertEquals(s0.getJsonNumber("bytesServedDirectly").longValue(),
                s4.getJsonNumber("bytesServedDirectly").longValue(), "Tomcat sent file bytes: " + s4);
    }

    /**
     * Tomcat ignores a {@code ;parameter} in a path segment, nginx's {@code $uri} keeps it: the cover location
     * must not authorize {@code Author/Title/cover} with Tomcat and then serve {@code Author;x/Title/cover}.
     */
    @Test
    @Order(9)
    void aPathParameterNeverMakesNginxServeAnotherFileThanTomcatAuthorized() throws Exception {
        DemoLibrary.Book b = DemoLibrary.BOOKS.get(0);
        Path decoyDir = stack.library.resolve(b.author() + ";x");
        Path decoy = decoyDir.resolve(b.title()).resolve(b.coverFile());
        byte[] decoyBytes = "decoy: not the file Tomcat authorized".getBytes(java.nio.charset.StandardCharsets.UTF_8);
        Files.createDirectories(decoy.getParent());
        Files.write(decoy, decoyBytes);
        try {
            String url = "/library/" + UrlPaths.encodePath(b.author()) + ";x/"
                    + UrlPaths.encodePath(b.title() + "/" + b.coverFile());
            String demo = stack.bearer("demo", "demo");
            for (int i = 0; i < 2; i++) {
                HttpResponse<byte[]> r = http.get(stack.url(url), "Authorization", demo);
                assertFalse(Arrays.equals(decoyBytes, r.body()), "nginx served the decoy for " + url);
                assertEquals(200, r.statusCode(), url);
                assertEquals(ItSupport.sha256(b.dir(stack.library).resolve(b.coverFile())), ItSupport.sha256(r.body()),
                        "the file Tomcat authorized");
            }
        } finally {
            Files.delete(decoy);
            Files.delete(decoy.getParent());
            Files.delete(decoyDir);
        }
    }

    static long offloaded(JsonObject stats) {
        return stats.getJsonNumber("offloaded").longValue();
    }

    @Test
    @Order(10)
    void statsAreForAdminsOnly() throws Exception {
        HttpResponse<byte[]> r = http.get(stack.url("/api/stats"), "Authorization", stack.bearer("demo", "demo"));
        assertEquals(403, r.statusCode());
        JsonObject s = stats();
        assertNotNull(s.getJsonNumber("offloaded"));
        assertTrue(s.getString("objectName").contains("context=/"), s.toString());
        // an admin's answer names no path either: the filter's configuration line (the data root) is left out
        assertFalse(s.containsKey("configuration"), s.toString());
        assertFalse(s.toString().contains(stack.library.toString()) || s.toString().contains("/work/"), s.toString());
    }

    /** The shipped server.xml's ErrorReportValve: Tomcat's error pages name no version and show no trace. */
    @Test
    @Order(10)
    void errorPagesNameNoServerVersionNorPath() throws Exception {
        String demo = stack.bearer("demo", "demo");
        for (String path : List.of("/library/Ada%20Lovelace/missing.png", "/library/..%2F..%2Fetc%2Fpasswd",
                "/library/%00", "/no-such-page")) {
            HttpResponse<byte[]> r = http.get(stack.tomcat.url(path), "Authorization", demo);
            assertTrue(r.statusCode() >= 400, path + " -> " + r.statusCode());
            String body = Http.text(r);
            assertFalse(body.contains("Tomcat") || body.contains("Exception")
                    || body.contains(stack.library.toString()), path + " -> " + body);
        }
    }

    @Test
    @Order(11)
    void stopsCleanly() throws Exception {
        stack.nginx.close();
        assertTrue(stack.tomcat.stop(Duration.ofSeconds(30)), "Tomcat did not exit after catalina.sh stop:\n"
                + TestPaths.tail(stack.tomcat.catalinaOut(), 4000));
        String log = stack.tomcat.log();
        assertTrue(log.contains("Stopping ProtocolHandler"), log);
        assertFalse(log.contains("SEVERE"),
                "SEVERE in catalina.out:\n" + TestPaths.tail(stack.tomcat.catalinaOut(), 6000));
        assertFalse(log.contains("did not stop cleanly"), log);
    }

    static String bookId(String author, String title) {
        return Library.id(author + "/" + title);
    }
}
