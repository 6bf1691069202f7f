package dev.xaccel.filter;

import dev.xaccel.testsupport.nginx.DocsNginx;
import dev.xaccel.testsupport.servlet.SuiteApp;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import dev.xaccel.testsupport.RawHttp;
import dev.xaccel.testsupport.TestPaths;
import dev.xaccel.testsupport.boundary.BoundaryCheck.Caller;
import dev.xaccel.testsupport.boundary.BoundaryCheck.Secret;
import dev.xaccel.testsupport.boundary.BoundaryCheck;
import dev.xaccel.testsupport.boundary.BoundaryCorpus;
import dev.xaccel.testsupport.nginx.NginxServer;
import dev.xaccel.testsupport.apache.ApacheFrontEnd;
import dev.xaccel.testsupport.caddy.CaddyFrontEnd;
import dev.xaccel.testsupport.frontend.FrontEnd;
import dev.xaccel.testsupport.frontend.ShippedFrontEnd;
import dev.xaccel.testsupport.lighttpd.LighttpdFrontEnd;
import dev.xaccel.testsupport.servlet.WebApp;
import dev.xaccel.testsupport.tomcat.EmbeddedTomcat;

import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The differential test of the trust boundary for each nginx config under docs/nginx/, as shipped: one
 * application with public assets, per-user files and a mapped shared folder behind each config, and a corpus of
 * request targets (path parameters, encoded and double-encoded separators and dots, backslashes, overlong UTF-8,
 * case, repeated slashes, ?/# encodings) that start under every public and protected location and aim at every
 * protected file. Sent with no credentials, as alice and as bob, no response may carry a byte of a file the
 * application denies that caller. The same for the other front ends' shipped configs (docs/apache, docs/lighttpd,
 * docs/caddy): Apache and lighttpd in front of the same application with {@code headerType=X-Sendfile}, Caddy in
 * front of the first one. No answer may be a 5xx either: a malformed or denied request gets a precise 4xx.
 */
class BoundaryIT {

    static final String SECRET = "boundary-it-secret-0123456789-abcdefghij-KLMNOP";

    /**
     * A store for the remote config: plain nginx serving a bucket directory to anyone, the worst store there is (no
     * signature checked), so any way a client could make the front end proxy to it would carry an object's bytes.
     */
    static final String OPEN_STORE = """
            worker_processes 1;
            pid logs/nginx.pid;
            error_log logs/error.log warn;
            events { worker_connections 64; }
            http {
                access_log off;
                client_body_temp_path tmp/client_body;
                proxy_temp_path tmp/proxy;
                fastcgi_temp_path tmp/fastcgi;
                uwsgi_temp_path tmp/uwsgi;
                scgi_temp_path tmp/scgi;
                server {
                    listen 127.0.0.1:${NGINX_PORT};
                    location /bucket/ { alias ${MEDIA_ROOT}/; }
                }
            }
            """;

    static Path media;
    static Path dir;
    static EmbeddedTomcat tomcat;
    static EmbeddedTomcat sendfileTomcat;
    static NginxServer store;
    static final Map<String, NginxServer> NGINX = new LinkedHashMap<>();
    static final Map<String, FrontEnd> FRONT_ENDS = new LinkedHashMap<>();
    static List<Secret> secrets;
    static String signedPublic;

    /** Public assets, like a site's static files: no credentials needed (the auth filter lets /assets/ pass). */
    static final class AssetServlet extends HttpServlet {
        private static final long serialVersionUID = 1L;

        @Override
        protected void doGet(HttpServletRequest req, HttpServletResponse resp) throws IOException {
            resp.setContentType("text/css");
            resp.getWriter().write("body { color: black }\n");
        }
    }

    @BeforeAll
    static void start() throws Exception {
        dir = TestPaths.freshDir("e2e-boundary");
        media = Files.createDirectories(dir.resolve("media")).toRealPath();
        byte[] alice = write("alice/secret a.jpg", 20_000);
        byte[] bob = write("bob/secret b.jpg", 20_000);
        byte[] shared = write("shared/common.jpg", 5_000);
        byte[] hidden = write(".hidden/key.txt", 2_000);
        write("public/pub.jpg", 3_000);
        byte[] outside = BoundaryCheck.uniqueContent("outside", 2_000);
        Files.createDirectories(dir.resolve("outside"));
        Files.write(dir.resolve("outside/canary.txt"), outside);
        Path bucket = Files.createDirectories(dir.resolve("bucket")).toRealPath();
        byte[] aliceObject = BoundaryCheck.uniqueContent("alice's object", 20_000);
        byte[] bobObject = BoundaryCheck.uniqueContent("bob's object", 20_000);
        Files.createDirectories(bucket.resolve("alice"));
        Files.createDirectories(bucket.resolve("bob"));
        Files.write(bucket.resolve("alice/object-a.bin"), aliceObject);
        Files.write(bucket.resolve("bob/object-b.bin"), bobObject);
        store = DocsNginx.start("boundary-store", OPEN_STORE, Map.of(), 0, bucket);
        secrets = List.of(new Secret("alice's file", alice, Set.of("alice")),
                new Secret("alice's object", aliceObject, Set.of("alice")),
                new Secret("bob's object", bobObject, Set.of("bob")),
                new Secret("bob's file", bob, Set.of("bob")),
                new Secret("the shared folder", shared, Set.of("alice", "bob")),
                new Secret("a hidden file", hidden, Set.of()),
                new Secret("a file outside the root", outside, Set.of()));

        Map<String, String> params = new LinkedHashMap<>();
        // expires= matters only to the cached-decision config (the others never cache)
        params.put("locations", media + "/ => /_xaccel/media/ expires=60");
        params.put("mappings", "/library/ => " + media.resolve("shared") + "/");
        params.put("signedLinkSecret", SECRET);
        params.put("signedLinkPrefix", "/s/media/");
        params.put("jmxName", "none");
        params.put("remoteOrigins", storeOrigin());
        // the Unix-socket config reaches the same application over its socket file (UnixSocketOffloadIT)
        params.put("trustedProxies", "127.0.0.0/8, ::1, unix");
        tomcat = EmbeddedTomcat.start("boundary", app(params));
        Path socket = dir.resolve("app.sock");
        org.apache.catalina.connector.Connector unix = new org.apache.catalina.connector.Connector(
                "org.apache.coyote.http11.Http11NioProtocol");
        unix.setProperty("unixDomainSocketPath", socket.toString());
        unix.setProperty("unixDomainSocketPathPermissions", "rw-rw-rw-"); // nginx's workers may be nobody here
        tomcat.tomcat().getService().addConnector(unix);
        Map<String, String> sendfile = new LinkedHashMap<>(params);
        sendfile.put("headerType", "X-Sendfile");
        sendfileTomcat = EmbeddedTomcat.start("boundary-sendfile", app(sendfile));
        signedPublic = SignedLinks.create(SECRET, "/s/media/", java.time.Duration.ofHours(1)).sign("public/pub.jpg");
        for (String template : List.of(DocsNginx.TEMPLATE, DocsNginx.CACHED_TEMPLATE,
                SignedLinksIT.TEMPLATE, ShippedNginxConfigTest.REMOTE_TEMPLATE, UnixSocketOffloadIT.TEMPLATE)) {
            NGINX.put(template, DocsNginx.start("boundary-" + NGINX.size(), DocsNginx.text(template),
                    Map.of("PUBLIC_PREFIX", "/covers/", "LINK_SECRET", SECRET, "REMOTE_ORIGIN", storeOrigin(),
                            "REMOTE_SERVER", "127.0.0.1:" + store.port(),
                            "CA_CERTIFICATES", "/etc/ssl/certs/ca-certificates.crt",
                            "TOMCAT_SOCKET", socket.toString()), tomcat.port(), media));
        }
        for (ShippedFrontEnd fe : List.of(new ApacheFrontEnd(), new LighttpdFrontEnd(), new CaddyFrontEnd())) {
            EmbeddedTomcat behind = fe.offloadHeader().equals("X-Sendfile") ? sendfileTomcat : tomcat;
            FRONT_ENDS.put(fe.name(), fe.start("boundary", behind.port(), media));
        }
    }

    /** The application: covers per user, a mapped shared folder, public assets. */
    static WebApp app(Map<String, String> params) {
        return SuiteApp.app(new UsersAuthFilter(List.of("/assets/")))
                .xaccelFilter(params)
                .servlet("/covers/*", new OwnedFileServlet(media))
                .servlet("/assets/*", new AssetServlet())
                .servlet("/remote/*", new OwnedFileServlet(media, java.net.URI.create(storeOrigin() + "/bucket/")));
    }

    static byte[] write(String name, int size) throws IOException {
        Path file = media.resolve(name);
        Files.createDirectories(file.getParent());
        byte[] content = BoundaryCheck.uniqueContent(name, size);
        Files.write(file, content);
        return content;
    }

    @AfterAll
    static void stop() {
        try {
            NGINX.values().forEach(NginxServer::close);
            FRONT_ENDS.values().forEach(FrontEnd::close);
        } finally {
            if (tomcat != null) {
                tomcat.close();
            }
            if (sendfileTomcat != null) {
                sendfileTomcat.close();
            }
            if (store != null) {
                store.close();
            }
        }
    }

    static final List<Caller> CALLERS = List.of(Caller.anonymous(),
            new Caller("alice", Map.of("Authorization", UsersAuthFilter.ALICE_BEARER)),
            new Caller("bob", Map.of("Cookie", "JSESSIONID=bob-session")));

    /** Every public and protected location of the three configs (internal ones too). */
    static List<String> starts() {
        return List.of("/", "/assets/app.css", "/assets/", "/covers/alice/secret%20a.jpg", "/covers/bob/",
                "/library/common.jpg", signedPublic, "/sb/media/public/pub.jpg", "/_xaccel/media/public/pub.jpg",
                "/_xaccel_cached/_xaccel/media/", "/_xaccel_auth", "/_xaccel_cached", "/remote/alice/object-a.bin",
                "/_xaccel/remote/http/127.0.0.1:" + store.port() + "/bucket/alice/");
    }

    static String storeOrigin() {
        return "http://127.0.0.1:" + store.port();
    }

    /** Every protected file and object, by the URLs that name it (public, internal, signed, out of the root). */
    static List<String> goals() {
        List<String> goals = new java.util.ArrayList<>(GOALS);
        goals.addAll(List.of("/remote/alice/object-a.bin", "/remote/bob/object-b.bin",
                "/_xaccel/remote/http/127.0.0.1:" + store.port() + "/bucket/bob/object-b.bin"));
        return goals;
    }

    private static final List<String> GOALS = List.of("/covers/alice/secret%20a.jpg", "/covers/bob/secret%20b.jpg",
            "/library/common.jpg", "/_xaccel/media/alice/secret%20a.jpg",
            "/_xaccel_cached/_xaccel/media/bob/secret%20b.jpg", "/s/media/alice/secret%20a.jpg",
            "/covers/.hidden/key.txt", "/library/../.hidden/key.txt", "/library/../../outside/canary.txt");

    @ParameterizedTest
    @ValueSource(strings = {DocsNginx.TEMPLATE, DocsNginx.CACHED_TEMPLATE, SignedLinksIT.TEMPLATE,
            ShippedNginxConfigTest.REMOTE_TEMPLATE, UnixSocketOffloadIT.TEMPLATE})
    void noResponseCarriesAFileTheApplicationDeniesTheCaller(String template) throws Exception {
        check(template, NGINX.get(template).port());
    }

    @ParameterizedTest
    @ValueSource(strings = {"apache", "lighttpd", "caddy"})
    void noResponseThroughTheOtherFrontEndsCarriesAFileTheApplicationDeniesTheCaller(String frontEnd)
            throws Exception {
        check(frontEnd, FRONT_ENDS.get(frontEnd).port());
    }

    private static void check(String config, int port) throws Exception {
        // the setup works: each user gets their own file through this config
        RawHttp.Response own = RawHttp.get("/covers/alice/secret%20a.jpg")
                .header("Authorization", UsersAuthFilter.ALICE_BEARER).send(port);
        assertEquals(200, own.status(), config + ": " + own);
        assertArrayEquals(secrets.get(0).content(), own.body(), config + ": alice gets her file");
        assertEquals(200, RawHttp.get("/library/common.jpg").header("Cookie", "JSESSIONID=bob-session")
                .send(port).status());
        if (config.equals(ShippedNginxConfigTest.REMOTE_TEMPLATE)) {
            RawHttp.Response object = RawHttp.get("/remote/alice/object-a.bin")
                    .header("Authorization", UsersAuthFilter.ALICE_BEARER).send(port);
            assertEquals(200, object.status(), object.toString());
            assertEquals(20_000, object.body().length);
        }
        List<String> targets = BoundaryCorpus.targets(starts(), goals());
        BoundaryCheck.Result result = BoundaryCheck.run(port, targets, CALLERS, secrets);
        System.out.println(config + ": " + result.summary(0));
        assertTrue(result.findings().isEmpty(), config + ": " + result.summary(20));
        // malformed input gets a 4xx: no 5xx from the front end, the filter or the application behind them
        assertTrue(result.serverErrors().isEmpty(), config + ": " + result.summary(20));
    }
}
