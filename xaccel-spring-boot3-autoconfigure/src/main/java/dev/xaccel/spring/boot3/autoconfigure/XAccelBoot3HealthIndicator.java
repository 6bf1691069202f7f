package dev.xaccel.spring.boot3.autoconfigure;

import java.util.Map;

import org.springframework.boot.actuate.health.Health;
import org.springframework.boot.actuate.health.HealthIndicator;

import dev.xaccel.spring.boot.autoconfigure.XAccelFilters;

/**
 * Spring Boot 3.5's health of the application's XAccelFilters, the same as Boot 4's
 * ({@code XAccelHealthIndicator}): {@code DOWN} while a data root of one of them is missing, {@code UP} again once
 * it is back; per filter name the number of missing roots, never a path.
 */
public class XAccelBoot3HealthIndicator implements HealthIndicator {

    private final XAccelFilters filters;

    /** @param filters the application's filters */
    public XAccelBoot3HealthIndicator(XAccelFilters filters) {
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
