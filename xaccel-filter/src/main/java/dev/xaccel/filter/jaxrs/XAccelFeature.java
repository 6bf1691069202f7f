package dev.xaccel.filter.jaxrs;

import jakarta.ws.rs.core.Feature;
import jakarta.ws.rs.core.FeatureContext;

/**
 * JAX-RS feature: resources may return {@link java.nio.file.Path}, {@link java.io.File} or
 * {@link dev.xaccel.filter.XAccelFile}; the entity is handed to the {@link dev.xaccel.filter.XAccelFilter} in
 * front of the JAX-RS servlet (declared mode) and no bytes are written by JAX-RS.
 *
 * <pre>{@code
 * new ResourceConfig().register(XAccelFeature.class).packages("com.example.api");
 * }</pre>
 *
 * Requires a servlet-based JAX-RS runtime (e.g. jersey-container-servlet) and the filter mapped in front of
 * it; otherwise writing such an entity fails with an {@link IllegalStateException}. The status set by the
 * resource must be 2xx for the file to be delivered. A {@code @Produces} media type (other than wildcards and
 * {@code application/octet-stream}) becomes the file's {@code Content-Type} unless the {@code XAccelFile}
 * names one.
 */
public class XAccelFeature implements Feature {

    /** Priority of the writer interceptor: before {@code Priorities.ENTITY_CODER} (compression). */
    public static final int INTERCEPTOR_PRIORITY = jakarta.ws.rs.Priorities.ENTITY_CODER - 1000;

    @Override
    public boolean configure(FeatureContext context) {
        context.register(XAccelWriterInterceptor.class, INTERCEPTOR_PRIORITY);
        context.register(XAccelFileWriter.class);
        return true;
    }
}
