package dev.xaccel.spring.boot3.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.core.io.DefaultResourceLoader;

import dev.xaccel.spring.boot.autoconfigure.UnsupportedSpringBootException;
import dev.xaccel.spring.boot.autoconfigure.app.TestLibraryApplication;
import dev.xaccel.spring.boot.autoconfigure.app.TestMedia;

/**
 * xaccel-spring-boot-autoconfigure alone on Spring Boot 3.5 (this module hidden from the class loader): the
 * application refuses to start, with Spring Boot's failure report naming the missing artifact, instead of running
 * without health and connector.
 */
@ExtendWith(OutputCaptureExtension.class)
class Boot3PartMissingIT {

    @Test
    void theApplicationRefusesToStartNamingTheArtifact(CapturedOutput output) {
        String root = TestMedia.create(Path.of("target", "boot3-missing-media").toAbsolutePath()).toString();
        SpringApplication application = new SpringApplicationBuilder(TestLibraryApplication.class)
                .properties("server.port=0", "server.address=127.0.0.1", "xaccel.locations[0].root=" + root,
                        "xaccel.locations[0].uri=/_xaccel/media/", "xaccel.jmx-name=none")
                .build();
        application.setResourceLoader(new DefaultResourceLoader(
                new FilteredClassLoader(XAccelBoot3ConnectorAutoConfiguration.class)));
        assertThatThrownBy(() -> application.run().close()).isInstanceOf(UnsupportedSpringBootException.class);
        assertThat(output.getOut() + output.getErr()).contains("APPLICATION FAILED TO START")
                .contains("On Spring Boot 3.5.7 xaccel needs dev.xaccel:xaccel-spring-boot3-autoconfigure on the "
                        + "class path")
                .contains("Depend on dev.xaccel:xaccel-spring-boot-starter");
    }
}
