package dev.xaccel.spring.boot.autoconfigure.mvc;

import java.io.IOException;

import org.springframework.core.io.Resource;
import org.springframework.http.HttpOutputMessage;
import org.springframework.http.MediaType;
import org.springframework.http.converter.ResourceHttpMessageConverter;

/** The static-resource writer for whole files: a file goes to the filter ({@link StaticFileDeclaration}). */
final class FileResourceHttpMessageConverter extends ResourceHttpMessageConverter {

    @Override
    protected void writeInternal(Resource resource, HttpOutputMessage outputMessage) throws IOException {
        if (!StaticFileDeclaration.declare(resource, outputMessage)) {
            super.writeInternal(resource, outputMessage);
        }
    }

    /** HEAD: the handler asks for the headers only; the filter (or nginx) answers HEAD for a file. */
    @Override
    public void addDefaultHeaders(HttpOutputMessage message, Resource resource, MediaType contentType)
            throws IOException {
        if (!StaticFileDeclaration.declare(resource, message)) {
            super.addDefaultHeaders(message, resource, contentType);
        }
    }
}
