package dev.xaccel.filter;

import dev.xaccel.testsupport.CloseAll;
import dev.xaccel.testsupport.media.MediaFixture;
import dev.xaccel.testsupport.nginx.DocsNginx;
import dev.xaccel.testsupport.servlet.SuiteApp;

import dev.xaccel.testsupport.RawHttp;
import dev.xaccel.testsupport.TestPaths;
import dev.xaccel.testsupport.nginx.NginxServer;
import dev.xaccel.testsupport.tomcat.EmbeddedTomcat;
import static dev.xaccel.testsupport.media.MediaFixture.encodePath;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Layer 2 against real nginx: docs/nginx/xaccel-cached-auth.conf.template in front of an application with
 * per-user authorization ({@link UsersAuthFilter}, {@link OwnedFileServlet} at {@code /covers/*}) and the
 * filter configured with {@code locations = MEDIA/ => /_xaccel/media/ expires=2}.
 * Every test uses its own URIs (a {@code t=} query), so the decision cache never carries state between them.
 */
class CachedAuthIT {

    static final String FULL_KEY =
            "proxy_cache_key          \"$host$request_uri|$cookie_JSESSIONID|$http_authorization"
                    + "|$cookie_remember_me\";";
    static final int TTL = 2;

    private static final AtomicInteger IDS = new AtomicInteger();

    static Path media;
    static byte[] aliceCover;
    static byte[] bobCover;
    static byte[] awkward;
    static final String AWKWARD = "alice/Cover Art #1 \u00fc 50%.jpg";
    static final String QUESTION = "alice/q?x.jpg";
    static byte[] question;
    static UsersAuthFilter auth;
    static OwnedFileServlet servlet;
    static EmbeddedTomcat tomcat;
    static NginxServer nginx;

    @BeforeAll
    static void start() throws Exception {
        Path dir = TestPaths.freshDir("e2e-cachedauth");
        media = Files.createDirectories(dir.resolve("media"));
        Files.createDirectories(media.resolve("alice"));
        Files.createDirectories(media.resolve("bob"));
        aliceCover = MediaFixture.randomBytes(new Random(1), 50 * 1024);
        bobCover = MediaFixture.randomBytes(new Random(2), 50 * 1024);
        awkward = MediaFixture.randomBytes(new Random(3), 3000);
        Files.write(media.resolve("alice/cover.jpg"), aliceCover);
        Files.write(media.resolve("bob/cover.jpg"), bobCover);
        Files.write(media.resolve(AWKWARD), awkward);
        question = MediaFixture.randomBytes(new Random(4), 2000);
        Files.write(media.resolve(QUESTION), question);
        Files.write(media.resolve("alice/q"), MediaFixture.randomBytes(new Random(5), 2000));
        Files.writeString(media.resolve("alice/typed.xat"), "typed\n", StandardCharsets.UTF_8);
        auth = new UsersAuthFilter();
        servlet = new OwnedFileServlet(media);
        tomcat = EmbeddedTomcat.start("cachedauth", SuiteApp.app(auth)
                .xaccelFilter(Map.of("locations", media + "/ => /_xaccel/media/ expires=" + TTL,
                        "jmxName", "none"))
                .servlet("/covers/*", servlet));
        nginx = startNginx("cachedauth", template());
    }

    @AfterAll
    static void stop() {
        CloseAll.of(nginx, tomcat);
    }

    static String template() throws IOException {
        return DocsNginx.text(DocsNginx.CACHED_TEMPLATE);
    }

    static NginxServer startNginx(String suite, String template) throws IOException {
        return DocsNginx.start(suite, template, Map.of("PUBLIC_PREFIX", "/covers/"), tomcat.port(), media);
    }

    /** A URI of its own for {@code file} (the {@code t=} parameter makes a distinct cache key). */
    static String uri(String file) {
        return "/covers/" + encodePath(file) + "?t=" + IDS.incrementAndGet();
    }

    static RawHttp.Response get(NginxServer server, String target, String... headers) {
        RawHttp.Request r = RawHttp.get(target);
        for (int i = 0; i < headers.length; i += 2) {
            r.header(headers[i], headers[i + 1]);
        }
        return r.send(server.port());
    }

    static RawHttp.Response alice(String target, String... more) {
        return get(nginx, target, concat("Authorization", UsersAuthFilter.ALICE_BEARER, more));
    }

    static String[] concat(String a, String b, String... more) {
        String[] all = new String[more.length + 2];
        all[0] = a;
        all[1] = b;
        System.arraycopy(more, 0, all, 2, more.length);
        return all;
    }

    static void assertNoFileBytes(RawHttp.Response r, byte[] content) {
        byte[] probe = Arrays.copyOfRange(content, 100, 132);
        assertEquals(-1, RawHttp.indexOf(r.raw(), probe, 0), "file bytes leaked: " + r);
    }

    // ------------------------------------------------------------------ what the filter answers

    @Test
    void offloadedDecisionCarriesExpiresAndVaryButNeverWithSetCookie() {
        RawHttp.Response r = RawHttp.get("/covers/alice/cover.jpg")
                .header("Authorization", UsersAuthFilter.ALICE_BEARER)
                .header("X-Sendfile-Type", "X-Accel-Redirect").send(tomcat.port());
        assertEquals(200, r.status(), r.toString());
        assertEquals("/_xaccel/media/alice/cover.jpg", r.header("X-Accel-Redirect"));
        assertEquals(String.valueOf(TTL), r.header("X-Accel-Expires"));
        assertEquals(List.of("Cookie, Authorization"), r.headers("Vary"));
        assertEquals("0", r.header("Content-Length"));
        RawHttp.Response cookie = RawHttp.get("/covers/alice/cover.jpg?cookie=1")
                .header("Authorization", UsersAuthFilter.ALICE_BEARER)
                .header("X-Sendfile-Type", "X-Accel-Redirect").send(tomcat.port());
        assertTrue(cookie.header("Set-Cookie").startsWith("seen=1"), cookie.toString());
        assertEquals("0", cookie.header("X-Accel-Expires"), "a response setting a cookie must not be cached");
        assertNull(cookie.header("Vary"), cookie.toString());
    }

    // ------------------------------------------------------------------ through nginx

    @Test
    void repeatsAreServedFromTheDecisionCacheWithCorrectBytes() {
        String target = uri("alice/cover.jpg");
        RawHttp.Response first = alice(target);
        assertEquals(200, first.status(), first.toString());
        assertArrayEquals(aliceCover, first.body());
        int before = auth.requests();
        for (int i = 0; i < 50; i++) {
            RawHttp.Response r = alice(target);
            assertEquals(200, r.status(), r.toString());
            assertArrayEquals(aliceCover, r.body());
            assertEquals("image/jpeg", r.header("Content-Type"));
            assertEquals(1, r.headers("Content-Type").size(), r.toString());
        }
        int backend = auth.requests() - before;
        // The decision lives TTL seconds; 50 loopback requests take far less, allow one refresh.
        assertTrue(backend <= 1, "backend requests for 50 repeats: " + backend);
    }

    @Test
    void rangeAndHeadOnCachedHits() {
        String target = uri("alice/cover.jpg");
        assertEquals(200, alice(target).status());
        int before = auth.requests();
        RawHttp.Response range = alice(target, "Range", "bytes=100-1099");
        assertEquals(206, range.status(), range.toString());
        assertEquals("bytes 100-1099/" + aliceCover.length, range.header("Content-Range"));
        assertArrayEquals(Arrays.copyOfRange(aliceCover, 100, 1100), range.body());
        RawHttp.Response suffix = alice(target, "Range", "bytes=-10");
        assertArrayEquals(Arrays.copyOfRange(aliceCover, aliceCover.length - 10, aliceCover.length), suffix.body());
        RawHttp.Response head = RawHttp.head(target).header("Authorization", UsersAuthFilter.ALICE_BEARER)
                .send(nginx.port());
        assertEquals(200, head.status(), head.toString());
        assertEquals(String.valueOf(aliceCover.length), head.header("Content-Length"));
        assertEquals(0, head.body().length);
        assertEquals("image/jpeg", head.header("Content-Type"));
        // max_ranges 1: a multi-range request gets the whole file with exactly one Content-Type.
        RawHttp.Response multi = alice(target, "Range", "bytes=0-9,20-29");
        assertEquals(200, multi.status(), multi.toString());
        assertEquals(List.of("image/jpeg"), multi.headers("Content-Type"));
        assertArrayEquals(aliceCover, multi.body());
        assertTrue(auth.requests() - before <= 1, "backend requests: " + (auth.requests() - before));
    }

    @Test
    void anotherUserAndAnonymousNeverGetTheFile() {
        String target = uri("alice/cover.jpg");
        assertEquals(200, alice(target).status());
        for (int round = 0; round < 2; round++) {
            RawHttp.Response bob = get(nginx, target, "Authorization", UsersAuthFilter.BOB_BEARER);
            assertEquals(403, bob.status(), bob.toString());
            assertNoFileBytes(bob, aliceCover);
            RawHttp.Response bobRemembered = get(nginx, target, "Cookie",
                    "remember_me=" + UsersAuthFilter.BOB_REMEMBER);
            assertEquals(403, bobRemembered.status(), bobRemembered.toString());
            assertNoFileBytes(bobRemembered, aliceCover);
            RawHttp.Response anonymous = get(nginx, target);
            assertEquals(401, anonymous.status(), anonymous.toString());
            assertEquals("Bearer realm=\"xaccel-test\"", anonymous.header("WWW-Authenticate"));
            assertNoFileBytes(anonymous, aliceCover);
            RawHttp.Response aliceBySession = get(nginx, target, "Cookie",
                    "JSESSIONID=" + UsersAuthFilter.ALICE_SESSION);
            assertArrayEquals(aliceCover, aliceBySession.body());
            assertArrayEquals(aliceCover, alice(target).body());
        }
        RawHttp.Response bobOwn = get(nginx, uri("bob/cover.jpg"), "Authorization", UsersAuthFilter.BOB_BEARER);
        assertArrayEquals(bobCover, bobOwn.body());
    }

    @Test
    void revocationTakesEffectAfterTheTtl() throws InterruptedException {
        String target = uri("alice/cover.jpg");
        assertEquals(200, alice(target).status());
        servlet.revoke("alice");
        try {
            long revokedAt = System.nanoTime();
            assertEquals(200, alice(target).status(), "within the TTL the cached decision is still used");
            assertEquals(403, alice(uri("alice/cover.jpg")).status(), "an uncached URI is decided anew");
            int status;
            do {
                Thread.sleep(100);
                status = alice(target).status();
            } while (status == 200 && System.nanoTime() - revokedAt < (TTL + 3) * 1_000_000_000L);
            double seconds = (System.nanoTime() - revokedAt) / 1e9;
            assertEquals(403, status, "still allowed " + seconds + " s after revocation");
            assertTrue(seconds <= TTL + 1.5, "revocation took " + seconds + " s with a TTL of " + TTL + " s");
        } finally {
            servlet.restore("alice");
        }
    }

    @Test
    void aResponseThatSetsACookieIsNeverCached() {
        String target = uri("alice/cover.jpg") + "&cookie=1";
        int before = auth.requests();
        for (int i = 0; i < 3; i++) {
            RawHttp.Response r = alice(target);
            assertArrayEquals(aliceCover, r.body());
            assertEquals(List.of("seen=1"), r.headers("Set-Cookie"), "the cookie reaches its own client: " + r);
        }
        assertEquals(3, auth.requests() - before, "every request must reach the application");
        RawHttp.Response bob = get(nginx, target, "Authorization", UsersAuthFilter.BOB_BEARER);
        assertEquals(403, bob.status());
        assertTrue(bob.headers("Set-Cookie").isEmpty(), "alice's cookie replayed to bob: " + bob);
    }

    @Test
    void contentTypeAndDispositionAreTheApplications() {
        String target = uri("alice/typed.xat");
        for (int i = 0; i < 2; i++) {
            RawHttp.Response r = alice(target);
            assertEquals(List.of("application/x-xaccel-test"), r.headers("Content-Type"), r.toString());
            assertEquals("typed\n", r.bodyText());
        }
        RawHttp.Response download = alice(uri("alice/cover.jpg") + "&download=1");
        assertTrue(download.header("Content-Disposition").startsWith("attachment"), download.toString());
    }

    @Test
    void awkwardNamesStayOnTheCachedPath() {
        String target = uri(AWKWARD);
        RawHttp.Response first = alice(target);
        assertEquals(200, first.status(), first.toString());
        assertArrayEquals(awkward, first.body());
        int before = auth.requests();
        RawHttp.Response again = alice(target);
        assertEquals(200, again.status(), again.toString());
        assertArrayEquals(awkward, again.body());
        assertEquals(0, auth.requests() - before, "the decision came from the cache");
        RawHttp.Response bob = get(nginx, target, "Authorization", UsersAuthFilter.BOB_BEARER);
        assertEquals(403, bob.status(), bob.toString());
        assertNoFileBytes(bob, awkward);
    }

    /** try_files ends a path at a raw '?': such a name must never serve the file named by its prefix. */
    @Test
    void aNameWithAQuestionMarkTakesThePlainOffloadPathAndNeverItsPrefix() {
        for (int i = 0; i < 2; i++) {
            RawHttp.Response r = alice(uri(QUESTION));
            assertEquals(200, r.status(), r.toString());
            assertArrayEquals(question, r.body(), "the file itself, not alice/q");
        }
    }

    @Test
    void aMissingFileGetsTheApplications404() {
        RawHttp.Response r = alice(uri("alice/missing.jpg"));
        assertEquals(404, r.status(), r.toString());
    }

    @Test
    void decisionsReuseOneUpstreamConnection() {
        alice(uri("alice/cover.jpg"));
        int from = auth.remotePorts().size();
        for (int i = 0; i < 8; i++) {
            assertEquals(200, alice(uri("alice/cover.jpg")).status());
        }
        List<Integer> ports = auth.remotePorts();
        List<Integer> used = ports.subList(from, ports.size());
        assertEquals(8, used.size(), used.toString());
        assertEquals(1, new HashSet<>(used).size(), "upstream connections for 8 decisions: " + used);
    }

    @Test
    void aClientCannotReachTheInternalLocations() {
        for (String path : List.of("/_xaccel_auth", "/_xaccel_cached", "/_xaccel_cached/_xaccel/media/alice/cover.jpg",
                "/_xaccel/media/alice/cover.jpg")) {
            RawHttp.Response r = get(nginx, path, "Authorization", UsersAuthFilter.ALICE_BEARER);
            assertEquals(404, r.status(), path + " -> " + r);
            assertNoFileBytes(r, aliceCover);
        }
    }

    // ------------------------------------------------------------------ the Vary safety net

    @Test
    void aKeyWithoutTheAuthorizationHeaderStillDoesNotLeakThanksToVary() throws IOException {
        String template = template();
        assertTrue(template.contains(FULL_KEY), "template key changed: update the test");
        String incomplete = template.replace(FULL_KEY,
                "proxy_cache_key \"$host$request_uri|$cookie_JSESSIONID|$cookie_remember_me\";");
        try (NginxServer weak = startNginx("cachedauth-weakkey", incomplete)) {
            String target = uri("alice/cover.jpg");
            RawHttp.Response a = get(weak, target, "Authorization", UsersAuthFilter.ALICE_BEARER);
            assertArrayEquals(aliceCover, a.body());
            RawHttp.Response bob = get(weak, target, "Authorization", UsersAuthFilter.BOB_BEARER);
            assertEquals(403, bob.status(), bob.toString());
            assertNoFileBytes(bob, aliceCover);
            String target2 = uri("alice/cover.jpg");
            assertArrayEquals(aliceCover, get(weak, target2, "Authorization", UsersAuthFilter.ALICE_BEARER).body());
            RawHttp.Response anonymous = get(weak, target2);
            assertEquals(401, anonymous.status(), anonymous.toString());
            assertNoFileBytes(anonymous, aliceCover);
        }
    }

    /** Denials are not cached: a key that misses a credential cannot replay one caller's 401 to another. */
    @Test
    void aDenialIsNeverReplayedToACallerTheKeyCannotTellApart() throws IOException {
        String incomplete = template().replace(FULL_KEY,
                "proxy_cache_key \"$host$request_uri|$cookie_JSESSIONID|$cookie_remember_me\";");
        try (NginxServer weak = startNginx("cachedauth-denial", incomplete)) {
            String target = uri("alice/cover.jpg");
            RawHttp.Response anonymous = get(weak, target);
            assertEquals(401, anonymous.status(), anonymous.toString());
            RawHttp.Response a = get(weak, target, "Authorization", UsersAuthFilter.ALICE_BEARER);
            assertEquals(200, a.status(), "a cached 401 was replayed to alice: " + a);
            assertArrayEquals(aliceCover, a.body());
            String target2 = uri("bob/cover.jpg");
            assertEquals(403, get(weak, target2, "Authorization", UsersAuthFilter.ALICE_BEARER).status());
            RawHttp.Response b = get(weak, target2, "Authorization", UsersAuthFilter.BOB_BEARER);
            assertEquals(200, b.status(), "alice's cached 403 was replayed to bob: " + b);
            assertArrayEquals(bobCover, b.body());
        }
    }

    @Test
    void controlWithoutVaryTheIncompleteKeyLeaks() throws IOException {
        String incomplete = template().replace(FULL_KEY,
                "proxy_cache_key \"$host$request_uri|$cookie_JSESSIONID|$cookie_remember_me\";")
                .replace("proxy_ignore_headers     X-Accel-Redirect Cache-Control Expires;",
                        "proxy_ignore_headers     X-Accel-Redirect Cache-Control Expires Vary;");
        try (NginxServer leaky = startNginx("cachedauth-leaky", incomplete)) {
            String target = uri("alice/cover.jpg");
            assertArrayEquals(aliceCover, get(leaky, target, "Authorization", UsersAuthFilter.ALICE_BEARER).body());
            RawHttp.Response bob = get(leaky, target, "Authorization", UsersAuthFilter.BOB_BEARER);
            assertEquals(200, bob.status(), "nginx 1.22 ignoring Vary replays alice's decision to bob: " + bob);
            assertArrayEquals(aliceCover, bob.body(), "the pitfall the Vary net exists for");
        }
    }
}
