package dev.xaccel.filter.jaxrs;

import java.io.File;
import java.io.IOException;
import java.lang.reflect.AnnotatedElement;
import java.lang.reflect.Method;
import java.nio.file.Path;

import dev.xaccel.filter.XAccel;
import dev.xaccel.filter.XAccelFile;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.WebApplicationException;
import jakarta.ws.rs.container.ResourceInfo;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.ext.WriterInterceptor;
import jakarta.ws.rs.ext.WriterInterceptorContext;

/**
 * Intercepts {@link Path}, {@link File} and {@link XAccelFile} entities before any message body writer runs
 * (so the runtime's own {@code Path}/{@code File} writers never read the file), hands them to the XAccelFilter
 * via {@link XAccel#sendFile} and writes no bytes. Other entities proceed normally. Registered by
 * {@link XAccelFeature} with priority {@link XAccelFeature#INTERCEPTOR_PRIORITY}, before entity coders such as
 * GZIP.
 */
class XAccelWriterInterceptor implements WriterInterceptor {

    @Context
    private HttpServletRequest request;

    @Context
    private HttpServletResponse response;

    @Context
    private ResourceInfo resourceInfo;

    @Override
    public void aroundWriteTo(WriterInterceptorContext context) throws IOException, WebApplicationException {
        Object entity = context.getEntity();
        if (!(entity instanceof Path || entity instanceof File || entity instanceof XAccelFile)) {
            context.proceed();
            return;
        }
        XAccelFile file = toFile(entity, declaresProduces(resourceInfo) ? context.getMediaType() : null);
        context.getHeaders().remove("Content-Length");
        XAccel.sendFile(request, response, file);
    }

    /**
     * Whether the resource method (or its class) names its media type with {@code @Produces}. Only then is the
     * response's media type the application's choice; otherwise it is whatever the runtime negotiated for an
     * entity it does not know (with a JSON provider registered, {@code application/json}).
     */
    static boolean declaresProduces(ResourceInfo info) {
        if (info == null) {
            return false;
        }
        Method method = info.getResourceMethod();
        Class<?> type = info.getResourceClass();
        return annotated(method) || annotated(type);
    }

    private static boolean annotated(AnnotatedElement element) {
        return element != null && element.isAnnotationPresent(Produces.class);
    }

    /** Path/File/XAccelFile to XAccelFile; a concrete declared type becomes the content type. */
    static XAccelFile toFile(Object entity, MediaType mediaType) {
        XAccelFile file;
        if (entity instanceof XAccelFile) {
            file = (XAccelFile) entity;
        } else if (entity instanceof Path) {
            file = XAccelFile.of(((Path) entity).toAbsolutePath());
        } else {
            file = XAccelFile.of(((File) entity).toPath().toAbsolutePath());
        }
        if (file.contentType().isEmpty() && mediaType != null && !mediaType.isWildcardType()
                && !mediaType.isWildcardSubtype()
                && !MediaType.APPLICATION_OCTET_STREAM_TYPE.isCompatible(mediaType)) {
            file = file.contentType(mediaType.toString());
        }
        return file;
    }
}
