package dev.xaccel.sample.api;

import dev.xaccel.filter.XAccelFile;
import jakarta.servlet.ServletContext;
import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.container.ContainerResponseContext;
import jakarta.ws.rs.container.ContainerResponseFilter;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.HttpHeaders;
import java.io.File;
import java.nio.file.Path;

/**
 * Sets the response media type of a {@code Path}, {@code File} or {@code XAccelFile} entity to the file's
 * own type before Jersey picks a MessageBodyWriter.
 *
 * <p>Workaround: without a concrete media type Jersey negotiates {@code application/octet-stream} for a
 * {@code Path} (its built-in PathProvider declares it) and {@code application/json} for an
 * {@code XAccelFile} (JSON-B claims every class), so those writers win over XAccelFeature's {@code *}/{@code *}
 * writer: Jersey would stream the cover itself and serialise the XAccelFile as JSON. With the file's type
 * (e.g. {@code image/png}, {@code audio/wav}) neither built-in writer is closer than the feature's, and an
 * application provider wins a tie. Reported to the xaccel-filter maintainers; remove once XAccelFeature
 * does this itself.
 */
public class FileMediaTypeFilter implements ContainerResponseFilter {

    @Context
    private ServletContext servletContext;

    @Override
    public void filter(ContainerRequestContext request, ContainerResponseContext response) {
        Object entity = response.getEntity();
        String type = null;
        if (entity instanceof XAccelFile f) {
            type = f.getContentType().orElseGet(() -> mime(f.getPath()));
        } else if (entity instanceof Path p) {
            type = mime(p);
        } else if (entity instanceof File f) {
            type = mime(f.toPath());
        }
        if (type != null) {
            response.getHeaders().putSingle(HttpHeaders.CONTENT_TYPE, type);
        }
    }

    private String mime(Path p) {
        Path name = p.getFileName();
        String type = name == null ? null : servletContext.getMimeType(name.toString());
        return type == null ? "application/octet-stream" : type;
    }
}
