package dev.xaccel.spring.boot.autoconfigure;

import org.springframework.boot.SpringBootVersion;
import org.springframework.context.ApplicationContextInitializer;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.core.SpringVersion;
import org.springframework.util.ClassUtils;

/**
 * Refuses to start an application on a Spring Boot line the starter does not support, before any auto-configuration
 * is read: Spring Boot 3.5 on Spring Framework 6.2 (with {@code xaccel-spring-boot3-autoconfigure}, which the
 * starter brings) and Spring Boot 4 on Spring Framework 7 are supported. Elsewhere a part would be skipped without
 * a word or fail per request (Framework 7's API on 6.x), so the startup fails instead, naming what it found and what
 * it needs ({@link UnsupportedSpringBootFailureAnalyzer}). {@code xaccel.enabled=false} skips the check.
 */
public class SpringBootLineCheck implements ApplicationContextInitializer<ConfigurableApplicationContext> {

    /** A class of {@code xaccel-spring-boot3-autoconfigure}: its presence says the Boot 3.5 part is there. */
    static final String BOOT3_PART = "dev.xaccel.spring.boot3.autoconfigure.XAccelBoot3ConnectorAutoConfiguration";

    static final String SUPPORTED = "xaccel's Spring Boot starter supports Spring Boot 3.5 (on Spring Framework 6.2) "
            + "and Spring Boot 4 (on Spring Framework 7)";

    @Override
    public void initialize(ConfigurableApplicationContext context) {
        if (!context.getEnvironment().getProperty(XAccelProperties.PREFIX + ".enabled", Boolean.class, true)) {
            return;
        }
        UnsupportedSpringBootException refused = check(SpringBootVersion.getVersion(), SpringVersion.getVersion(),
                ClassUtils.isPresent(BOOT3_PART, context.getClassLoader()));
        if (refused != null) {
            throw refused;
        }
    }

    /**
     * The decision, apart from where the versions come from.
     *
     * @param boot         Spring Boot's version, {@code null} when unknown (a repackaged jar without manifest)
     * @param framework    Spring Framework's version, {@code null} when unknown
     * @param boot3Part    whether {@code xaccel-spring-boot3-autoconfigure} is on the class path
     * @return why the application may not start, or {@code null}
     */
    static UnsupportedSpringBootException check(String boot, String framework, boolean boot3Part) {
        int[] b = majorMinor(boot);
        int[] f = majorMinor(framework);
        String found = "found Spring Boot " + boot + " on Spring Framework " + framework;
        if (b == null) {
            return null; // nothing to judge by: the auto-configurations' own conditions decide
        }
        boolean boot35 = b[0] == 3 && b[1] >= 5;
        if (!boot35 && b[0] != 4) {
            return new UnsupportedSpringBootException(SUPPORTED + "; " + found + ".",
                    b[0] < 4 ? "Upgrade to Spring Boot 3.5 or 4, or register the XAccelFilter without the starter "
                            + "(docs/filter.md)."
                            : "Use an xaccel release made for Spring Boot " + b[0] + ", or stay on Spring Boot 4.");
        }
        int wantedFramework = boot35 ? 6 : 7;
        if (f != null && (f[0] != wantedFramework || (boot35 && f[1] < 2))) {
            return new UnsupportedSpringBootException(SUPPORTED + "; " + found + ", which is not the Spring "
                    + "Framework line of Spring Boot " + b[0] + "." + b[1] + ".",
                    "Manage Spring's versions with spring-boot-dependencies " + boot + " (imported as a BOM, or as "
                            + "the parent), so that Spring Framework is the one Spring Boot was built with.");
        }
        if (boot35 && !boot3Part) {
            return new UnsupportedSpringBootException("On Spring Boot " + boot + " xaccel needs "
                    + "dev.xaccel:xaccel-spring-boot3-autoconfigure on the class path (the health contributor and "
                    + "the accept-filter connector in Spring Boot 3's packages); it is not there.",
                    "Depend on dev.xaccel:xaccel-spring-boot-starter, which brings it, or add "
                            + "dev.xaccel:xaccel-spring-boot3-autoconfigure at the version of "
                            + "xaccel-spring-boot-autoconfigure (xaccel-bom manages both).");
        }
        return null;
    }

    /** The first two numbers of a version ({@code 3.5.7}, {@code 4.1.0-M2}), or {@code null}. */
    private static int[] majorMinor(String version) {
        if (version == null) {
            return null;
        }
        String[] parts = version.split("[.-]", 3);
        try {
            return new int[] {Integer.parseInt(parts[0]), parts.length > 1 ? Integer.parseInt(parts[1]) : 0};
        } catch (NumberFormatException notAVersion) {
            return null;
        }
    }
}
