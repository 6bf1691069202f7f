package dev.xaccel.spring.boot.autoconfigure;

import java.util.LinkedHashMap;
import java.util.Map;

import org.springframework.boot.actuate.info.Info;
import org.springframework.boot.actuate.info.InfoContributor;

import dev.xaccel.filter.XAccelFilterMXBean;

/**
 * Adds {@code xaccel} to the Actuator {@code info} endpoint: per filter whether it started and its counters, and
 * its effective configuration (the line the filter logs at startup, which never holds the signed-link secret) only
 * with {@code xaccel.info.show-configuration=true}: that line names the data roots' absolute paths and the
 * trusted proxies, and the {@code info} endpoint is often readable by anyone.
 */
public class XAccelInfoContributor implements InfoContributor {

    private final XAccelFilters filters;
    private final boolean showConfiguration;

    /**
     * @param filters the application's filters
     * @param showConfiguration whether to show each filter's configuration
     */
    public XAccelInfoContributor(XAccelFilters filters, boolean showConfiguration) {
        this.filters = filters;
        this.showConfiguration = showConfiguration;
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
                if (showConfiguration) {
                    one.put("configuration", stats.getConfiguration());
                }
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
