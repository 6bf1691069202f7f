package dev.xaccel.spring.boot3.autoconfigure;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.actuate.autoconfigure.health.ConditionalOnEnabledHealthIndicator;
import org.springframework.boot.actuate.health.HealthIndicator;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.context.annotation.Bean;

import dev.xaccel.filter.XAccelFilter;
import dev.xaccel.spring.boot.autoconfigure.XAccelAutoConfiguration;
import dev.xaccel.spring.boot.autoconfigure.XAccelFilters;
import dev.xaccel.spring.boot.autoconfigure.XAccelProperties;

/**
 * Spring Boot 3.5's {@code xaccel} health contributor ({@link XAccelBoot3HealthIndicator}), as
 * {@code XAccelHealthAutoConfiguration} is Boot 4's; {@code management.health.xaccel.enabled=false} leaves it out.
 */
@AutoConfiguration(after = XAccelAutoConfiguration.class)
@ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.SERVLET)
@ConditionalOnClass({HealthIndicator.class, XAccelFilter.class})
@ConditionalOnBooleanProperty(name = XAccelProperties.PREFIX + ".enabled", matchIfMissing = true)
@ConditionalOnEnabledHealthIndicator("xaccel")
public class XAccelBoot3HealthAutoConfiguration {

    /**
     * The health contributor, named {@code xaccel} (the bean name as on Boot 4, so one bean of that name replaces
     * it on both lines).
     *
     * @param registrations the filter registrations
     * @return the indicator
     */
    @Bean
    @ConditionalOnMissingBean(name = "xaccelHealthIndicator")
    public XAccelBoot3HealthIndicator xaccelHealthIndicator(
            ObjectProvider<FilterRegistrationBean<?>> registrations) {
        return new XAccelBoot3HealthIndicator(new XAccelFilters(registrations));
    }
}
