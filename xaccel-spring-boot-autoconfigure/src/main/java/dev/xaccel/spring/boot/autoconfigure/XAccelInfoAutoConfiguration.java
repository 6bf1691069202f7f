package dev.xaccel.spring.boot.autoconfigure;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.actuate.info.InfoContributor;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.context.annotation.Bean;

import dev.xaccel.filter.XAccelFilter;

/**
 * With Spring Boot Actuator, the {@code xaccel} contribution to the {@code info} endpoint
 * ({@link XAccelInfoContributor}); {@code management.info.xaccel.enabled=false} switches it off,
 * {@code xaccel.info.show-configuration=true} adds each filter's configuration.
 */
@AutoConfiguration(after = XAccelAutoConfiguration.class)
@ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.SERVLET)
@ConditionalOnClass({InfoContributor.class, XAccelFilter.class})
@ConditionalOnBooleanProperty(name = XAccelProperties.PREFIX + ".enabled", matchIfMissing = true)
public class XAccelInfoAutoConfiguration {

    /**
     * The contribution.
     *
     * @param registrations the filter registrations
     * @param properties {@code xaccel.info.show-configuration}
     * @return the contributor
     */
    @Bean
    @ConditionalOnMissingBean
    @ConditionalOnBooleanProperty(name = "management.info.xaccel.enabled", matchIfMissing = true)
    public XAccelInfoContributor xaccelInfoContributor(ObjectProvider<FilterRegistrationBean<?>> registrations,
            XAccelProperties properties) {
        return new XAccelInfoContributor(new XAccelFilters(registrations), properties.getInfo().isShowConfiguration());
    }
}
