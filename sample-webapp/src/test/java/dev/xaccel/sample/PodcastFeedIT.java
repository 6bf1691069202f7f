package dev.xaccel.sample;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.xaccel.filter.SignedLinks;
import dev.xaccel.sample.api.UrlPaths;
import dev.xaccel.sample.demolib.DemoLibrary;
import dev.xaccel.testsupport.TestPaths;
import jakarta.json.JsonArray;
import jakarta.json.JsonObject;
import jakarta.json.JsonValue;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.w3c.dom.Element;

/**
 * The podcast feeds, deployed like StandaloneTomcatIT (the Tomcat distribution with catalina.sh, the shipped
 * server.xml and nginx config, one fresh signed-link secret): a feed read the way a podcast client reads it (no
 * cookie, no header, only the feed token in its URL), parsed as RSS 2.0 by a real XML parser; every enclosure
 * downloaded byte-exact from nginx alone, with Range; nginx refusing tampered, expired and cross-prefix links;
 * revocation of the feed token taking effect on the next fetch; and no token in any log.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class PodcastFeedIT {

    /** The default feedLinkTtl (XACCEL_FEED_LINK_TTL unset). */
    static final long FEED_TTL = 86400;
    /** An absolute signed link of the feeds (enclosures) or of the covers (the feed's image). */
    static final Pattern SIGNED = Pattern.compile(
            "(http://127\\.0\\.0\\.1:\\d+)(/[fs]/library/[^?]+)\\?md5=([A-Za-z0-9_-]{22})&expires=(\\d+)");
    static final Pattern RFC_822 = Pattern.compile(
            "(Mon|Tue|Wed|Thu|Fri|Sat|Sun), \\d{2} (Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) \\d{4} "
            + "\\d{2}:\\d{2}:\\d{2} (GMT|[+-]\\d{4})");

    static SampleStack stack;
    static final Http http = new Http();
    /** Every feed token issued in this test, to look for in the logs at the end. */
    static final List<String> issued = new ArrayList<>();

    @BeforeAll
    static void deploy() throws Exception {
        stack = SampleStack.start("feeds", Map.of("XACCEL_DEMO_USERS", "demo:demo, ops:ops:admin"));
    }

    @AfterAll
    static void undeploy() throws Exception {
        if (stack != null) {
            stack.close();
        }
    }

    /** A new feed token for the logged-in user ({@code POST /api/feed-token}). */
    static String newFeedToken(String auth) throws Exception {
        HttpResponse<byte[]> r = http.post(stack.url("/api/feed-token"), "", "Authorization", auth);
        assertEquals(200, r.statusCode(), Http.text(r));
        assertTrue(r.headers().firstValue("Cache-Control").orElse("").contains("no-store"));
        String token = Http.object(r).getString("token");
        assertTrue(Pattern.matches("[A-Za-z0-9_-]{43}", token), token);
        issued.add(token);
        return token;
    }

    static JsonArray items(String auth) throws Exception {
        HttpResponse<byte[]> r = http.get(stack.url("/api/items"), "Authorization", auth);
        assertEquals(200, r.statusCode(), Http.text(r));
        return Http.array(r);
    }

    static DemoLibrary.Book spec(String title) {
        return DemoLibrary.BOOKS.stream().filter(b -> b.title().equals(title)).findFirst().orElseThrow();
    }

    static String feedPath(DemoLibrary.Book b) {
        return "/feeds/" + Library.id(b.author() + "/" + b.title()) + ".xml";
    }

    /** The feed as a podcast client fetches it: no cookie, no header. */
    static HttpResponse<byte[]> fetch(DemoLibrary.Book b, String token) throws Exception {
        return http.get(stack.url(feedPath(b) + "?token=" + token));
    }

    static Element channel(DemoLibrary.Book b, String token) throws Exception {
        HttpResponse<byte[]> r = fetch(b, token);
        assertEquals(200, r.statusCode(), Http.text(r));
        return FeedXml.channel(FeedXml.parse(r.body()));
    }

    static List<String> enclosures(Element channel) {
        return FeedXml.children(channel, null, "item").stream()
                .map(i -> FeedXml.child(i, null, "enclosure").getAttribute("url")).toList();
    }

    static JsonObject stats() throws Exception {
        HttpResponse<byte[]> r = http.get(stack.url("/api/stats"), "Authorization", stack.bearer("ops", "ops"));
        assertEquals(200, r.statusCode(), Http.text(r));
        return Http.object(r).getJsonArray("filters").getJsonObject(0);
    }

    static void assertCountersUnchanged(JsonObject before, JsonObject after) {
        for (String counter : List.of("offloaded", "servedDirectly", "notFound", "rejected", "bytesServedDirectly")) {
            assertEquals(before.getJsonNumber(counter).longValue(), after.getJsonNumber(counter).longValue(),
                    counter + " changed: a feed link reached Tomcat's xaccel filter");
        }
    }

    @Test
    @Order(1)
    void tomcatStartsTheFeedsWithTheirOwnLinkLifetime() {
        String log = stack.tomcat.log();
        assertTrue(log.contains("Podcast feeds are on: enclosures are signed links under [/f/library/] (lifetime "
                + FEED_TTL + " s)"), log);
        assertFalse(log.contains(stack.linkSecret), "the signed-link secret reached catalina.out");
    }

    @Test
    @Order(2)
    void theFeedTokenApiNeedsALoginAndIssuesReplacesAndRevokes() throws Exception {
        for (HttpResponse<byte[]> r : List.of(http.get(stack.url("/api/feed-token")),
                http.post(stack.url("/api/feed-token"), ""), http.delete(stack.url("/api/feed-token")))) {
            assertEquals(401, r.statusCode(), r.request().method());
            assertFalse(Http.text(r).contains("token\""), Http.text(r));
        }
        String auth = stack.bearer("demo", "demo");
        assertEquals(404, http.get(stack.url("/api/feed-token"), "Authorization", auth).statusCode(), "none yet");
        String first = newFeedToken(auth);
        HttpResponse<byte[]> current = http.get(stack.url("/api/feed-token"), "Authorization", auth);
        assertEquals(200, current.statusCode());
        assertEquals(first, Http.object(current).getString("token"));
        // another login of the same user sees the same token: it belongs to the user, not to the session
        assertEquals(first, Http.object(http.get(stack.url("/api/feed-token"), "Authorization",
                stack.bearer("demo", "demo"))).getString("token"));
        String second = newFeedToken(auth);
        assertNotEquals(first, second);
        assertEquals(second,
                Http.object(http.get(stack.url("/api/feed-token"), "Authorization", auth)).getString("token"));
        assertEquals(204, http.delete(stack.url("/api/feed-token"), "Authorization", auth).statusCode());
        assertEquals(404, http.get(stack.url("/api/feed-token"), "Authorization", auth).statusCode());
        assertEquals(204, http.delete(stack.url("/api/feed-token"), "Authorization", auth).statusCode(), "idempotent");
    }

    @Test
    @Order(3)
    void theItemListNamesEachBooksFeed() throws Exception {
        for (JsonValue v : items(stack.bearer("demo", "demo"))) {
            JsonObject item = v.asJsonObject();
            assertEquals("/feeds/" + item.getString("id") + ".xml", item.getString("feed"));
        }
    }

    /** What a podcast client reads: RSS 2.0 + iTunes, enclosures matching the files, chapters in order. */
    @Test
    @Order(4)
    void everyFeedIsRss2WithWhatAPodcastClientReads() throws Exception {
        String token = newFeedToken(stack.bearer("demo", "demo"));
        Set<String> guids = new HashSet<>();
        for (DemoLibrary.Book spec : DemoLibrary.BOOKS) {
            HttpResponse<byte[]> r = fetch(spec, token);
            assertEquals(200, r.statusCode(), Http.text(r));
            List<String> type = Arrays.stream(r.headers().firstValue("Content-Type").orElse("").split(";"))
                    .map(s -> s.trim().toLowerCase(Locale.ROOT)).toList();
            assertEquals(List.of("application/rss+xml", "charset=utf-8"), type);
            assertEquals("private, no-cache", r.headers().firstValue("Cache-Control").orElse(""));
            assertTrue(r.headers().allValues("Set-Cookie").isEmpty(), "a feed sets no cookie");
            assertEquals("nosniff", r.headers().firstValue("X-Content-Type-Options").orElse(""));

            Element channel = FeedXml.channel(FeedXml.parse(r.body()));
            assertEquals(spec.title(), FeedXml.text(channel, "title"));
            assertEquals(stack.url("/"), FeedXml.text(channel, "link"));
            assertEquals(spec.author(), FeedXml.itunes(channel, "author"));
            assertEquals("serial", FeedXml.itunes(channel, "type"));

            // the image: a cover link (the covers' location), living as long as the enclosures, without credentials
            String image = FeedXml.child(channel, FeedXml.ITUNES, "image").getAttribute("href");
            Matcher im = SIGNED.matcher(image);
            assertTrue(im.matches(), image);
            assertEquals(stack.url(""), im.group(1));
            assertEquals("/s/library/"
                    + UrlPaths.encodePath(spec.author() + "/" + spec.title() + "/" + spec.coverFile()),
                    im.group(2));
            assertFeedLifetime(Long.parseLong(im.group(4)));
            assertEquals(image, FeedXml.text(FeedXml.child(channel, null, "image"), "url"));
            HttpResponse<byte[]> cover = http.get(image);
            assertEquals(200, cover.statusCode(), image);
            assertArrayEquals(Files.readAllBytes(spec.dir(stack.library).resolve(spec.coverFile())), cover.body());

            List<Element> items = FeedXml.children(channel, null, "item");
            assertEquals(spec.chapters().size(), items.size(), "one item per chapter");
            Instant previous = Instant.MIN;
            for (int i = 0; i < items.size(); i++) {
                Element item = items.get(i);
                DemoLibrary.Chapter chapter = spec.chapters().get(i);
                Path file = spec.dir(stack.library).resolve(chapter.fileName());
                assertEquals(chapter.fileName().substring(0, chapter.fileName().length() - ".wav".length()),
                        FeedXml.text(item, "title"), "in the book's order");
                assertEquals(Integer.toString(i + 1), FeedXml.itunes(item, "episode"));
                Element enclosure = FeedXml.child(item, null, "enclosure");
                Matcher m = SIGNED.matcher(enclosure.getAttribute("url"));
                assertTrue(m.matches(), enclosure.getAttribute("url"));
                assertEquals(stack.url(""), m.group(1));
                assertEquals("/f/library/" + UrlPaths.encodePath(spec.author() + "/" + spec.title() + "/"
                        + chapter.fileName()), m.group(2));
                assertFeedLifetime(Long.parseLong(m.group(4)));
                assertEquals(Long.toString(Files.size(file)), enclosure.getAttribute("length"));
                assertEquals("audio/wav", enclosure.getAttribute("type"));
                Element guid = FeedXml.child(item, null, "guid");
                assertEquals("false", guid.getAttribute("isPermaLink"));
                assertTrue(guids.add(guid.getTextContent()), "guids are unique: " + guid.getTextContent());
                assertFalse(guid.getTextContent().contains(token) || guid.getTextContent().contains("md5"));
                String pubDate = FeedXml.text(item, "pubDate");
                assertTrue(RFC_822.matcher(pubDate).matches(), pubDate);
                Instant published = ZonedDateTime.parse(pubDate, DateTimeFormatter.RFC_1123_DATE_TIME).toInstant();
                assertTrue(published.isAfter(previous), "pubDates follow the chapters' order");
                previous = published;
                assertEquals(String.format("00:%02d:%02d", chapter.seconds() / 60, chapter.seconds() % 60),
                        FeedXml.itunes(item, "duration"));
            }
        }
    }

    static void assertFeedLifetime(long expires) {
        long now = Instant.now().getEpochSecond();
        assertTrue(expires > now + FEED_TTL - 5 && expires <= now + 2 * FEED_TTL, "expires " + expires + " now " + now);
    }

    @Test
    @Order(5)
    void guidsStayTheSameAcrossFetches() throws Exception {
        String token = newFeedToken(stack.bearer("demo", "demo"));
        for (DemoLibrary.Book spec : DemoLibrary.BOOKS) {
            List<String> first = guids(channel(spec, token));
            List<String> second = guids(channel(spec, token));
            assertEquals(spec.chapters().size(), first.size());
            assertEquals(first, second, spec.title());
        }
        // and across feed tokens: a guid names the chapter, not the subscription
        DemoLibrary.Book ada = DemoLibrary.BOOKS.get(0);
        assertEquals(guids(channel(ada, token)), guids(channel(ada, newFeedToken(stack.bearer("ops", "ops")))));
    }

    static List<String> guids(Element channel) {
        return FeedXml.children(channel, null, "item").stream()
                .map(i -> FeedXml.child(i, null, "guid").getTextContent()).toList();
    }

    /** Enclosures are bearer links: no cookie, no header, nginx alone; Range for resuming and seeking. */
    @Test
    @Order(6)
    void everyEnclosureDownloadsByteExactFromNginxAloneWithRange() throws Exception {
        String token = newFeedToken(stack.bearer("demo", "demo"));
        List<String> urls = new ArrayList<>();
        List<Path> files = new ArrayList<>();
        for (DemoLibrary.Book spec : DemoLibrary.BOOKS) {
            urls.addAll(enclosures(channel(spec, token)));
            spec.chapters().forEach(c -> files.add(spec.dir(stack.library).resolve(c.fileName())));
        }
        JsonObject before = stats();
        int logMark = stack.nginx.accessLog().size();
        int requests = 0;
        for (int i = 0; i < urls.size(); i++) {
            HttpResponse<byte[]> r = http.get(urls.get(i));
            requests++;
            assertEquals(200, r.statusCode(), urls.get(i));
            assertEquals(ItSupport.sha256(files.get(i)), ItSupport.sha256(r.body()), urls.get(i));
            assertEquals("audio/wav", r.headers().firstValue("Content-Type").orElse(""));
            assertEquals("bytes", r.headers().firstValue("Accept-Ranges").orElse(""));
            assertEquals("nosniff", r.headers().firstValue("X-Content-Type-Options").orElse(""));
            assertTrue(r.headers().allValues("Set-Cookie").isEmpty());
        }
        // resuming and seeking: 206 with exactly the bytes asked for
        byte[] whole = Files.readAllBytes(files.get(0));
        HttpResponse<byte[]> range = http.get(urls.get(0), "Range", "bytes=1000000-1099999");
        requests++;
        assertEquals(206, range.statusCode());
        assertEquals("bytes 1000000-1099999/" + whole.length, range.headers().firstValue("Content-Range").orElse(""));
        assertArrayEquals(Arrays.copyOfRange(whole, 1_000_000, 1_100_000), range.body());
        HttpResponse<byte[]> resume = http.get(urls.get(0), "Range", "bytes=" + (whole.length - 1000) + "-");
        requests++;
        assertEquals(206, resume.statusCode());
        assertArrayEquals(Arrays.copyOfRange(whole, whole.length - 1000, whole.length), resume.body());

        assertCountersUnchanged(before, stats());
        List<String> lines = stack.nginx.accessLog();
        List<String> enclosureLines = lines.subList(logMark, lines.size()).stream()
                .filter(l -> l.contains("uri=\"/f/library/")).toList();
        assertEquals(requests, enclosureLines.size(), String.join("\n", lines.subList(logMark, lines.size())));
        for (String line : enclosureLines) {
            assertTrue((line.contains("\" 200 ") || line.contains("\" 206 ")) && line.contains(" ustatus=- "),
                    "an enclosure request reached Tomcat: " + line);
            assertFalse(line.contains("md5=") || line.contains("expires="), "a bearer link in the access log: " + line);
        }
    }

    /** nginx alone checks the links; the prefix inside the signature keeps the feeds' and covers' links apart. */
    @Test
    @Order(7)
    void nginxRefusesTamperedExpiredAndCrossPrefixLinks() throws Exception {
        String token = newFeedToken(stack.bearer("demo", "demo"));
        DemoLibrary.Book ada = DemoLibrary.BOOKS.get(0);
        Element channel = channel(ada, token);
        String enclosure = enclosures(channel).get(0);
        String image = FeedXml.child(channel, FeedXml.ITUNES, "image").getAttribute("href");
        String chapterPath = ada.author() + "/" + ada.title() + "/" + ada.chapters().get(0).fileName();
        String coverPath = ada.author() + "/" + ada.title() + "/" + ada.coverFile();
        SignedLinks feedLinks = SignedLinks.create(stack.linkSecret, "/f/library/", Duration.ofSeconds(FEED_TTL));
        SignedLinks coverLinks = SignedLinks.create(stack.linkSecret, "/s/library/", Duration.ofHours(1));
        JsonObject before = stats();
        assertEquals(200, http.get(enclosure).statusCode(), enclosure);
        assertEquals(200, http.get(stack.url(feedLinks.sign(chapterPath))).statusCode(), "a link nginx accepts");

        Matcher m = SIGNED.matcher(enclosure);
        assertTrue(m.matches(), enclosure);
        String sig = m.group(3);
        String flipped = (sig.charAt(0) == 'A' ? 'B' : 'A') + sig.substring(1);
        Map<String, Integer> expected = new java.util.LinkedHashMap<>();
        // tampered: another signature, a longer expiry, no signature, no expiry
        expected.put(m.group(1) + m.group(2) + "?md5=" + flipped + "&expires=" + m.group(4), 403);
        expected.put(m.group(1) + m.group(2) + "?md5=" + sig + "&expires=" + (Long.parseLong(m.group(4)) + 86400), 403);
        expected.put(m.group(1) + m.group(2), 403);
        expected.put(m.group(1) + m.group(2) + "?md5=" + sig, 403);
        // expired (correctly signed): 410
        expected.put(stack.url(feedLinks.sign(chapterPath, Instant.now().minusSeconds(60))), 410);
        // the enclosure link under the covers' prefix, the feed's cover link under the feeds' prefix
        expected.put(enclosure.replace("/f/library/", "/s/library/"), 403);
        expected.put(image.replace("/s/library/", "/f/library/"), 403);
        // where the file type would fit, only the prefix inside the signature refuses them: a cover-prefix signature
        // of a chapter presented under /f/library/, a feed-prefix signature of a cover presented under /s/library/
        expected.put(stack.url(coverLinks.sign(chapterPath).replace("/s/library/", "/f/library/")), 403);
        expected.put(stack.url(feedLinks.sign(coverPath).replace("/f/library/", "/s/library/")), 403);
        // least privilege: correctly signed for the feeds' prefix, but not a chapter at Author/Title/<audio>
        for (String path : List.of(coverPath, ada.author() + "/author.jpg",
                ada.author() + "/" + ada.title() + "/.x.wav", ada.author() + "/" + ada.chapters().get(0).fileName(),
                ada.author() + "/" + ada.title())) {
            expected.put(stack.url(feedLinks.sign(path)), 403);
        }
        // a signature made with another secret
        expected.put(stack.url(SignedLinks.create(ItSupport.newLinkSecret(), "/f/library/", Duration.ofHours(1))
                .sign(chapterPath)), 403);
        for (Map.Entry<String, Integer> e : expected.entrySet()) {
            HttpResponse<byte[]> r = http.get(e.getKey());
            assertEquals(e.getValue(), r.statusCode(), e.getKey());
            assertFalse(Http.text(r).contains("RIFF") || Http.text(r).contains("PNG") || Http.text(r).contains("JFIF"),
                    e.getKey());
        }
        assertCountersUnchanged(before, stats());
    }

    /**
     * Revoking the feed token stops the feed on its next fetch (401, no detail); a replaced token likewise. Links
     * the feed handed out before keep working until they expire (documented: they are bearer links).
     */
    @Test
    @Order(8)
    void aRevokedOrReplacedFeedTokenIsRefusedOnTheNextFetch() throws Exception {
        String auth = stack.bearer("demo", "demo");
        DemoLibrary.Book verne = spec("Vingt mille lieues sous les mers");
        String token = newFeedToken(auth);
        String enclosure = enclosures(channel(verne, token)).get(1);

        assertEquals(204, http.delete(stack.url("/api/feed-token"), "Authorization", auth).statusCode());
        assertRefused(fetch(verne, token));
        assertEquals(206, http.get(enclosure, "Range", "bytes=0-99").statusCode(),
                "an enclosure link already issued lives until it expires");

        String replaced = newFeedToken(auth);
        assertEquals(200, fetch(verne, replaced).statusCode());
        String current = newFeedToken(auth);
        assertRefused(fetch(verne, replaced));
        assertEquals(200, fetch(verne, current).statusCode());

        // unknown, malformed and missing tokens: the same answer, whatever the book
        for (String bad : List.of("", "x", current.substring(1), current + "x", "%00",
                current.toUpperCase(Locale.ROOT))) {
            assertRefused(fetch(verne, bad));
            assertRefused(http.get(stack.url("/feeds/000000000000.xml?token=" + bad)));
        }
        assertRefused(http.get(stack.url(feedPath(verne))));
        // a session or a bearer token is no feed token
        assertRefused(http.get(stack.url(feedPath(verne)), "Authorization", auth));
        // with a valid token: an unknown book, or no feed at all under that name, is 404 (empty)
        for (String path : List.of("/feeds/000000000000.xml", "/feeds/" + Library.id("x") + ".xml", "/feeds/items.xml",
                "/feeds/x")) {
            HttpResponse<byte[]> r = http.get(stack.url(path + "?token=" + current));
            assertEquals(404, r.statusCode(), path);
            assertEquals(0, r.body().length, path + ": " + Http.text(r));
        }
    }

    static void assertRefused(HttpResponse<byte[]> r) {
        assertEquals(401, r.statusCode(), r.uri() + ": " + Http.text(r));
        assertEquals(0, r.body().length, "no detail: " + Http.text(r));
        String challenge = r.headers().firstValue("WWW-Authenticate").orElse("");
        assertTrue(challenge.startsWith("Bearer realm=\"xaccel-sample\"") && challenge.contains("invalid_token"),
                challenge);
        assertTrue(r.headers().firstValue("Cache-Control").orElse("").contains("no-store"));
    }

    /** Only nginx can open the enclosures: a client talking to Tomcat directly gets no feed. */
    @Test
    @Order(9)
    void aClientTalkingToTomcatDirectlyGetsNoFeed() throws Exception {
        String auth = stack.bearer("demo", "demo");
        String token = newFeedToken(auth);
        HttpResponse<byte[]> items = http.get(stack.tomcat.url("/api/items"), "Authorization", auth);
        assertEquals(200, items.statusCode());
        for (JsonValue v : Http.array(items)) {
            JsonObject item = v.asJsonObject();
            assertTrue(!item.containsKey("feed") || item.isNull("feed"), item.toString());
        }
        HttpResponse<byte[]> r = http.get(stack.tomcat.url(feedPath(DemoLibrary.BOOKS.get(0)) + "?token=" + token));
        assertEquals(404, r.statusCode());
        assertEquals(0, r.body().length, Http.text(r));
    }

    /** Stops both servers (so that every log is flushed), then looks for the feed tokens in every log. */
    @Test
    @Order(10)
    void noFeedTokenReachesAnyLog() throws Exception {
        stack.nginx.close();
        assertTrue(stack.tomcat.stop(Duration.ofSeconds(30)),
                "Tomcat did not exit:\n" + TestPaths.tail(stack.tomcat.catalinaOut(), 4000));
        List<Path> logs = new ArrayList<>();
        for (Path dir : List.of(stack.tomcat.base().resolve("logs"), stack.nginx.prefix().resolve("logs"))) {
            try (Stream<Path> s = Files.list(dir)) {
                logs.addAll(s.filter(Files::isRegularFile).toList());
            }
        }
        assertTrue(logs.stream().anyMatch(p -> p.getFileName().toString().startsWith("localhost_access_log")),
                logs.toString());
        assertTrue(issued.size() >= 8, issued.toString());
        boolean feedsLogged = false;
        for (Path log : logs) {
            String text = new String(Files.readAllBytes(log), StandardCharsets.ISO_8859_1);
            for (String token : issued) {
                assertFalse(text.contains(token), "a feed token in " + log);
            }
            assertFalse(text.contains(stack.linkSecret), "the secret in " + log);
            feedsLogged |= text.contains("GET /feeds/");
        }
        assertTrue(feedsLogged, "the feed requests are logged (without their query): " + logs);
        String log = stack.tomcat.log();
        assertFalse(log.contains("SEVERE"),
                "SEVERE in catalina.out:\n" + TestPaths.tail(stack.tomcat.catalinaOut(), 6000));
    }
}
