package dev.xaccel.sample;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Element;

import dev.xaccel.sample.api.UrlPaths;
import dev.xaccel.sample.demolib.DemoLibrary;
import dev.xaccel.testsupport.RawHttp;
import dev.xaccel.testsupport.boundary.BoundaryCheck;
import dev.xaccel.testsupport.boundary.BoundaryCheck.Caller;
import dev.xaccel.testsupport.boundary.BoundaryCheck.Secret;
import dev.xaccel.testsupport.boundary.BoundaryCorpus;
import dev.xaccel.testsupport.malformed.MalformedSweep;
import dev.xaccel.testsupport.malformed.MalformedSweep.Endpoint;

/**
 * The differential test of the trust boundary for the sample as shipped (the Tomcat distribution, the WAR's
 * web.xml, sample-webapp/nginx/xaccel-demo.conf.template): request targets that start under every public and
 * protected location (the page, its assets, the login, the API, /library/, signed cover and author-picture links,
 * the podcast feeds with a feed token and their signed enclosure links, the internal locations) and aim at every
 * cover, author picture and chapter, spelled with path parameters, encoded and double-encoded
 * separators and dots, backslashes, overlong UTF-8, case and repeated slashes. Without credentials no response
 * may carry a byte of any of them (the sample lets every logged-in user read the whole library).
 * <p>
 * On the same deployment, malformed requests (issue 22), through nginx and directly at Tomcat: the malformed login
 * posts get 415/400/413 (no 500, no stack trace in the log), and {@link MalformedSweep} over every endpoint (the page
 * and assets, login, logout, me, items and their files, stats, the feed token, mapped files, signed cover links,
 * feeds and their enclosure links) finds no 5xx and no path, stack trace or server version.
 */
class SampleBoundaryIT {

    static final Set<String> USERS = Set.of("demo", "ops");

    static SampleStack stack;
    static final Http http = new Http();

    @BeforeAll
    static void deploy() throws Exception {
        stack = SampleStack.start("boundary", "boundary-library",
                Map.of("XACCEL_DEMO_USERS", "demo:demo, ops:ops:admin"));
    }

    @AfterAll
    static void undeploy() throws Exception {
        if (stack != null) {
            stack.close();
        }
    }

    @Test
    void withoutCredentialsNoTargetReachesAByteOfTheLibrary() throws Exception {
        String demo = stack.bearer("demo", "demo");
        List<Caller> callers = List.of(Caller.anonymous(), new Caller("demo", Map.of("Authorization", demo)),
                new Caller("ops", Map.of("Cookie", stack.session("ops", "ops"))));
        List<Secret> secrets = new ArrayList<>();
        List<String> goals = new ArrayList<>();
        List<String> starts = new ArrayList<>(List.of("/", "/index.html", "/assets/app.css", "/assets/app.js",
                "/api/login", "/api/items", "/library/", "/s/library/", "/_xaccel/library/",
                "/_xaccel_cached/_xaccel/library/", "/_xaccel_auth", "/_xaccel_cached", "/feeds/", "/f/library/",
                "/_xaccel/remote/http/127.0.0.1:9/library/"));
        // a valid signed cover link, as the item list hands it out: a start a client may hold. A link opens its
        // file for anyone (a bearer link), so that one URL is not a goal; reaching any other file from it is.
        HttpResponse<byte[]> items = http.get(stack.url("/api/items"), "Authorization", demo);
        String signed = Http.array(items).getJsonObject(0).getString("cover");
        assertTrue(signed.startsWith("/s/library/"), signed);
        assertEquals(200, RawHttp.get(signed).send(stack.nginx.port()).status(), "the signed link itself works");
        starts.add(signed);
        String signedPath = signed.substring(0, signed.indexOf('?'));
        // the same for an author's picture
        String picture = Http.array(items).getJsonObject(0).getString("authorPicture");
        assertTrue(picture.startsWith("/s/library/") && picture.contains("/author.jpg?"), picture);
        assertEquals(200, RawHttp.get(picture).send(stack.nginx.port()).status(),
                "the author's picture link itself works");
        starts.add(picture);
        String picturePath = picture.substring(0, picture.indexOf('?'));
        // a podcast feed with a valid feed token, and one of its enclosures: both bearer URLs a client may hold
        HttpResponse<byte[]> feedToken = http.post(stack.url("/api/feed-token"), "", "Authorization", demo);
        assertEquals(200, feedToken.statusCode(), Http.text(feedToken));
        DemoLibrary.Book first = DemoLibrary.BOOKS.get(0);
        String feed = "/feeds/" + Library.id(first.author() + "/" + first.title()) + ".xml?token="
                + Http.object(feedToken).getString("token");
        RawHttp.Response feedResponse = RawHttp.get(feed).send(stack.nginx.port());
        assertEquals(200, feedResponse.status(), "the feed itself works");
        starts.add(feed);
        Element channel = FeedXml.channel(FeedXml.parse(http.get(stack.url(feed)).body()));
        String enclosure = FeedXml.child(FeedXml.children(channel, null, "item").get(0), null, "enclosure")
                .getAttribute("url").substring(stack.url("").length());
        assertTrue(enclosure.startsWith("/f/library/"), enclosure);
        assertEquals(200, RawHttp.get(enclosure).send(stack.nginx.port()).status(), "the enclosure link itself works");
        starts.add(enclosure);
        String enclosurePath = enclosure.substring(0, enclosure.indexOf('?'));
        // every file is a secret; the URLs of two books are the goals (the others are spelled the same way)
        int books = 0;
        for (DemoLibrary.Book book : DemoLibrary.BOOKS) {
            boolean goal = books++ < 2;
            String dir = book.author() + "/" + book.title() + "/";
            String cover = UrlPaths.encodePath(dir + book.coverFile());
            String chapter = UrlPaths.encodePath(dir + book.chapters().get(0).fileName());
            secrets.add(new Secret(dir + book.coverFile(), Files.readAllBytes(book.dir(stack.library)
                    .resolve(book.coverFile())), USERS));
            secrets.add(new Secret(dir + book.chapters().get(0).fileName(), Files.readAllBytes(book.dir(stack.library)
                    .resolve(book.chapters().get(0).fileName())), USERS));
            String authorPicture = UrlPaths.encodePath(book.author() + "/author.jpg");
            secrets.add(new Secret(book.author() + "/author.jpg", Files.readAllBytes(book.authorPicture(stack.library)),
                    USERS));
            String id = Library.id(book.author() + "/" + book.title());
            if (!goal) {
                continue;
            }
            goals.addAll(List.of("/library/" + cover, "/_xaccel/library/" + cover,
                    "/_xaccel_cached/_xaccel/library/" + cover, "/api/items/" + id + "/cover",
                    "/library/" + chapter, "/api/items/" + id + "/file/0", "/f/library/" + cover,
                    "/library/" + authorPicture, "/api/items/" + id + "/author-picture"));
            if (!("/s/library/" + cover).equals(signedPath)) {
                goals.add("/s/library/" + cover);
            }
            if (!("/s/library/" + authorPicture).equals(picturePath)) {
                goals.add("/s/library/" + authorPicture);
            }
            if (!("/f/library/" + chapter).equals(enclosurePath)) {
                goals.add("/f/library/" + chapter);
            }
            if (books == 1) {
                starts.addAll(List.of("/library/" + cover, "/api/items/" + id + "/cover",
                        "/api/items/" + id + "/file/0"));
                goals.add("/feeds/" + id + ".xml");
            }
        }

        List<String> targets = BoundaryCorpus.targets(starts, goals);
        BoundaryCheck.Result result = BoundaryCheck.run(stack.nginx.port(), targets, callers, secrets);
        System.out.println("sample: " + result.summary(0));
        assertTrue(result.findings().isEmpty(), "sample: " + result.summary(20));
        assertTrue(result.serverErrors().isEmpty(), "sample: " + result.summary(20));
    }

    private static RawHttp.Response login(int port, String contentType, String body) {
        StringBuilder raw = new StringBuilder("POST /api/login HTTP/1.1\r\nHost: localhost\r\n");
        if (contentType != null) {
            raw.append("Content-Type: ").append(contentType).append("\r\n");
        }
        raw.append("Content-Length: ").append(body.length()).append("\r\nConnection: close\r\n\r\n").append(body);
        return RawHttp.send(port, "POST", raw.toString().getBytes(StandardCharsets.ISO_8859_1));
    }

    @Test
    void malformedLoginsAre4xxAndOneLogLineAtMost() throws Exception {
        int logged = stack.tomcat.log().length();
        for (int port : List.of(stack.nginx.port(), stack.tomcat.httpPort())) {
            assertEquals(415, login(port, null, "").status(), "no Content-Type, empty");
            assertEquals(415, login(port, "application/x-www-form-urlencoded; charset=bogus",
                    "user=demo&password=demo").status(), "bogus charset");
            assertEquals(400, login(port, "application/x-www-form-urlencoded", "user=%zz&password=%").status(),
                    "bad percent-encoding");
            assertEquals(400, login(port, "application/x-www-form-urlencoded", "user=%C3%28&password=x").status(),
                    "not UTF-8");
            assertEquals(413, login(port, "application/x-www-form-urlencoded", "user=" + "a".repeat(9000))
                    .status(), "oversized");
            RawHttp.Response ok = login(port, "application/x-www-form-urlencoded; charset=UTF-8",
                    "user=demo&password=demo");
            assertEquals(200, ok.status(), ok.bodyText());
        }
        String log = stack.tomcat.log().substring(logged);
        assertFalse(log.contains("SEVERE"), log);
        assertFalse(log.contains("IllegalStateException"), log);
        assertTrue(count(log, "Refused a malformed form post") <= 1, log);
    }

    @Test
    void noEndpointAnswersMalformedRequestsWithA5xxOrAPath() throws Exception {
        int logged = stack.tomcat.log().length();
        String demo = stack.bearer("demo", "demo");
        String logoutToken = stack.bearer("demo", "demo");
        Map<String, String> auth = Map.of("Authorization", demo);
        HttpResponse<byte[]> items = http.get(stack.url("/api/items"), "Authorization", demo);
        String cover = Http.array(items).getJsonObject(0).getString("cover");
        String file = Http.array(items).getJsonObject(0).getJsonArray("files").getJsonObject(0).getString("library");
        String id = Http.array(items).getJsonObject(0).getString("id");
        HttpResponse<byte[]> feedToken = http.post(stack.url("/api/feed-token"), "", "Authorization", demo);
        String feed = "/feeds/" + id + ".xml?token=" + Http.object(feedToken).getString("token");
        Element channel = FeedXml.channel(FeedXml.parse(http.get(stack.url(feed)).body()));
        String enclosure = FeedXml.child(FeedXml.children(channel, null, "item").get(0), null, "enclosure")
                .getAttribute("url").substring(stack.url("").length());
        List<Endpoint> endpoints = new ArrayList<>(List.of(Endpoint.of("GET", "/"),
                Endpoint.of("GET", "/index.html"), Endpoint.of("GET", "/assets/app.js"),
                Endpoint.of("POST", "/api/login"), new Endpoint("GET", "/api/me", auth), Endpoint.of("GET", "/api/me"),
                new Endpoint("GET", "/api/items", auth), new Endpoint("GET", "/api/items/" + id, auth),
                new Endpoint("GET", "/api/items/" + id + "/cover", auth),
                new Endpoint("GET", "/api/items/" + id + "/author-picture", auth),
                new Endpoint("GET", "/api/items/" + id + "/file/0", auth),
                new Endpoint("GET", "/api/items/" + id + "/file/0?download=true", auth),
                new Endpoint("GET", "/api/stats", auth), new Endpoint("GET", "/api/feed-token", auth),
                new Endpoint("POST", "/api/feed-token", auth), new Endpoint("GET", file, auth),
                Endpoint.of("GET", file), Endpoint.of("GET", cover), Endpoint.of("GET", feed),
                Endpoint.of("GET", enclosure),
                new Endpoint("POST", "/api/logout", Map.of("Authorization", logoutToken))));
        // revoking a feed token last, ops's own: the requests run in parallel, and the feed's would fail otherwise
        List<Endpoint> last = List.of(new Endpoint("DELETE", "/api/feed-token",
                Map.of("Authorization", stack.bearer("ops", "ops"))));
        MalformedSweep sweep = new MalformedSweep(List.of(stack.library.toString(),
                stack.tomcat.base().toString(), stack.tomcat.home().toString(), stack.linkSecret));
        MalformedSweep.Result viaNginx = sweep.run(stack.nginx.port(), endpoints);
        MalformedSweep.Result direct = sweep.run(stack.tomcat.httpPort(), endpoints);
        MalformedSweep.Result lastViaNginx = sweep.run(stack.nginx.port(), last);
        MalformedSweep.Result lastDirect = sweep.run(stack.tomcat.httpPort(), last);
        System.out.println("sample-webapp malformed sweep: " + (endpoints.size() + last.size()) + " endpoints, "
                + (viaNginx.requests() + lastViaNginx.requests()) + " requests through nginx " + viaNginx.statuses()
                + ", " + (direct.requests() + lastDirect.requests()) + " to Tomcat " + direct.statuses() + "; slowest "
                + viaNginx.slowest() + direct.slowest());
        assertTrue(viaNginx.findings().isEmpty(), "through nginx: " + viaNginx.findings());
        assertTrue(direct.findings().isEmpty(), "directly: " + direct.findings());
        assertTrue(lastViaNginx.findings().isEmpty(), "through nginx: " + lastViaNginx.findings());
        assertTrue(lastDirect.findings().isEmpty(), "directly: " + lastDirect.findings());
        String log = stack.tomcat.log().substring(logged);
        assertFalse(log.contains("SEVERE"), log);
        assertTrue(count(log, "Refused a malformed form post") <= 1, log);
    }

    private static int count(String text, String what) {
        int n = 0;
        for (int i = text.indexOf(what); i >= 0; i = text.indexOf(what, i + 1)) {
            n++;
        }
        return n;
    }
}
