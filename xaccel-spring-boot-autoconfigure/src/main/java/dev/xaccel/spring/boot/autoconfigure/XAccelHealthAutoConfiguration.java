package dev.xaccel.spring.boot.autoconfigure;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.boot.health.autoconfigure.contributor.ConditionalOnEnabledHealthIndicator;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.context.annotation.Bean;

import dev.xaccel.filter.XAccelFilter;

/**
 * With Spring Boot's health support on the class path, the {@code xaccel} health contributor
 * ({@link XAccelHealthIndicator}); {@code management.health.xaccel.enabled=false} leaves it out.
 */
@AutoConfiguration(after = XAccelAutoConfiguration.class)
@ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.SERVLET)
@ConditionalOnClass({HealthIndicator.class, XAccelFilter.class})
@ConditionalOnBooleanProperty(name = XAccelProperties.PREFIX + ".enabled", matchIfMissing = true)
@ConditionalOnEnabledHealthIndicator("xaccel")
public class XAccelHealthAutoConfiguration {

    /**
     * The health contributor, named {@code xaccel}.
     *
     * @param registrations the filter registrations
     * @return the indicator
     */
    @Bean
    @ConditionalOnMissingBean(name = "xaccelHealthIndicator")
    public XAccelHealthIndicator xaccelHealthIndicator(ObjectProvider<FilterRegistrationBean<?>> registrations) {
        return new XAccelHealthIndicator(new XAccelFilters(registrations));
    }
}
