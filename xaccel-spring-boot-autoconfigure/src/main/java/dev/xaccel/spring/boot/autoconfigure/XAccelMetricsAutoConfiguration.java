package dev.xaccel.spring.boot.autoconfigure;

import io.micrometer.core.instrument.binder.MeterBinder;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.context.annotation.Bean;

import dev.xaccel.filter.XAccelFilter;

/**
 * With Micrometer on the class path, the filter's counters as meters ({@link XAccelMeterBinder}); Spring Boot's
 * metrics support binds every {@link MeterBinder} bean to its registries.
 */
@AutoConfiguration(after = XAccelAutoConfiguration.class)
@ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.SERVLET)
@ConditionalOnClass({MeterBinder.class, XAccelFilter.class})
@ConditionalOnBooleanProperty(name = XAccelProperties.PREFIX + ".enabled", matchIfMissing = true)
public class XAccelMetricsAutoConfiguration {

    /**
     * The meters.
     *
     * @param registrations the filter registrations
     * @return the binder
     */
    @Bean
    @ConditionalOnMissingBean
    public XAccelMeterBinder xaccelMeterBinder(ObjectProvider<FilterRegistrationBean<?>> registrations) {
        return new XAccelMeterBinder(new XAccelFilters(registrations));
    }
}
