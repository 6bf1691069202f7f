package dev.xaccel.sample.boot;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;

import dev.xaccel.testsupport.nginx.NginxConfigLint;

/** The sample's shipped nginx config keeps the rules of every shipped config, and matches the application's. */
class SampleNginxConfTest {

    static final Path TEMPLATE = Path.of("nginx/xaccel-spring.conf.template");

    @Test
    void keepsTheBoundaryRules() throws Exception {
        String config = Files.readString(TEMPLATE);
        assertThat(NginxConfigLint.problems(config)).isEmpty();
        assertThat(config).contains("proxy_set_header    X-Sendfile-Type X-Accel-Redirect;")
                .contains("location ^~ /_xaccel/library/ {").contains("alias             ${LIBRARY}/;")
                .doesNotContain("proxy_cache_valid");
    }

    @Test
    void theInternalLocationIsTheApplicationsLocation() throws Exception {
        String properties = Files.readString(Path.of("src/main/resources/application.properties"));
        assertThat(properties).contains("xaccel.locations[0].uri=/_xaccel/library/")
                .contains("xaccel.locations[0].root=${library.root}");
    }
}
