package dev.xaccel.spring.boot.autoconfigure;

import jakarta.servlet.DispatcherType;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.context.annotation.Bean;
import org.springframework.core.env.Environment;

import dev.xaccel.filter.SignedLinks;
import dev.xaccel.filter.XAccelFilter;
import dev.xaccel.filter.XAccelReceiptListener;

/**
 * Registers {@link XAccelFilter}, configured by {@code xaccel.*} ({@link XAccelProperties}), in a servlet web
 * application: for every URL, REQUEST and ASYNC dispatches, ordered right after Spring Security's filter chain.
 * Replace the registration by declaring a bean named {@value #REGISTRATION_BEAN_NAME}; switch everything off with
 * {@code xaccel.enabled=false}. With {@code xaccel.signed-link-secret} set, a {@link SignedLinks} bean signs links
 * for nginx's {@code secure_link}.
 */
@AutoConfiguration
@ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.SERVLET)
@ConditionalOnClass({XAccelFilter.class, FilterRegistrationBean.class})
@ConditionalOnBooleanProperty(name = XAccelProperties.PREFIX + ".enabled", matchIfMissing = true)
@EnableConfigurationProperties(XAccelProperties.class)
public class XAccelAutoConfiguration {

    /** The name of the filter registration bean; a bean of this name replaces the auto-configured one. */
    public static final String REGISTRATION_BEAN_NAME = "xaccelFilterRegistration";
    /** The filter's name in the servlet context (and in its default JMX name). */
    public static final String FILTER_NAME = "xaccel";

    private static final Log LOG = LogFactory.getLog(XAccelAutoConfiguration.class);
    private static final String SECURITY_ORDER = "spring.security.filter.order";

    /**
     * The filter, built from the properties (a refused value fails the startup naming the property).
     *
     * @param properties  {@code xaccel.*}
     * @param environment to compare the order with Spring Security's
     * @param listeners   every {@link XAccelReceiptListener} bean, handed the filter's receipts
     * @return the registration
     */
    @Bean(name = REGISTRATION_BEAN_NAME)
    @ConditionalOnMissingBean(name = REGISTRATION_BEAN_NAME)
    public FilterRegistrationBean<XAccelFilter> xaccelFilterRegistration(XAccelProperties properties,
            Environment environment, ObjectProvider<XAccelReceiptListener> listeners) {
        FilterRegistrationBean<XAccelFilter> registration = new FilterRegistrationBean<>(
                XAccelFilterFactory.create(properties, listeners.orderedStream().toList()));
        registration.setName(FILTER_NAME);
        registration.setOrder(properties.getFilterOrder());
        registration.setDispatcherTypes(DispatcherType.REQUEST, DispatcherType.ASYNC);
        registration.setAsyncSupported(true);
        registration.addUrlPatterns("/*");
        Integer security = environment.getProperty(SECURITY_ORDER, Integer.class);
        if (security != null && security >= properties.getFilterOrder()) {
            LOG.warn("xaccel.filter-order=" + properties.getFilterOrder() + " is not after " + SECURITY_ORDER
                    + "=" + security + ": the XAccelFilter would see requests before Spring Security; set "
                    + "xaccel.filter-order=" + (security + 1));
        }
        return registration;
    }

    /**
     * The signer of {@code xaccel.signed-link-*}, the same as the filter's, for views and JSON.
     *
     * @param properties {@code xaccel.*}
     * @return the signer
     */
    @Bean
    @ConditionalOnMissingBean
    @ConditionalOnProperty(XAccelProperties.PREFIX + ".signed-link-secret")
    public SignedLinks xaccelSignedLinks(XAccelProperties properties) {
        return XAccelFilterFactory.signedLinks(properties);
    }
}
