package dev.xaccel.spring.boot.autoconfigure.tomcat;

import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The accept-filter connector on the embedded Tomcat ({@code xaccel.connector.*}) when {@code xaccel-tomcat-connector}
 * and Spring Boot's Tomcat support are on the class path; otherwise, if {@code xaccel.connector.accept-filter} is
 * set, one INFO line says why it is ignored.
 */
@AutoConfiguration
@ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.SERVLET)
@EnableConfigurationProperties(XAccelConnectorProperties.class)
public class XAccelConnectorAutoConfiguration {

    /** The connector's part: loaded only with both jars present. */
    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass(name = {AcceptFilterNotice.CONNECTOR_CLASS,
            "org.springframework.boot.tomcat.servlet.TomcatServletWebServerFactory"})
    static class OnTomcat {

        @Bean
        @ConditionalOnMissingBean
        AcceptFilterTomcatCustomizer xaccelAcceptFilterTomcatCustomizer(XAccelConnectorProperties properties) {
            return new AcceptFilterTomcatCustomizer(properties);
        }
    }

    /** The notice when the properties are set but cannot apply. */
    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass(name = "org.springframework.boot.web.server.context.WebServerInitializedEvent")
    @ConditionalOnProperty(prefix = XAccelConnectorProperties.PREFIX, name = "accept-filter")
    static class Notice {

        @Bean
        AcceptFilterNotice xaccelAcceptFilterNotice() {
            return new AcceptFilterNotice();
        }
    }
}
