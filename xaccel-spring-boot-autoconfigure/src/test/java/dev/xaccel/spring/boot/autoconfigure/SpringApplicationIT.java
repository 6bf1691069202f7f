package dev.xaccel.spring.boot.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.apache.coyote.ProtocolHandler;
import org.apache.coyote.http11.Http11NioProtocol;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.core.io.DefaultResourceLoader;

import dev.xaccel.spring.boot.autoconfigure.app.TestLibraryApplication;
import dev.xaccel.spring.boot.autoconfigure.app.TestMedia;
import dev.xaccel.tomcat.AcceptFilterHttp11NioProtocol;
import dev.xaccel.tomcat.AcceptFilterProtocol;

/**
 * Whole application runs, as {@code java -jar} would start them: the accept-filter connector on the embedded Tomcat
 * with the kernel's read-back value (Linux {@code TCP_DEFER_ACCEPT}: 1 s reads back as 1, 5 as 7) in the protocol
 * and in the connector's log line; the one INFO line when it cannot apply; a refused property failing the startup
 * with Spring Boot's failure report.
 */
@ExtendWith(OutputCaptureExtension.class)
class SpringApplicationIT {

    private static SpringApplicationBuilder app(String... properties) {
        String root = TestMedia.create(LibraryAppTestBase.MEDIA.resolveSibling("boot-run-media")).toString();
        return new SpringApplicationBuilder(TestLibraryApplication.class)
                .properties("server.port=0", "server.address=127.0.0.1", "xaccel.locations[0].root=" + root,
                        "xaccel.locations[0].uri=/_xaccel/media/", "xaccel.jmx-name=none",
                        "spring.main.banner-mode=off")
                .properties(properties);
    }

    private static ProtocolHandler protocol(ConfigurableApplicationContext ctx) {
        return EmbeddedTomcat.protocol(ctx);
    }

    @Test
    void theConnectorsKernelValueIsReadBack(CapturedOutput output) {
        for (int[] requestedAndKernel : new int[][] {{1, 1}, {5, 7}}) {
            try (ConfigurableApplicationContext ctx = app("xaccel.connector.accept-filter=auto",
                    "xaccel.connector.defer-accept-seconds=" + requestedAndKernel[0]).run()) {
                ProtocolHandler handler = protocol(ctx);
                assertThat(handler).isInstanceOf(AcceptFilterHttp11NioProtocol.class);
                AcceptFilterProtocol p = (AcceptFilterProtocol) handler;
                assertThat(p.isAcceptFilterActive()).isTrue();
                assertThat(p.getAcceptFilterEffective()).isEqualTo("TCP_DEFER_ACCEPT");
                assertThat(p.getAcceptFilterKernelValue()).isEqualTo(Integer.toString(requestedAndKernel[1]));
                assertThat(output.getOut()).contains("requested [" + requestedAndKernel[0] + "] s, kernel reports ["
                        + requestedAndKernel[1] + "] s");
            }
        }
    }

    /** On by default, as on the connector; the property reaches the connector's attribute (active on Tomcat 11). */
    @Test
    void checkedFileSendfileFollowsItsProperty() {
        try (ConfigurableApplicationContext ctx = app().run()) {
            AcceptFilterHttp11NioProtocol p = (AcceptFilterHttp11NioProtocol) protocol(ctx);
            assertThat(p.getCheckedFileSendfile()).isEqualTo("true");
            assertThat(p.isCheckedFileSendfileActive()).isEqualTo(EmbeddedTomcat.CHECKED_FILE_SENDFILE);
        }
        try (ConfigurableApplicationContext ctx = app("xaccel.connector.checked-file-sendfile=false").run()) {
            AcceptFilterHttp11NioProtocol p = (AcceptFilterHttp11NioProtocol) protocol(ctx);
            assertThat(p.getCheckedFileSendfile()).isEqualTo("false");
            assertThat(p.isCheckedFileSendfileActive()).isFalse();
        }
    }

    @Test
    void noneKeepsTomcatsOwnProtocol(CapturedOutput output) {
        try (ConfigurableApplicationContext ctx = app("xaccel.connector.accept-filter=none").run()) {
            assertThat(protocol(ctx)).isExactlyInstanceOf(Http11NioProtocol.class);
            assertThat(output.getOut()).contains("xaccel.connector.accept-filter=none");
        }
    }

    @Test
    void withoutTheConnectorJarOneInfoLineSaysItIsIgnored(CapturedOutput output) {
        SpringApplication application = app("xaccel.connector.accept-filter=httpready").build();
        application.setResourceLoader(new DefaultResourceLoader(
                new FilteredClassLoader(AcceptFilterHttp11NioProtocol.class)));
        try (ConfigurableApplicationContext ctx = application.run()) {
            assertThat(protocol(ctx)).isExactlyInstanceOf(Http11NioProtocol.class);
            assertThat(output.getOut()).containsOnlyOnce(
                    "xaccel.connector.* ignored: xaccel-tomcat-connector is not on the class path");
        }
    }

    @Test
    void aRefusedPropertyFailsTheStartupWithSpringBootsReport(CapturedOutput output) {
        assertThatThrownBy(() -> app("xaccel.trusted-proxies=10.0.0.300").run().close())
                .hasRootCauseInstanceOf(IllegalArgumentException.class);
        assertThat(output.getOut() + output.getErr()).contains("APPLICATION FAILED TO START")
                .contains("Invalid xaccel.trusted-proxies: Invalid value [10.0.0.300] for init-param [trustedProxies]")
                .contains("Correct xaccel.trusted-proxies");
    }
}
