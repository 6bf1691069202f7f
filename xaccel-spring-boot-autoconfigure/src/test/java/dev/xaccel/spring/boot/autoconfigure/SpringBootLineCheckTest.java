package dev.xaccel.spring.boot.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.springframework.boot.SpringBootVersion;
import org.springframework.core.SpringVersion;

/** Which Spring Boot and Framework lines start, and what the refusal says for the others. */
class SpringBootLineCheckTest {

    @Test
    void theSupportedLinesStart() {
        assertThat(SpringBootLineCheck.check("3.5.0", "6.2.7", true)).isNull();
        assertThat(SpringBootLineCheck.check("3.5.7", "6.2.12", true)).isNull();
        assertThat(SpringBootLineCheck.check("4.0.7", "7.0.2", false)).isNull();
        assertThat(SpringBootLineCheck.check("4.1.2", "7.1.1", true)).isNull();
        assertThat(SpringBootLineCheck.check("4.1.0-M2", "7.1.0-M1", false)).isNull();
        // the line this test runs on
        assertThat(SpringBootLineCheck.check(SpringBootVersion.getVersion(), SpringVersion.getVersion(), true))
                .isNull();
    }

    @Test
    void anOlderBootIsRefusedNamingWhatItFound() {
        assertThat(SpringBootLineCheck.check("3.4.10", "6.2.11", true).getMessage())
                .isEqualTo("xaccel's Spring Boot starter supports Spring Boot 3.5 (on Spring Framework 6.2) and "
                        + "Spring Boot 4 (on Spring Framework 7); found Spring Boot 3.4.10 on Spring Framework "
                        + "6.2.11.");
        assertThat(SpringBootLineCheck.check("2.7.18", "5.3.39", true).getAction())
                .startsWith("Upgrade to Spring Boot");
        assertThat(SpringBootLineCheck.check("5.0.0", "8.0.0", true).getAction())
                .isEqualTo("Use an xaccel release made for Spring Boot 5, or stay on Spring Boot 4.");
    }

    @Test
    void aFrameworkOfAnotherLineIsRefused() {
        assertThat(SpringBootLineCheck.check("3.5.7", "6.1.21", true).getMessage())
                .endsWith("found Spring Boot 3.5.7 on Spring Framework 6.1.21, which is not the Spring Framework line "
                        + "of Spring Boot 3.5.");
        assertThat(SpringBootLineCheck.check("3.5.7", "7.0.2", true)).isNotNull();
        assertThat(SpringBootLineCheck.check("4.0.7", "6.2.12", true).getAction())
                .contains("spring-boot-dependencies 4.0.7");
    }

    @Test
    void boot35WithoutItsPartIsRefusedNamingTheArtifact() {
        UnsupportedSpringBootException refused = SpringBootLineCheck.check("3.5.7", "6.2.12", false);
        assertThat(refused.getMessage()).startsWith("On Spring Boot 3.5.7 xaccel needs "
                + "dev.xaccel:xaccel-spring-boot3-autoconfigure on the class path");
        assertThat(refused.getAction()).contains("xaccel-spring-boot-starter");
    }

    @Test
    void unknownVersionsAreLeftToTheConditions() {
        assertThat(SpringBootLineCheck.check(null, null, false)).isNull();
        assertThat(SpringBootLineCheck.check("4.0.7", null, false)).isNull();
    }
}
