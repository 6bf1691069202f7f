package dev.xaccel.sample.api;

import dev.xaccel.filter.XAccel;
import dev.xaccel.filter.XAccelFile;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.MultivaluedMap;
import jakarta.ws.rs.ext.MessageBodyWriter;
import java.io.IOException;
import java.io.OutputStream;
import java.lang.annotation.Annotation;
import java.lang.reflect.Type;
import java.nio.file.Path;

/**
 * Hands a {@code java.nio.file.Path} entity to the xaccel filter, like XAccelFeature's writer does.
 *
 * <p>Workaround: XAccelFeature registers one {@code MessageBodyWriter<Object>}; Jersey prefers the writer
 * whose declared type is closest to the entity's class, so its built-in {@code MessageBodyWriter<Path>}
 * (PathProvider) wins and Jersey streams the file itself, bypassing the filter. A writer declared for
 * {@code Path} ties with the built-in one, and Jersey then prefers the application's. Reported to the
 * xaccel-filter maintainers; remove once XAccelFeature registers type-specific writers.
 */
public class PathWriter implements MessageBodyWriter<Path> {

    @Context
    private HttpServletRequest request;

    @Context
    private HttpServletResponse response;

    @Override
    public boolean isWriteable(Class<?> type, Type genericType, Annotation[] annotations, MediaType mediaType) {
        return Path.class.isAssignableFrom(type);
    }

    @Override
    public void writeTo(Path path, Class<?> type, Type genericType, Annotation[] annotations, MediaType mediaType,
                        MultivaluedMap<String, Object> httpHeaders, OutputStream entityStream) throws IOException {
        XAccelFile file = XAccelFile.of(path.toAbsolutePath());
        if (mediaType != null && !mediaType.isWildcardType() && !mediaType.isWildcardSubtype()) {
            file = file.contentType(mediaType.toString());
        }
        httpHeaders.remove("Content-Length");
        XAccel.sendFile(request, response, file);
    }
}
