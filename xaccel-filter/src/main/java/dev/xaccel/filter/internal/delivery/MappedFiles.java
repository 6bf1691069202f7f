package dev.xaccel.filter.internal.delivery;

import java.io.IOException;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import dev.xaccel.filter.XAccelFile;
import dev.xaccel.filter.internal.config.Location;
import dev.xaccel.filter.internal.config.Mapping;
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
        boolean offloadable = OffloadResponder.shouldOffload(delivery.config(), req);
        Resolution r = mapping.resolver().resolve(mapping.remainder(pathInApp), delivery.finalNameOnly(offloadable));
        if (!r.isOk()) {
            delivery.reject(resp, r, pathInApp);
            return;
        }
        Location location = delivery.config().locationFor(r.file());
        delivery.deliver(req, resp, location == null ? r : location.resolver().rebase(r), location,
                XAccelFile.of(r.file()), false, offloadable);
    }
}
