package dev.xaccel.spring.boot3.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.actuate.health.Status;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.WebApplicationContextRunner;

import dev.xaccel.spring.boot.autoconfigure.XAccelAutoConfiguration;
import dev.xaccel.spring.boot.autoconfigure.tomcat.AcceptFilterTomcatCustomizer;
import dev.xaccel.spring.boot.autoconfigure.tomcat.XAccelConnectorAutoConfiguration;
import dev.xaccel.tomcat.AcceptFilterHttp11NioProtocol;

/**
 * On Spring Boot 3.5 this module's beans stand where Boot 4's would, and Boot 4's connector part (conditional on
 * classes Boot 3.5 does not have) stays out. Boot 4's health auto-configuration cannot even be offered here by class
 * (its annotations do not load on Boot 3.5); the application's own list names it, and {@code RootGoneHealthIT} sees
 * this module's contributor answer.
 */
class XAccelBoot3AutoConfigurationTest {

    @TempDir
    Path media;

    private WebApplicationContextRunner runner() {
        return new WebApplicationContextRunner()
                .withConfiguration(AutoConfigurations.of(XAccelAutoConfiguration.class,
                        XAccelConnectorAutoConfiguration.class, XAccelBoot3HealthAutoConfiguration.class,
                        XAccelBoot3ConnectorAutoConfiguration.class))
                .withPropertyValues("xaccel.locations[0].root=" + media, "xaccel.locations[0].uri=/_xaccel/media/",
                        "xaccel.jmx-name=none");
    }

    @Test
    void boot3sHealthAndConnectorInsteadOfBoot4s() {
        runner().run(ctx -> {
            assertThat(ctx).hasSingleBean(XAccelBoot3HealthIndicator.class)
                    .hasSingleBean(AcceptFilterBoot3TomcatCustomizer.class)
                    .doesNotHaveBean(AcceptFilterTomcatCustomizer.class)
                    .doesNotHaveBean(AcceptFilterBoot3Notice.class);
            assertThat(ctx.getBean("xaccelHealthIndicator", XAccelBoot3HealthIndicator.class).health().getStatus())
                    .isEqualTo(Status.UP);
        });
    }

    @Test
    void eachOnlyWithItsClassesAndProperties() {
        runner().withClassLoader(new FilteredClassLoader(AcceptFilterHttp11NioProtocol.class))
                .withPropertyValues("xaccel.connector.accept-filter=httpready",
                        "management.health.xaccel.enabled=false")
                .run(ctx -> assertThat(ctx).doesNotHaveBean(AcceptFilterBoot3TomcatCustomizer.class)
                        .hasSingleBean(AcceptFilterBoot3Notice.class)
                        .doesNotHaveBean(XAccelBoot3HealthIndicator.class));
        runner().withPropertyValues("xaccel.enabled=false")
                .run(ctx -> assertThat(ctx).doesNotHaveBean(XAccelBoot3HealthIndicator.class));
    }
}
