package dev.xaccel.it.springjetty;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * {@code xaccel.connector.accept-filter} set, xaccel-tomcat-connector on the class path, the embedded server Jetty:
 * one INFO line says the properties are ignored and names the server. A context of its own (another value than
 * {@link SpringBootOnJettyIT}'s), started while the output is captured.
 */
@SpringBootTest(classes = JettyLibraryApplication.class, webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        properties = "xaccel.connector.accept-filter=dataready")
@ExtendWith(OutputCaptureExtension.class)
class AcceptFilterNoticeOnJettyIT {

    @DynamicPropertySource
    static void location(DynamicPropertyRegistry registry) {
        registry.add("xaccel.locations[0].root", () -> Path.of("target").toAbsolutePath().toString());
        registry.add("xaccel.locations[0].uri", () -> "/_xaccel/media/");
    }

    @Test
    void theConnectorPropertiesAreSaidToBeIgnored(CapturedOutput output) {
        assertThat(output.getAll()).containsOnlyOnce("xaccel.connector.* ignored: the embedded web server is "
                + "org.springframework.boot.jetty.servlet.JettyServletWebServer, not Tomcat");
    }
}
