package dev.xaccel.filter.jaxrs;

import java.io.OutputStream;
import java.lang.annotation.Annotation;
import java.lang.reflect.Type;

import dev.xaccel.filter.XAccelFile;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.MultivaluedMap;
import jakarta.ws.rs.ext.MessageBodyWriter;

/**
 * Makes {@link XAccelFile} a writable entity type (the runtime has no writer for it). It writes nothing: the
 * {@link XAccelWriterInterceptor} has already handed the file to the filter and does not proceed to writers.
 */
class XAccelFileWriter implements MessageBodyWriter<XAccelFile> {

    @Override
    public boolean isWriteable(Class<?> type, Type genericType, Annotation[] annotations, MediaType mediaType) {
        return XAccelFile.class.isAssignableFrom(type);
    }

    @Override
    public void writeTo(XAccelFile entity, Class<?> type, Type genericType, Annotation[] annotations,
            MediaType mediaType, MultivaluedMap<String, Object> httpHeaders, OutputStream entityStream) {
        // nothing: see class comment
    }
}
