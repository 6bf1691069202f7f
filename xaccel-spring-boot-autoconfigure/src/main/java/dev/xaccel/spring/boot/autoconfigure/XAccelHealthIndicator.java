package dev.xaccel.spring.boot.autoconfigure;

import java.util.Map;

import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;

import dev.xaccel.filter.XAccelFilterMXBean;

/**
 * Health of the application's XAccelFilters: {@code DOWN} while a data root of one of them is missing
 * ({@link XAccelFilterMXBean#getMissingRoots()}: unmounted, moved away, no longer a directory), {@code UP} again
 * once it is back. {@code DOWN} rather than {@code OUT_OF_SERVICE}: a root that vanished is a failure of what the
 * node depends on (as a database that does not answer), not a node taken out of rotation on purpose, and every
 * file below it answers 404 until it is back. The details name each filter and how many of its roots are missing,
 * never a path. Spring Boot 4's contributor; {@code xaccel-spring-boot3-autoconfigure} has Boot 3.5's.
 */
public class XAccelHealthIndicator implements HealthIndicator {

    private final XAccelFilters filters;

    /** @param filters the application's filters */
    public XAccelHealthIndicator(XAccelFilters filters) {
        this.filters = filters;
    }

    @Override
    public Health health() {
        Health.Builder health = Health.up();
        filters.missingRoots().forEach((name, missing) -> {
            if (missing > 0) {
                health.down();
            }
            health.withDetail(name, Map.of("missingRoots", missing));
        });
        return health.build();
    }
}
