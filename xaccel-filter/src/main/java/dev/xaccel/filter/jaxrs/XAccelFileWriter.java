package dev.xaccel.filter.jaxrs;

import java.io.File;
import java.io.IOException;
import java.io.OutputStream;
import java.lang.annotation.Annotation;
import java.lang.reflect.Type;
import java.nio.file.Path;

import dev.xaccel.filter.XAccel;
import dev.xaccel.filter.XAccelFile;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import jakarta.ws.rs.WebApplicationException;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.MultivaluedMap;
import jakarta.ws.rs.ext.MessageBodyWriter;

/**
 * Writes no bytes: hands {@link Path}, {@link File} and {@link XAccelFile} entities to the XAccelFilter via
 * {@link XAccel#sendFile}. Registered by {@link XAccelFeature}; package-private on purpose.
 */
class XAccelFileWriter implements MessageBodyWriter<Object> {

    @Context
    private HttpServletRequest request;

    @Context
    private HttpServletResponse response;

    @Override
    public boolean isWriteable(Class<?> type, Type genericType, Annotation[] annotations, MediaType mediaType) {
        return Path.class.isAssignableFrom(type) || File.class.isAssignableFrom(type)
                || XAccelFile.class.isAssignableFrom(type);
    }

    @Override
    public long getSize(Object t, Class<?> type, Type genericType, Annotation[] annotations, MediaType mediaType) {
        return -1;
    }

    @Override
    public void writeTo(Object entity, Class<?> type, Type genericType, Annotation[] annotations,
            MediaType mediaType, MultivaluedMap<String, Object> httpHeaders, OutputStream entityStream)
            throws IOException, WebApplicationException {
        XAccelFile file = toFile(entity);
        if (!file.getContentType().isPresent() && mediaType != null && !mediaType.isWildcardType()
                && !mediaType.isWildcardSubtype() && !MediaType.APPLICATION_OCTET_STREAM_TYPE.isCompatible(mediaType)) {
            file = file.contentType(mediaType.toString());
        }
        // JAX-RS would otherwise commit its own validators/length; the filter answers for the file.
        httpHeaders.remove("Content-Length");
        XAccel.sendFile(request, response, file);
    }

    static XAccelFile toFile(Object entity) {
        if (entity instanceof XAccelFile) {
            return (XAccelFile) entity;
        }
        if (entity instanceof Path) {
            return XAccelFile.of(((Path) entity).toAbsolutePath());
        }
        return XAccelFile.of(((File) entity).toPath().toAbsolutePath());
    }
}
