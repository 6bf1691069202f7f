package dev.xaccel.spring.boot.autoconfigure.mvc;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.context.annotation.Bean;
import org.springframework.web.servlet.mvc.method.annotation.RequestMappingHandlerAdapter;

import dev.xaccel.filter.XAccelFilter;
import dev.xaccel.spring.boot.autoconfigure.XAccelAutoConfiguration;
import dev.xaccel.spring.boot.autoconfigure.XAccelProperties;

/**
 * Spring MVC without code changes: controllers' file answers go to the filter ({@code xaccel.return-values}, on by
 * default), and so, on request, do static resources on the file system ({@code xaccel.static-resources}).
 */
@AutoConfiguration(after = XAccelAutoConfiguration.class)
@ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.SERVLET)
@ConditionalOnClass({XAccelFilter.class, RequestMappingHandlerAdapter.class})
@ConditionalOnBooleanProperty(name = XAccelProperties.PREFIX + ".enabled", matchIfMissing = true)
public class XAccelMvcAutoConfiguration {

    /**
     * The file return values.
     *
     * @return the installer of the return value handler
     */
    @Bean
    @ConditionalOnMissingBean
    @ConditionalOnBooleanProperty(name = XAccelProperties.PREFIX + ".return-values", matchIfMissing = true)
    public static FileReturnValueHandlerInstaller xaccelFileReturnValueHandlerInstaller() {
        return new FileReturnValueHandlerInstaller();
    }

    /**
     * The static resources.
     *
     * @param properties {@code xaccel.*}
     * @return the post-processor of the resource handlers
     */
    @Bean
    @ConditionalOnMissingBean
    @ConditionalOnBooleanProperty(name = XAccelProperties.PREFIX + ".static-resources")
    public static StaticResourceOffloader xaccelStaticResourceOffloader(ObjectProvider<XAccelProperties> properties) {
        return new StaticResourceOffloader(properties);
    }
}
