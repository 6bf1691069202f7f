package dev.xaccel.spring.boot.autoconfigure;

import java.util.LinkedHashMap;
import java.util.Map;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.web.servlet.FilterRegistrationBean;

import dev.xaccel.filter.XAccelFilter;
import dev.xaccel.filter.XAccelFilterMXBean;

/**
 * The {@link XAccelFilter}s of the application, by filter name: those of every {@link FilterRegistrationBean}
 * (the auto-configured one or a user's), looked up when asked, for meters, health and the info endpoint.
 */
public final class XAccelFilters {

    private final ObjectProvider<FilterRegistrationBean<?>> registrations;

    /** @param registrations every filter registration bean */
    public XAccelFilters(ObjectProvider<FilterRegistrationBean<?>> registrations) {
        this.registrations = registrations;
    }

    /**
     * The filters.
     *
     * @return filter name to filter, in registration order
     */
    public Map<String, XAccelFilter> byName() {
        Map<String, XAccelFilter> out = new LinkedHashMap<>();
        registrations.orderedStream().forEach(r -> {
            if (r.getFilter() instanceof XAccelFilter filter) {
                out.put(r.getFilterName(), filter);
            }
        });
        return out;
    }

    /**
     * What the health contributor of each Spring Boot line reports: per started filter, how many of its data roots
     * are missing ({@link XAccelFilterMXBean#getMissingRoots()}).
     *
     * @return filter name to missing roots, in registration order; a filter not started yet is left out
     */
    public Map<String, Integer> missingRoots() {
        Map<String, Integer> out = new LinkedHashMap<>();
        byName().forEach((name, filter) -> {
            XAccelFilterMXBean stats = filter.getStatistics();
            if (stats != null) {
                out.put(name, stats.getMissingRoots());
            }
        });
        return out;
    }
}
