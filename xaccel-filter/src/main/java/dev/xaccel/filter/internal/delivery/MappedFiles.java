package dev.xaccel.filter.internal.delivery;

import java.io.IOException;
import java.util.IdentityHashMap;
import java.util.Map;

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
    /**
     * Per mapping, the location every file below its root lies in, when that is one location whatever the file:
     * the most specific one containing the mapping's root, with no other location's root below it. A checked file
     * stays below its mapping's root, so the per-request search is not needed then.
     */
    private final Map<Mapping, Sole> soleLocations = new IdentityHashMap<>();

    /**
     * A mapping's sole location, and whether its real root is the mapping's: then a checked file's path relative
     * to the mapping is already relative to the location and is not rebased (a comparison of two roots fewer).
     */
    private record Sole(Location location, boolean sameRoot) {
    }

    public MappedFiles(FileDelivery delivery) {
        this.delivery = delivery;
        XAccelConfig config = delivery.config();
        for (Mapping m : config.mappings()) {
            Location sole = config.locationFor(m.root());
            if (sole != null && config.locations().stream()
                    .noneMatch(l -> l != sole && l.root().startsWith(m.root()))) {
                soleLocations.put(m, new Sole(sole, sole.resolver().root().equals(m.resolver().root())));
            }
        }
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
        Sole known = soleLocations.get(mapping);
        Location sole = known == null ? null : known.location();
        boolean sameRoot = known != null && known.sameRoot();
        FileLookup lookup = new FileLookup() {
            @Override
            public Found resolve(Check check) {
                Resolution r = check == Check.NAMES ? mapping.resolver().named(requestPath)
                        : mapping.resolver().resolve(requestPath, check == Check.FINAL_NAME);
                Location location = !r.isOk() ? null : sole != null ? sole : config.locationFor(r.file());
                return new Found(location == null || sameRoot ? r : location.resolver().rebase(r), location);
            }

            @Override
            public Opening open() {
                return mapping.resolver().open(requestPath);
            }
        };
        delivery.deliver(req, resp, lookup, null, false, delivery.decision().asked(req), pathInApp);
    }
}
