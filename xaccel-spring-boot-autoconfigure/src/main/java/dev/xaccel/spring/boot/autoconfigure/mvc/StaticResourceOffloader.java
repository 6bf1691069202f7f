package dev.xaccel.spring.boot.autoconfigure.mvc;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Set;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.config.BeanPostProcessor;
import org.springframework.core.io.Resource;
import org.springframework.web.servlet.handler.AbstractUrlHandlerMapping;
import org.springframework.web.servlet.resource.ResourceHttpRequestHandler;

import dev.xaccel.spring.boot.autoconfigure.InvalidXAccelPropertyException;
import dev.xaccel.spring.boot.autoconfigure.XAccelProperties;

/**
 * {@code xaccel.static-resources=true}: gives every {@link ResourceHttpRequestHandler} (the handlers of
 * {@code spring.web.resources.static-locations} and of {@code WebMvcConfigurer.addResourceHandlers}) the converters
 * that hand file-system resources to the filter. Fails the startup when a file-system location lies inside no
 * {@code xaccel.locations} root: the filter would answer such files 500. Classpath locations are left to Spring.
 */
public class StaticResourceOffloader implements BeanPostProcessor {

    private final ObjectProvider<XAccelProperties> properties;

    /** @param properties {@code xaccel.*}, looked up when the first resource handler mapping is made */
    public StaticResourceOffloader(ObjectProvider<XAccelProperties> properties) {
        this.properties = properties;
    }

    @Override
    public Object postProcessAfterInitialization(Object bean, String beanName) {
        if (bean instanceof AbstractUrlHandlerMapping mapping) {
            Set<Object> handlers = Collections.newSetFromMap(new IdentityHashMap<>());
            handlers.addAll(mapping.getHandlerMap().values());
            handlers.addAll(mapping.getPathPatternHandlerMap().values());
            for (Object handler : handlers) {
                if (handler instanceof ResourceHttpRequestHandler resources) {
                    checkLocations(resources.getLocations());
                    resources.setResourceHttpMessageConverter(new FileResourceHttpMessageConverter());
                    resources.setResourceRegionHttpMessageConverter(new FileResourceRegionHttpMessageConverter());
                }
            }
        }
        return bean;
    }

    private void checkLocations(List<Resource> locations) {
        List<Path> roots = properties.getObject().getLocations().stream()
                .map(XAccelProperties.Location::getRoot).filter(r -> r != null).map(StaticResourceOffloader::real)
                .toList();
        for (Resource location : locations) {
            Path dir = FileResources.pathOf(location);
            if (dir == null || !Files.isDirectory(dir)) {
                continue;
            }
            Path real = real(dir);
            if (roots.stream().noneMatch(real::startsWith)) {
                throw new InvalidXAccelPropertyException(XAccelProperties.PREFIX + ".static-resources",
                        "the static location [" + location.getDescription() + "] lies inside no "
                                + XAccelProperties.PREFIX + ".locations root, so the filter would answer its files "
                                + "500: add a location for it (and its nginx internal location), or set "
                                + XAccelProperties.PREFIX + ".static-resources=false", null);
            }
        }
    }

    private static Path real(Path p) {
        try {
            return p.toRealPath();
        } catch (IOException e) {
            return p.toAbsolutePath().normalize();
        }
    }
}
