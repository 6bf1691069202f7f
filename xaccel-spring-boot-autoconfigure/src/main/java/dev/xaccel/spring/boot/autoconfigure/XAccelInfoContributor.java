package dev.xaccel.spring.boot.autoconfigure;

import java.util.LinkedHashMap;
import java.util.Map;

import org.springframework.boot.actuate.info.Info;
import org.springframework.boot.actuate.info.InfoContributor;

import dev.xaccel.filter.XAccelFilterMXBean;

/**
 * Adds {@code xaccel} to the Actuator {@code info} endpoint: per filter its effective configuration (the line the
 * filter logs at startup, which never holds the signed-link secret) and its counters.
 */
public class XAccelInfoContributor implements InfoContributor {

    private final XAccelFilters filters;

    /** @param filters the application's filters */
    public XAccelInfoContributor(XAccelFilters filters) {
        this.filters = filters;
    }

    @Override
    public void contribute(Info.Builder builder) {
        Map<String, Object> all = new LinkedHashMap<>();
        filters.byName().forEach((name, filter) -> {
            Map<String, Object> one = new LinkedHashMap<>();
            XAccelFilterMXBean stats = filter.getStatistics();
            if (stats == null) {
                one.put("started", false);
            } else {
                one.put("started", true);
                one.put("configuration", stats.getConfiguration());
                one.put("offloaded", stats.getOffloaded());
                one.put("servedDirectly", stats.getServedDirectly());
                one.put("notFound", stats.getNotFound());
                one.put("rejected", stats.getRejected());
                one.put("bytesServedDirectly", stats.getBytesServedDirectly());
            }
            all.put(name, one);
        });
        builder.withDetail("xaccel", Map.of("filters", all));
    }
}
