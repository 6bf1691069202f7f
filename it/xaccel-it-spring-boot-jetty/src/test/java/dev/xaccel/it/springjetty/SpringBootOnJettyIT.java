package dev.xaccel.it.springjetty;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.boot.web.server.servlet.context.ServletWebServerApplicationContext;
import org.springframework.http.ContentDisposition;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import dev.xaccel.filter.XAccelReceipt;
import dev.xaccel.testsupport.RawHttp;
import dev.xaccel.testsupport.media.MediaFixture;
import dev.xaccel.testsupport.nginx.DocsNginx;
import dev.xaccel.testsupport.nginx.NginxServer;
import dev.xaccel.testsupport.servlet.BearerAuthFilter;

/**
 * The starter on Boot's embedded Jetty (ee11), configured by properties only: plain Spring MVC downloads served
 * by the filter directly (byte-exact, ranges, 304) and offloaded through the shipped nginx template (no byte
 * through the application), the application's authorization first; the delivery receipts of the filter's own
 * answers reach the application's listener bean ({@code xaccel.receipts=direct}). {@code xaccel.connector.*} is set and
 * xaccel-tomcat-connector is on the class path: Jetty runs regardless ({@link AcceptFilterNoticeOnJettyIT}).
 */
@SpringBootTest(classes = JettyLibraryApplication.class, webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        properties = {"xaccel.connector.accept-filter=httpready", "xaccel.receipts=direct"})
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class SpringBootOnJettyIT {

    static final MediaFixture MEDIA = MediaFixture.create("spring-boot-jetty");

    @DynamicPropertySource
    static void media(DynamicPropertyRegistry registry) {
        // one property source for the whole list: Spring Boot never merges a list across sources
        registry.add("xaccel.locations[0].root", MEDIA.media::toString);
        registry.add("xaccel.locations[0].uri", () -> "/_xaccel/media/");
    }

    @LocalServerPort
    int port;

    @Autowired
    ServletWebServerApplicationContext context;

    private NginxServer nginx;

    @BeforeAll
    void startNginx() throws IOException {
        nginx = DocsNginx.start("spring-boot-jetty", port, MEDIA.media.toRealPath());
    }

    @AfterAll
    void stopNginx() {
        if (nginx != null) {
            nginx.close();
        }
    }

    private static RawHttp.Request get(int id) {
        return RawHttp.get("/files/" + id).header("Authorization", BearerAuthFilter.AUTHORIZATION);
    }

    private static byte[] content(int id) {
        return MEDIA.content(MediaFixture.AWKWARD_NAMES.get(id));
    }

    @Test
    void theEmbeddedServerIsJetty() {
        assertThat(context.getWebServer().getClass().getName())
                .isEqualTo("org.springframework.boot.jetty.servlet.JettyServletWebServer");
    }

    @Test
    void downloadsAreServedDirectlyByteForByte() {
        for (int id = 0; id < MediaFixture.AWKWARD_NAMES.size(); id++) {
            String name = MediaFixture.AWKWARD_NAMES.get(id);
            RawHttp.Response r = get(id).send(port);
            assertThat(r.status()).as(name).isEqualTo(200);
            assertThat(r.body()).as(name).isEqualTo(content(id));
            assertThat(r.header("X-Accel-Redirect")).as(name).isNull();
            assertThat(ContentDisposition.parse(r.header("Content-Disposition")).getFilename()).as(name)
                    .isEqualTo(name.substring(name.lastIndexOf('/') + 1));
            assertThat(r.header("Accept-Ranges")).as(name).isEqualTo("bytes");
            assertThat(r.header("X-Content-Type-Options")).as("the filter's answer: " + name).isEqualTo("nosniff");
        }
    }

    @Test
    void rangesAndConditionalsAreTheFilters() {
        byte[] file = content(2);
        RawHttp.Response range = get(2).header("Range", "bytes=5-99").send(port);
        assertThat(range.status()).isEqualTo(206);
        assertThat(range.body()).isEqualTo(Arrays.copyOfRange(file, 5, 100));
        assertThat(range.header("Content-Range")).isEqualTo("bytes 5-99/" + file.length);
        String etag = get(2).send(port).header("ETag");
        assertThat(etag).startsWith("\"");
        RawHttp.Response notModified = get(2).header("If-None-Match", etag).send(port);
        assertThat(notModified.status()).isEqualTo(304);
        assertThat(notModified.body()).isEmpty();
    }

    @Test
    void theListenerBeanGetsTheReceiptsOfDirectDownloads() throws InterruptedException {
        byte[] file = content(3);
        String name = MediaFixture.AWKWARD_NAMES.get(3);
        // earlier tests downloaded the same file: their receipts go first (every earlier answer is complete, so
        // theirs come within a quiet half second)
        int earlier = 0;
        while (JettyLibraryApplication.RECEIPTS.poll(500, TimeUnit.MILLISECONDS) != null) {
            earlier++;
        }
        assertThat(get(3).header("Range", "bytes=0-99").send(port).status()).isEqualTo(206);
        assertThat(get(3).send(port).body()).isEqualTo(file);
        // two answers on two connections: each receipt is made when its answer ends, in either order
        List<XAccelReceipt> mine = new ArrayList<>();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        while (mine.size() < 2 && System.nanoTime() < deadline) {
            XAccelReceipt r = JettyLibraryApplication.RECEIPTS.poll(100, TimeUnit.MILLISECONDS);
            if (r != null && r.file().endsWith(name)) {
                mine.add(r);
            }
        }
        assertThat(mine).as("receipts of %s (%d earlier ones dropped)", name, earlier).hasSize(2);
        mine.sort(Comparator.comparing(r -> r.ranges() == null));
        assertThat(mine.get(0).ranges()).isEqualTo("bytes=0-99");
        assertThat(mine.get(0).status()).isEqualTo(206);
        assertThat(mine.get(0).bytes()).isEqualTo(100);
        XAccelReceipt whole = mine.get(1);
        assertThat(whole.ranges()).isNull();
        assertThat(whole.status()).isEqualTo(200);
        assertThat(whole.bytes()).isEqualTo(file.length);
        assertThat(whole.outcome()).isEqualTo(XAccelReceipt.Outcome.COMPLETE);
        assertThat(whole.servedBy()).isEqualTo(XAccelReceipt.ServedBy.FILTER);
    }

    @Test
    void throughNginxNoByteGoesThroughTheApplication() {
        for (int id = 0; id < MediaFixture.AWKWARD_NAMES.size(); id++) {
            String name = MediaFixture.AWKWARD_NAMES.get(id);
            String requestId = UUID.randomUUID().toString();
            RawHttp.Response r = get(id).header("X-Request-Id", requestId).send(nginx.port());
            assertThat(r.status()).as(name).isEqualTo(200);
            assertThat(r.body()).as(name).isEqualTo(content(id));
            assertThat(r.header("X-Accel-Redirect")).as(name).isNull();
            assertThat(nginx.awaitAccessLogLine(requestId)).as(name)
                    .contains("uri=\"/_xaccel/media/").contains("ustatus=200").contains("ulen=0 ");
        }
    }

    @Test
    void withoutAuthorizationNothingOfTheFileComesBack() {
        for (int target : new int[] {port, nginx.port()}) {
            RawHttp.Response r = RawHttp.get("/files/2").send(target);
            assertThat(r.status()).isEqualTo(401);
            assertThat(RawHttp.indexOf(r.raw(), Arrays.copyOfRange(content(2), 100, 132), 0)).isEqualTo(-1);
        }
    }
}
