package dev.xaccel.spring.boot.autoconfigure.mvc;

import java.util.ArrayList;
import java.util.List;

import org.springframework.beans.factory.config.BeanPostProcessor;
import org.springframework.web.method.support.HandlerMethodReturnValueHandler;
import org.springframework.web.servlet.mvc.method.annotation.RequestMappingHandlerAdapter;

/**
 * Puts a {@link FileReturnValueHandler} in front of the return value handlers of every
 * {@link RequestMappingHandlerAdapter}, once it has configured its own: custom handlers added through
 * {@code WebMvcConfigurer} come after Spring's, which would already have claimed {@code ResponseEntity} and
 * {@code Resource}.
 */
public class FileReturnValueHandlerInstaller implements BeanPostProcessor {

    @Override
    public Object postProcessAfterInitialization(Object bean, String beanName) {
        if (bean instanceof RequestMappingHandlerAdapter adapter) {
            List<HandlerMethodReturnValueHandler> handlers = adapter.getReturnValueHandlers();
            if (handlers != null && handlers.stream().noneMatch(FileReturnValueHandler.class::isInstance)) {
                List<HandlerMethodReturnValueHandler> all = new ArrayList<>(handlers.size() + 1);
                all.add(new FileReturnValueHandler(handlers));
                all.addAll(handlers);
                adapter.setReturnValueHandlers(all);
            }
        }
        return bean;
    }
}
