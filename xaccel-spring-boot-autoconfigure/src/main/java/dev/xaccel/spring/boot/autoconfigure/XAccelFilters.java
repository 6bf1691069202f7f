package dev.xaccel.spring.boot.autoconfigure;

import java.util.LinkedHashMap;
import java.util.Map;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.web.servlet.FilterRegistrationBean;

import dev.xaccel.filter.XAccelFilter;

/**
 * The {@link XAccelFilter}s of the application, by filter name: those of every {@link FilterRegistrationBean}
 * (the auto-configured one or a user's), looked up when asked, for meters and the info endpoint.
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
}
