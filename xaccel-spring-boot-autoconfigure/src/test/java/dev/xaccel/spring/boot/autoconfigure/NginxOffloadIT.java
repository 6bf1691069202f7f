package dev.xaccel.spring.boot.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import io.micrometer.core.instrument.MeterRegistry;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.http.ContentDisposition;

import dev.xaccel.filter.SignedLinks;
import dev.xaccel.spring.boot.autoconfigure.app.FilesController;
import dev.xaccel.spring.boot.autoconfigure.app.TestMedia;
import dev.xaccel.testsupport.RawHttp;
import dev.xaccel.testsupport.malformed.MalformedSweep;
import dev.xaccel.testsupport.malformed.MalformedSweep.Endpoint;
import dev.xaccel.testsupport.nginx.DocsNginx;
import dev.xaccel.testsupport.nginx.NginxServer;

/**
 * The starter behind a real nginx, configured from the shipped {@code docs/nginx/xaccel.conf.template}: plain
 * Spring MVC answers ({@code ResponseEntity<Resource>} and friends) come back byte for byte while the
 * application sent no byte of them (nginx's access log: the internal location, {@code ulen=0}); Spring Security
 * decides first; what is not a file, or not 2xx, is Spring's.
 */
class NginxOffloadIT extends LibraryAppTestBase {

    private NginxServer nginx;

    @Autowired
    MeterRegistry meters;

    @Autowired
    SignedLinks signedLinks;

    @BeforeAll
    void startNginx() throws Exception {
        nginx = DocsNginx.start("boot-it", tomcatPort, MEDIA.toRealPath());
    }

    @AfterAll
    void stopNginx() {
        if (nginx != null) {
            nginx.close();
        }
    }

    private RawHttp.Response viaNginx(RawHttp.Request request, String requestId) {
        return request.header("X-Request-Id", requestId).send(nginx.port());
    }

    private static String rid() {
        return UUID.randomUUID().toString();
    }

    @Test
    void awkwardNamesComeBackByteForByteAndNoByteWentThroughTheApplication() {
        assertThat(TestMedia.longestNameBytes()).isGreaterThan(200);
        for (int i = 0; i < TestMedia.NAMES.size(); i++) {
            String id = rid();
            RawHttp.Response r = viaNginx(get("/files/" + i, "reader"), id);
            String name = TestMedia.NAMES.get(i);
            assertThat(r.status()).as(name).isEqualTo(200);
            assertThat(r.body()).as(name).isEqualTo(TestMedia.content(i));
            assertThat(r.header("Content-Type")).as(name).isEqualTo("application/x-test-" + i);
            ContentDisposition cd = ContentDisposition.parse(r.header("Content-Disposition"));
            assertThat(cd.isAttachment()).as(name).isTrue();
            assertThat(cd.getFilename()).as(name).isEqualTo(TestMedia.fileName(i));
            // nginx does not carry the application's other headers across the internal redirect (X-Library is
            // sent; DirectDeliveryIT sees it): only Content-Type, Content-Disposition, Cache-Control, Set-Cookie, ...
            assertThat(r.header("X-Accel-Redirect")).as(name).isNull();
            String line = nginx.awaitAccessLogLine(id);
            assertThat(line).as(name).contains("uri=\"/_xaccel/media/").contains("ustatus=200").contains("ulen=0 ");
        }
        // ASCII names show up in the log as nginx decoded them: exactly the file on disk
        String id = rid();
        viaNginx(get("/files/1", "reader"), id);
        assertThat(nginx.awaitAccessLogLine(id)).contains("uri=\"/_xaccel/media/hash#tag.bin\"");
    }

    /** A controller returning an XAccelFile with its own settings: nginx applies them; the header level direct. */
    @Test
    void aControllersXAccelFileCarriesItsOwnNginxSettings() {
        RawHttp.Response r = viaNginx(get("/xaccel-settings/5", "reader"), rid());
        assertThat(r.status()).isEqualTo(200);
        assertThat(r.header("Content-Type")).isEqualTo("text/plain; charset=utf-8");
        assertThat(r.body()).isEqualTo(TestMedia.content(5));

        RawHttp.Response decision = get("/xaccel-settings/5", "reader").header("X-Sendfile-Type", "X-Accel-Redirect")
                .send(tomcatPort);
        assertThat(decision.header("X-Accel-Redirect")).startsWith("/_xaccel/media/");
        assertThat(decision.header("X-Accel-Limit-Rate")).isEqualTo("65536");
        assertThat(decision.header("X-Accel-Charset")).isEqualTo("utf-8");
        assertThat(decision.header("X-Accel-Expires")).isEqualTo("0");
        assertThat(decision.header("X-Accel-Buffering")).as("nginx ignores it on an offload answer").isNull();
    }

    @Test
    void rangeIsNginxs() {
        String id = rid();
        RawHttp.Response r = viaNginx(get("/files/3", "reader").header("Range", "bytes=100-1099"), id);
        assertThat(r.status()).isEqualTo(206);
        assertThat(r.header("Content-Range")).isEqualTo("bytes 100-1099/" + TestMedia.content(3).length);
        assertThat(r.body()).isEqualTo(Arrays.copyOfRange(TestMedia.content(3), 100, 1100));
        assertThat(nginx.awaitAccessLogLine(id)).contains("ulen=0 ");
    }

    @Test
    void headIsNginxsToo() {
        RawHttp.Response r = viaNginx(RawHttp.head("/files/2").header("Authorization", basic("reader")), rid());
        assertThat(r.status()).isEqualTo(200);
        assertThat(r.header("Content-Length")).isEqualTo(Integer.toString(TestMedia.content(2).length));
        assertThat(r.body()).isEmpty();
    }

    @Test
    void springSecurityDecidesFirstAndNoByteOfTheFileLeaks() {
        byte[] head = Arrays.copyOf(TestMedia.content(0), 64);
        String anonymous = rid();
        RawHttp.Response r = viaNginx(get("/files/0", null), anonymous);
        assertThat(r.status()).isEqualTo(401);
        assertThat(RawHttp.indexOf(r.raw(), head, 0)).isNegative();
        assertThat(nginx.awaitAccessLogLine(anonymous)).contains("uri=\"/files/0\"").doesNotContain("_xaccel");

        String wrongPassword = rid();
        r = viaNginx(get("/files/0", null).header("Authorization", "Basic cmVhZGVyOndyb25n"), wrongPassword);
        assertThat(r.status()).isEqualTo(401);
        assertThat(RawHttp.indexOf(r.raw(), head, 0)).isNegative();

        String forbidden = rid();
        r = viaNginx(get("/admin/files/0", "reader"), forbidden);
        assertThat(r.status()).isEqualTo(403);
        assertThat(RawHttp.indexOf(r.raw(), head, 0)).isNegative();
        assertThat(nginx.awaitAccessLogLine(forbidden)).doesNotContain("_xaccel");

        r = viaNginx(get("/admin/files/0", "admin"), rid());
        assertThat(r.status()).isEqualTo(200);
        assertThat(r.body()).isEqualTo(TestMedia.content(0));
    }

    @Test
    void theInternalLocationIsNotReachableDirectly() {
        RawHttp.Response r = viaNginx(get("/_xaccel/media/blank%20name.bin", "reader"), rid());
        assertThat(r.status()).isEqualTo(404);
    }

    @Test
    void aStatusOtherThan2xxPassesThroughWithoutTheFile() {
        byte[] head = Arrays.copyOf(TestMedia.content(4), 64);
        String id = rid();
        RawHttp.Response r = viaNginx(get("/gone/4", "reader"), id);
        assertThat(r.status()).isEqualTo(404);
        assertThat(RawHttp.indexOf(r.raw(), head, 0)).isNegative();
        assertThat(nginx.awaitAccessLogLine(id)).doesNotContain("_xaccel");

        r = viaNginx(get("/missing", "reader"), rid());
        assertThat(r.status()).isEqualTo(404);
        assertThat(r.body()).isEmpty();
    }

    @Test
    void whatIsNotAFileIsSpringsIncludingItsRange() {
        String id = rid();
        RawHttp.Response r = viaNginx(get("/bytes", null), id);
        assertThat(r.status()).isEqualTo(200);
        assertThat(r.body()).isEqualTo(FilesController.IN_MEMORY);
        assertThat(nginx.awaitAccessLogLine(id)).contains("uri=\"/bytes\"")
                .contains("ulen=" + FilesController.IN_MEMORY.length);

        r = viaNginx(get("/bytes", null).header("Range", "bytes=0-2"), rid());
        assertThat(r.status()).isEqualTo(206);
        assertThat(r.bodyText()).isEqualTo("not");

        id = rid();
        r = viaNginx(get("/classpath", null), id);
        assertThat(r.status()).isEqualTo(200);
        assertThat(r.bodyText()).isEqualTo("a classpath resource, never offloaded\n");
        assertThat(nginx.awaitAccessLogLine(id)).doesNotContain("_xaccel");
    }

    @Test
    void resourcePathFileAndXAccelFileAnswersAreOffloadedToo() {
        for (String target : new String[] {"/resource/5", "/path/5", "/file/5", "/xaccel/5"}) {
            String id = rid();
            RawHttp.Response r = viaNginx(get(target, "reader"), id);
            assertThat(r.status()).as(target).isEqualTo(200);
            assertThat(r.body()).as(target).isEqualTo(TestMedia.content(5));
            assertThat(nginx.awaitAccessLogLine(id)).as(target).contains("uri=\"/_xaccel/media/").contains("ulen=0 ");
        }
        RawHttp.Response r = viaNginx(get("/xaccel/5", "reader"), rid());
        assertThat(r.header("Content-Type")).isEqualTo("audio/mpeg");
        assertThat(ContentDisposition.parse(r.header("Content-Disposition")).getFilename()).isEqualTo("Track 5.mp3");
    }

    @Test
    void staticResourcesOnTheFileSystemAreOffloadedWhenAskedFor() {
        String id = rid();
        RawHttp.Response r = viaNginx(get("/static/big.bin", null), id);
        assertThat(r.status()).isEqualTo(200);
        assertThat(r.body()).isEqualTo(BIG);
        assertThat(nginx.awaitAccessLogLine(id)).contains("uri=\"/_xaccel/media/static/big.bin\"").contains("ulen=0 ");

        id = rid();
        r = viaNginx(get("/static/big.bin", null).header("Range", "bytes=10-19"), id);
        assertThat(r.status()).isEqualTo(206);
        assertThat(r.body()).isEqualTo(Arrays.copyOfRange(BIG, 10, 20));
        assertThat(nginx.awaitAccessLogLine(id)).contains("ulen=0 ");
    }

    @Test
    void everyOffloadIsCountedInMicrometer() {
        double before = offloaded();
        for (int i = 0; i < 3; i++) {
            assertThat(viaNginx(get("/files/" + i, "reader"), rid()).status()).isEqualTo(200);
        }
        assertThat(offloaded() - before).isEqualTo(3.0);
        assertThat(meters.get(XAccelMeterBinder.REQUESTS).tag("outcome", "direct").functionCounter()).isNotNull();
        assertThat(meters.get(XAccelMeterBinder.SENT).functionCounter().getId().getBaseUnit())
                .isEqualTo("bytes");
    }

    private double offloaded() {
        return meters.get(XAccelMeterBinder.REQUESTS).tag("outcome", "offloaded").tag("filter", "xaccel")
                .functionCounter().count();
    }

    @Test
    void theInfoEndpointShowsCountersButNoConfigurationPathOrSecret() {
        RawHttp.Response r = viaNginx(get("/actuator/info", null), rid());
        assertThat(r.status()).isEqualTo(200);
        String json = new String(r.body(), StandardCharsets.UTF_8);
        assertThat(json).contains("\"xaccel\"").contains("\"started\":true").contains("\"offloaded\":")
                .doesNotContain("configuration").doesNotContain("locations=[").doesNotContain("/_xaccel/media/")
                .doesNotContain(MEDIA.toString()).doesNotContain(SECRET).doesNotContain(SECRET.substring(0, 16));
    }

    @Test
    void signedLinksAreABean() {
        String link = signedLinks.sign("blank name.bin");
        assertThat(link).startsWith("/s/media/blank%20name.bin?md5=").contains("&expires=");
        assertThat(signedLinks.toString()).doesNotContain(SECRET);
    }

    /**
     * {@link MalformedSweep} over the starter's own endpoints in an application (a controller's file, a static
     * resource offloaded by the starter, a signed link nginx verifies, Actuator's info, answers that stay Spring's),
     * anonymous and as a reader, through nginx and directly: no 5xx, no path, stack trace or server version.
     */
    @Test
    void malformedRequestsToTheStartersEndpointsGetNo5xxAndNoPath() throws Exception {
        Map<String, String> reader = Map.of("Authorization", basic("reader"));
        List<Endpoint> endpoints = List.of(new Endpoint("GET", "/files/0", reader), Endpoint.of("GET", "/files/0"),
                new Endpoint("GET", "/resource/0", reader), new Endpoint("GET", "/path/0", reader),
                new Endpoint("GET", "/xaccel/0", reader), Endpoint.of("GET", "/static/site.css"),
                Endpoint.of("GET", "/static/big.bin"), Endpoint.of("GET", signedLinks.sign("blank name.bin")),
                Endpoint.of("GET", "/actuator/info"), Endpoint.of("GET", "/bytes"), Endpoint.of("GET", "/classpath"));
        MalformedSweep sweep = new MalformedSweep(List.of(MEDIA.toString(), MEDIA.toRealPath().toString(), SECRET));
        MalformedSweep.Result viaNginx = sweep.run(nginx.port(), endpoints);
        MalformedSweep.Result direct = sweep.run(tomcatPort, endpoints);
        System.out.println("starter malformed sweep: " + endpoints.size() + " endpoints, " + viaNginx.requests()
                + " requests through nginx " + viaNginx.statuses() + ", " + direct.requests() + " to Tomcat "
                + direct.statuses());
        assertThat(viaNginx.findings()).as("through nginx").isEmpty();
        assertThat(direct.findings()).as("directly").isEmpty();
    }
}
