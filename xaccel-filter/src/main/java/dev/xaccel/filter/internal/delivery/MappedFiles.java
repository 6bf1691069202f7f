package dev.xaccel.filter.internal.delivery;

import java.io.IOException;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import dev.xaccel.filter.internal.config.Location;
import dev.xaccel.filter.internal.config.Mapping;
import dev.xaccel.filter.internal.config.XAccelConfig;
import dev.xaccel.filter.internal.fs.Opening;
import dev.xaccel.filter.internal.fs.Resolution;
import dev.xaccel.filter.internal.fs.SafePathResolver;

/**
 * Mapped mode: a request under a {@code mappings} prefix is answered by the filter itself (GET and HEAD), from
 * the mapped root, after the same checks as every request path ({@link SafePathResolver#resolve}).
 */
public final class MappedFiles {

    private final FileDelivery delivery;

    public MappedFiles(FileDelivery delivery) {
        this.delivery = delivery;
    }

    public void serve(HttpServletRequest req, HttpServletResponse resp, Mapping mapping, String pathInApp)
            throws IOException {
        String method = req.getMethod();
        if (!"GET".equals(method) && !"HEAD".equals(method)) {
            delivery.stats().rejected.increment();
            resp.setHeader("Allow", "GET, HEAD");
            resp.sendError(HttpServletResponse.SC_METHOD_NOT_ALLOWED);
            return;
        }
        String requestPath = mapping.remainder(pathInApp);
        XAccelConfig config = delivery.config();
        FileLookup lookup = new FileLookup() {
            @Override
            public Found resolve(boolean finalNameOnly) {
                Resolution r = mapping.resolver().resolve(requestPath, finalNameOnly);
                Location location = r.isOk() ? config.locationFor(r.file()) : null;
                return new Found(location == null ? r : location.resolver().rebase(r), location);
            }

            @Override
            public Opening open() {
                return mapping.resolver().open(requestPath);
            }
        };
        delivery.deliver(req, resp, lookup, null, false, delivery.decision().asked(req), pathInApp);
    }
}
