package dev.xaccel.spring.boot3.autoconfigure;

import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import dev.xaccel.spring.boot.autoconfigure.tomcat.AcceptFilterNotice;
import dev.xaccel.spring.boot.autoconfigure.tomcat.XAccelConnectorAutoConfiguration;
import dev.xaccel.spring.boot.autoconfigure.tomcat.XAccelConnectorProperties;

/**
 * Spring Boot 3.5's accept-filter connector on the embedded Tomcat ({@code xaccel.connector.*}), as
 * {@link XAccelConnectorAutoConfiguration} is Boot 4's: the customizer when {@code xaccel-tomcat-connector} and
 * Boot 3's Tomcat support are on the class path, else the INFO line when {@code xaccel.connector.accept-filter} is
 * set.
 */
@AutoConfiguration(after = XAccelConnectorAutoConfiguration.class)
@ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.SERVLET)
@ConditionalOnClass(name = AcceptFilterBoot3Notice.EVENT_CLASS)
@EnableConfigurationProperties(XAccelConnectorProperties.class)
public class XAccelBoot3ConnectorAutoConfiguration {

    /** The connector's part: loaded only with both jars present. */
    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass(name = {AcceptFilterNotice.CONNECTOR_CLASS,
            "org.springframework.boot.web.embedded.tomcat.TomcatServletWebServerFactory"})
    static class OnTomcat {

        @Bean
        @ConditionalOnMissingBean
        AcceptFilterBoot3TomcatCustomizer xaccelAcceptFilterTomcatCustomizer(XAccelConnectorProperties properties) {
            return new AcceptFilterBoot3TomcatCustomizer(properties);
        }
    }

    /** The notice when the properties are set but cannot apply. */
    @Configuration(proxyBeanMethods = false)
    @ConditionalOnProperty(prefix = XAccelConnectorProperties.PREFIX, name = "accept-filter")
    static class Notice {

        @Bean
        AcceptFilterBoot3Notice xaccelAcceptFilterNotice() {
            return new AcceptFilterBoot3Notice();
        }
    }
}
