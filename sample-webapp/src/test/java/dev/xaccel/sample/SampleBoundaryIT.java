package dev.xaccel.sample;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.xaccel.sample.api.UrlPaths;
import dev.xaccel.sample.demolib.DemoLibrary;
import dev.xaccel.testsupport.RawHttp;
import dev.xaccel.testsupport.boundary.BoundaryCheck;
import dev.xaccel.testsupport.boundary.BoundaryCheck.Caller;
import dev.xaccel.testsupport.boundary.BoundaryCheck.Secret;
import dev.xaccel.testsupport.boundary.BoundaryCorpus;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Element;

/**
 * The differential test of the trust boundary for the sample as shipped (the Tomcat distribution, the WAR's
 * web.xml, sample-webapp/nginx/xaccel-demo.conf.template): request targets that start under every public and
 * protected location (the page, its assets, the login, the API, /library/, signed cover and author-picture links,
 * the podcast feeds with a feed token and their signed enclosure links, the internal locations) and aim at every
 * cover, author picture and chapter, spelled with path parameters, encoded and double-encoded
 * separators and dots, backslashes, overlong UTF-8, case and repeated slashes. Without credentials no response
 * may carry a byte of any of them (the sample lets every logged-in user read the whole library).
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
    }
}
