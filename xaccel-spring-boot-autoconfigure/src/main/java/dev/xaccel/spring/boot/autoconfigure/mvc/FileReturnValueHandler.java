package dev.xaccel.spring.boot.autoconfigure.mvc;

import java.util.List;
import java.util.Set;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import org.springframework.core.MethodParameter;
import org.springframework.core.annotation.AnnotatedElementUtils;
import org.springframework.core.io.Resource;
import org.springframework.http.ContentDisposition;
import org.springframework.http.HttpEntity;
import org.springframework.http.HttpHeaders;
import org.springframework.http.MediaType;
import org.springframework.http.RequestEntity;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.ResponseBody;
import org.springframework.web.context.request.NativeWebRequest;
import org.springframework.web.method.support.HandlerMethodReturnValueHandler;
import org.springframework.web.method.support.ModelAndViewContainer;
import org.springframework.web.servlet.HandlerMapping;

import dev.xaccel.filter.XAccel;
import dev.xaccel.filter.XAccelFile;

/**
 * Hands a controller's file answer to the {@link dev.xaccel.filter.XAccelFilter} after the controller ran (and so
 * after Spring Security authorized the request), instead of letting Spring stream the bytes: the filter answers
 * with {@code X-Accel-Redirect} behind nginx, or sends the file itself (Range, conditional requests, HEAD).
 * <p>
 * It stands first among Spring MVC's return value handlers and claims these return types:
 * <ul>
 * <li>{@link java.nio.file.Path}, {@link java.io.File}, {@link XAccelFile}: always declared to the filter (Spring
 * has no writer for them; without the filter {@link XAccel#sendFile} says so);</li>
 * <li>a {@link Resource} from a {@code @ResponseBody} method and any {@link HttpEntity}/{@link ResponseEntity}:
 * declared when the body is a file ({@link FileResources}) and the filter handles the request; anything else (a
 * {@code ByteArrayResource}, a classpath resource, JSON, no body) goes to the handler Spring would have used.</li>
 * </ul>
 * A {@code ResponseEntity} keeps its status and headers: {@code Content-Type} and {@code Content-Disposition}
 * (from {@code ContentDisposition.attachment().filename(..)}) become the file's type, disposition and download
 * name, the rest is copied. A status other than 2xx passes through: the filter delivers no file then, and the
 * answer has no body. Validators and ranges are the filter's (or nginx's): an entity's {@code ETag},
 * {@code Last-Modified} and {@code Content-Length} are dropped. A concrete single {@code produces} type of the
 * mapping is the file's type when the answer names none.
 */
final class FileReturnValueHandler implements HandlerMethodReturnValueHandler {

    private final List<HandlerMethodReturnValueHandler> springHandlers;

    /** @param springHandlers the handlers Spring MVC configured, in their order */
    FileReturnValueHandler(List<HandlerMethodReturnValueHandler> springHandlers) {
        this.springHandlers = List.copyOf(springHandlers);
    }

    @Override
    public boolean supportsReturnType(MethodParameter returnType) {
        Class<?> type = returnType.getParameterType();
        return FileResources.isFileType(type)
                || (HttpEntity.class.isAssignableFrom(type) && !RequestEntity.class.isAssignableFrom(type))
                || (Resource.class.isAssignableFrom(type) && isResponseBody(returnType));
    }

    @Override
    public void handleReturnValue(Object returnValue, MethodParameter returnType, ModelAndViewContainer mavContainer,
            NativeWebRequest webRequest) throws Exception {
        HttpServletRequest request = webRequest.getNativeRequest(HttpServletRequest.class);
        HttpServletResponse response = webRequest.getNativeResponse(HttpServletResponse.class);
        Object body = returnValue instanceof HttpEntity<?> entity ? entity.getBody() : returnValue;
        XAccelFile file = body == null ? null : FileResources.fileOf(body);
        boolean onlyTheFilter = body != null && FileResources.isFileType(body.getClass());
        if (file == null || request == null || response == null
                || (!onlyTheFilter && !XAccel.isAvailable(request))) {
            delegate(returnValue, returnType, mavContainer, webRequest);
            return;
        }
        if (returnValue instanceof HttpEntity<?> entity) {
            file = withEntityHeaders(file, entity.getHeaders(), response);
            if (entity instanceof ResponseEntity<?> responseEntity) {
                response.setStatus(responseEntity.getStatusCode().value());
            }
        }
        if (file.contentType().isEmpty()) {
            file = file.contentType(declaredType(request));
        }
        mavContainer.setRequestHandled(true);
        XAccel.sendFile(request, response, file);
    }

    /** Content-Type and Content-Disposition to the file; every other header to the response. */
    private static XAccelFile withEntityHeaders(XAccelFile file, HttpHeaders headers, HttpServletResponse response) {
        XAccelFile out = file;
        MediaType type = headers.getContentType();
        if (type != null && out.contentType().isEmpty()) {
            out = out.contentType(type.toString());
        }
        String disposition = headers.getFirst(HttpHeaders.CONTENT_DISPOSITION);
        boolean dispositionUsed = false;
        if (disposition != null) {
            try {
                ContentDisposition cd = ContentDisposition.parse(disposition);
                if (cd.isAttachment() || cd.isInline()) {
                    out = cd.isAttachment() ? out.attachment() : out.inline();
                    if (cd.getFilename() != null && out.downloadName().isEmpty()) {
                        out = out.downloadName(cd.getFilename());
                    }
                    dispositionUsed = true;
                }
            } catch (IllegalArgumentException unparsable) {
                // copied as it is, below
            }
        }
        boolean skipDisposition = dispositionUsed;
        // forEach, not headerNames(): the one way to walk the headers in Spring Framework 6.2 and 7 alike
        headers.forEach((name, values) -> {
            if (name.equalsIgnoreCase(HttpHeaders.CONTENT_TYPE) || name.equalsIgnoreCase(HttpHeaders.CONTENT_LENGTH)
                    || (skipDisposition && name.equalsIgnoreCase(HttpHeaders.CONTENT_DISPOSITION))) {
                return;
            }
            for (String value : values) {
                response.addHeader(name, value);
            }
        });
        return out;
    }

    /** The mapping's one concrete {@code produces} type, or {@code null}. */
    private static String declaredType(HttpServletRequest request) {
        Object producible = request.getAttribute(HandlerMapping.PRODUCIBLE_MEDIA_TYPES_ATTRIBUTE);
        if (producible instanceof Set<?> types && types.size() == 1
                && types.iterator().next() instanceof MediaType type && type.isConcrete()
                && !MediaType.APPLICATION_OCTET_STREAM.equalsTypeAndSubtype(type)) {
            return type.toString();
        }
        return null;
    }

    private void delegate(Object returnValue, MethodParameter returnType, ModelAndViewContainer mavContainer,
            NativeWebRequest webRequest) throws Exception {
        for (HandlerMethodReturnValueHandler handler : springHandlers) {
            if (handler.supportsReturnType(returnType)) {
                handler.handleReturnValue(returnValue, returnType, mavContainer, webRequest);
                return;
            }
        }
        throw new IllegalStateException("No return value handler for [" + returnType.getParameterType().getName()
                + "] in " + returnType.getExecutable().toGenericString());
    }

    private static boolean isResponseBody(MethodParameter returnType) {
        return returnType.hasMethodAnnotation(ResponseBody.class)
                || AnnotatedElementUtils.hasAnnotation(returnType.getContainingClass(), ResponseBody.class);
    }
}
