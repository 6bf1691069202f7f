package dev.xaccel.sample.boot;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.Arrays;
import java.util.Base64;

import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.http.ContentDisposition;

import dev.xaccel.testsupport.RawHttp;
import dev.xaccel.testsupport.nginx.NginxServer;

/**
 * The sample as ./demo-spring runs it: the generated demo library, the application on a random port, nginx from
 * the sample's own template in front. Downloads come back byte for byte with nothing sent by the application
 * (access log {@code ulen=0}); Spring Security's login comes first. nginx is xaccel-test-support's
 * {@link NginxServer} with the sample's template, {@code ${APP_PORT}} and {@code ${LIBRARY}} filled in.
 */
class LibraryNginxIT extends LibraryBehindNginx {

    @Autowired
    Catalog catalog;

    private static String demo() {
        return "Basic " + Base64.getEncoder().encodeToString("demo:demo".getBytes(StandardCharsets.UTF_8));
    }

    @Test
    void everyFileOfTheDemoLibraryComesFromNginx() throws Exception {
        assertThat(catalog.entries()).hasSize(DemoLibrary.FILES.size());
        for (Catalog.Entry e : catalog.entries()) {
            RawHttp.Response r = RawHttp.get("/files/" + e.id()).header("Authorization", demo())
                    .header("X-Request-Id", "sample-" + e.id()).send(nginx.port());
            assertThat(r.status()).as(e.path()).isEqualTo(200);
            assertThat(r.body()).as(e.path()).isEqualTo(Files.readAllBytes(catalog.file(e)));
            assertThat(ContentDisposition.parse(r.header("Content-Disposition")).getFilename()).as(e.path())
                    .isEqualTo(e.name());
        }
        String log = nginx.awaitAccessLogLine("sample-" + (catalog.entries().size() - 1));
        assertThat(log).contains("uri=\"/_xaccel/library/").contains("ulen=0 ");
    }

    @Test
    void seekingIsNginxs() {
        Catalog.Entry mp3 = catalog.entries().stream().filter(e -> e.path().endsWith(".mp3")).findFirst().orElseThrow();
        RawHttp.Response r = RawHttp.get("/files/" + mp3.id()).header("Authorization", demo())
                .header("Range", "bytes=1000-1999").send(nginx.port());
        assertThat(r.status()).isEqualTo(206);
        byte[] all = DemoLibrary.content(DemoLibrary.FILES.indexOf(mp3.path()));
        assertThat(r.body()).isEqualTo(Arrays.copyOfRange(all, 1000, 2000));
    }

    @Test
    void loginComesFirst() {
        RawHttp.Response r = RawHttp.get("/files/0").header("Accept", "text/html").send(nginx.port());
        assertThat(r.status()).isEqualTo(302);
        assertThat(r.header("Location")).endsWith("/login");
        assertThat(RawHttp.get("/login").send(nginx.port()).bodyText()).contains("<form");
        RawHttp.Response basic = RawHttp.get("/files/0").header("Authorization", "Basic ZGVtbzpub3Bl")
                .send(nginx.port());
        assertThat(basic.status()).isEqualTo(401);
        assertThat(RawHttp.get("/api/files").header("Authorization", demo()).send(nginx.port()).bodyText())
                .contains("\"path\":\"Readme.txt\"");
    }

    @Test
    void theInternalLocationIsNotPublic() {
        assertThat(RawHttp.get("/_xaccel/library/Readme.txt").header("Authorization", demo()).send(nginx.port())
                .status()).isEqualTo(404);
    }

    /**
     * Issue 22: {@code /actuator/info} told anonymous clients the data root's absolute path and the whole filter
     * configuration. Now it is for users only (only {@code health} is public), and even they see no configuration.
     */
    @Test
    void actuatorInfoTellsNoPathToAnybody() throws Exception {
        String root = library.getRoot().toRealPath().toString();
        for (int port : new int[] {nginx.port(), appPort}) {
            RawHttp.Response anonymous = RawHttp.get("/actuator/info").send(port);
            assertThat(anonymous.status()).as("anonymous, port %d", port).isEqualTo(401);
            assertNoPath(anonymous, root);
            assertThat(RawHttp.get("/actuator/health").send(port).status()).isEqualTo(200);
            RawHttp.Response user = RawHttp.get("/actuator/info").header("Authorization", demo()).send(port);
            assertThat(user.status()).isEqualTo(200);
            assertThat(user.bodyText()).contains("\"started\":true").contains("\"offloaded\":");
            assertNoPath(user, root);
        }
    }

    private static void assertNoPath(RawHttp.Response r, String root) {
        String all = new String(r.raw(), StandardCharsets.ISO_8859_1);
        String firstSegment = root.substring(0, root.indexOf('/', 1) + 1);
        assertThat(all).doesNotContain(root).doesNotContain(firstSegment).doesNotContain("configuration")
                .doesNotContain("locations=").doesNotContain("trustedProxies");
    }
}
