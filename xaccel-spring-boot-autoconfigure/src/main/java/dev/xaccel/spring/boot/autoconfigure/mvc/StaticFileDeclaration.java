package dev.xaccel.spring.boot.autoconfigure.mvc;

import java.io.IOException;
import java.nio.file.Path;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import org.springframework.core.io.Resource;
import org.springframework.http.HttpOutputMessage;
import org.springframework.http.server.ServletServerHttpResponse;
import org.springframework.web.context.request.RequestAttributes;
import org.springframework.web.context.request.RequestContextHolder;
import org.springframework.web.context.request.ServletRequestAttributes;

import dev.xaccel.filter.XAccel;
import dev.xaccel.filter.XAccelFile;

/**
 * The one step both static-resource converters take: when the resource Spring's {@code ResourceHttpRequestHandler}
 * is about to write is a file and the filter handles the request, declare it (with the type the handler already
 * set) instead of writing it. The handler has answered 304 and 416 itself before; the filter redoes Range and the
 * other preconditions on the file it opened, or nginx does.
 */
final class StaticFileDeclaration {

    private StaticFileDeclaration() {
    }

    /** @return {@code true} when the file was declared and nothing must be written */
    static boolean declare(Resource resource, HttpOutputMessage message) throws IOException {
        Path path = resource == null ? null : FileResources.pathOf(resource);
        if (path == null || !(message instanceof ServletServerHttpResponse servlet)) {
            return false;
        }
        RequestAttributes attributes = RequestContextHolder.getRequestAttributes();
        if (!(attributes instanceof ServletRequestAttributes current)) {
            return false;
        }
        HttpServletRequest request = current.getRequest();
        if (!XAccel.isAvailable(request)) {
            return false;
        }
        HttpServletResponse response = servlet.getServletResponse();
        XAccel.sendFile(request, response, XAccelFile.of(path).contentType(response.getContentType()));
        return true;
    }
}
