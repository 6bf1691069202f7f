package dev.xaccel.spring.boot.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.nio.file.Path;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

import io.micrometer.core.instrument.MeterRegistry;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.annotation.Bean;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import dev.xaccel.filter.XAccelReceipt;
import dev.xaccel.filter.XAccelReceiptListener;
import dev.xaccel.spring.boot.autoconfigure.app.TestLibraryApplication;
import dev.xaccel.spring.boot.autoconfigure.app.TestMedia;
import dev.xaccel.testsupport.RawHttp;
import dev.xaccel.testsupport.nginx.DocsNginx;
import dev.xaccel.testsupport.nginx.NginxServer;

/**
 * Delivery receipts through the starter: an {@link XAccelReceiptListener} bean receives one receipt per download of
 * a plain Spring MVC answer, sent by real nginx (the shipped template with its receipt lines on) or by the filter
 * itself, and the Micrometer meters count them.
 */
@SpringBootTest(classes = {TestLibraryApplication.class, ReceiptListenerIT.Listeners.class},
        webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ReceiptListenerIT {

    static final Path MEDIA = Path.of("target", "boot-receipts-media").toAbsolutePath();
    static final int RECEIPTS_PORT = freeUdpPort();
    static final BlockingQueue<XAccelReceipt> RECEIVED = new LinkedBlockingQueue<>();

    /** The application's listener: a bean, nothing else. */
    @TestConfiguration
    static class Listeners {
        @Bean
        XAccelReceiptListener recording() {
            return RECEIVED::add;
        }
    }

    @LocalServerPort
    int tomcatPort;

    @Autowired
    MeterRegistry meters;

    private NginxServer nginx;

    @DynamicPropertySource
    static void properties(DynamicPropertyRegistry registry) {
        Path root = TestMedia.create(MEDIA);
        registry.add("xaccel.locations[0].root", root::toString);
        registry.add("xaccel.locations[0].uri", () -> "/_xaccel/media/");
        registry.add("xaccel.receipts", () -> "127.0.0.1:" + RECEIPTS_PORT);
    }

    static int freeUdpPort() {
        try (DatagramSocket s = new DatagramSocket(0, InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @BeforeAll
    void startNginx() throws Exception {
        nginx = DocsNginx.startWithReceipts("boot-receipts", tomcatPort, MEDIA.toRealPath(), RECEIPTS_PORT);
    }

    @AfterAll
    void stopNginx() {
        if (nginx != null) {
            nginx.close();
        }
    }

    @Test
    void aListenerBeanReceivesOneReceiptPerDownloadThroughNginxAndDirectly() throws Exception {
        byte[] file = TestMedia.content(3);
        RawHttp.Response offloaded = LibraryAppTestBase.get("/files/3", "reader").send(nginx.port());
        assertThat(offloaded.status()).isEqualTo(200);
        assertThat(offloaded.body()).isEqualTo(file);
        assertThat(offloaded.header("X-Xaccel-Receipt")).isNull();
        XAccelReceipt viaNginx = RECEIVED.poll(20, TimeUnit.SECONDS);
        assertThat(viaNginx).isNotNull();
        assertThat(viaNginx.servedBy()).isEqualTo(XAccelReceipt.ServedBy.FRONT_END);
        assertThat(viaNginx.outcome()).isEqualTo(XAccelReceipt.Outcome.COMPLETE);
        assertThat(viaNginx.bytes()).isEqualTo(file.length);
        assertThat(viaNginx.status()).isEqualTo(200);
        assertThat(Path.of(viaNginx.file()).getFileName().toString()).isEqualTo(TestMedia.fileName(3));

        RawHttp.Response direct = LibraryAppTestBase.get("/files/3", "reader").send(tomcatPort);
        assertThat(direct.body()).isEqualTo(file);
        XAccelReceipt byFilter = RECEIVED.poll(20, TimeUnit.SECONDS);
        assertThat(byFilter).isNotNull();
        assertThat(byFilter.servedBy()).isEqualTo(XAccelReceipt.ServedBy.FILTER);
        assertThat(byFilter.bytes()).isEqualTo(file.length);
        assertThat(RECEIVED.poll(500, TimeUnit.MILLISECONDS)).as("one receipt per download").isNull();

        assertThat(meters.get(XAccelMeterBinder.RECEIPTS).tag("outcome", "complete").functionCounter().count())
                .isEqualTo(2.0);
        assertThat(meters.get(XAccelMeterBinder.RECEIPT_BYTES).tag("served_by", "front_end").functionCounter()
                .count()).isEqualTo(file.length);
        assertThat(meters.get(XAccelMeterBinder.RECEIPT_BYTES).tag("served_by", "filter").functionCounter()
                .count()).isEqualTo(file.length);
    }
}
