package dev.xaccel.spring.boot.autoconfigure.mvc;

import java.io.IOException;
import java.lang.reflect.Type;
import java.util.Collection;

import org.springframework.core.io.Resource;
import org.springframework.core.io.support.ResourceRegion;
import org.springframework.http.HttpOutputMessage;
import org.springframework.http.converter.ResourceRegionHttpMessageConverter;

/**
 * The static-resource writer for Range requests: the regions' file goes to the filter whole
 * ({@link StaticFileDeclaration}), which answers the request's Range itself (or nginx does), so single ranges,
 * multipart byteranges and If-Range behave as for every other file it serves.
 */
final class FileResourceRegionHttpMessageConverter extends ResourceRegionHttpMessageConverter {

    @Override
    protected void writeInternal(Object object, Type type, HttpOutputMessage outputMessage) throws IOException {
        if (!StaticFileDeclaration.declare(resourceOf(object), outputMessage)) {
            super.writeInternal(object, type, outputMessage);
        }
    }

    private static Resource resourceOf(Object regions) {
        if (regions instanceof ResourceRegion region) {
            return region.getResource();
        }
        if (regions instanceof Collection<?> all && !all.isEmpty()
                && all.iterator().next() instanceof ResourceRegion r) {
            return r.getResource();
        }
        return null;
    }
}
