package dev.xaccel.sample.api;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.lang.reflect.Method;
import java.util.Arrays;
import java.util.concurrent.atomic.AtomicLong;
import java.util.logging.Level;
import java.util.logging.Logger;

import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.container.ContainerRequestFilter;
import jakarta.ws.rs.container.ResourceInfo;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.ext.Provider;

/**
 * Every resource method that consumes {@code application/x-www-form-urlencoded} gets its body checked first
 * ({@link FormBody}): a malformed post (no or another {@code Content-Type}, an unknown charset, bad
 * percent-encoding, more than {@value FormBody#MAX_BYTES} bytes) is answered 415, 400 or 413 with a JSON error,
 * where Jersey's {@code @FormParam} would throw and the container log a stack trace. Refusals are logged as one
 * INFO line a minute at most, so that nobody can fill the log.
 */
@Provider
public class FormBodies implements ContainerRequestFilter {

    private static final Logger LOG = Logger.getLogger(FormBodies.class.getName());
    private static final long LOG_INTERVAL_NANOS = 60_000_000_000L;
    private static final AtomicLong NEXT_LOG = new AtomicLong(System.nanoTime());
    private static final AtomicLong SUPPRESSED = new AtomicLong();

    @Context
    private ResourceInfo resource;

    @Override
    public void filter(ContainerRequestContext request) throws IOException {
        if (!consumesForms(resource.getResourceMethod(), resource.getResourceClass())) {
            return;
        }
        FormBody.Outcome o = FormBody.check(request.getHeaderString(HttpHeaders.CONTENT_TYPE), request.getLength(),
                request.getEntityStream());
        if (o.accepted()) {
            request.setEntityStream(new ByteArrayInputStream(o.bytes()));
            return;
        }
        logThrottled(request.getUriInfo().getPath(), o.reason());
        request.abortWith(Response.status(o.status()).type(MediaType.APPLICATION_JSON_TYPE)
                .cacheControl(AuthResource.noStore())
                .entity(new Json.Error(o.code(), o.reason())).build());
    }

    static boolean consumesForms(Method method, Class<?> type) {
        if (method == null) {
            return false;
        }
        Consumes c = method.getAnnotation(Consumes.class);
        if (c == null && type != null) {
            c = type.getAnnotation(Consumes.class);
        }
        return c != null
                && Arrays.stream(c.value()).anyMatch(v -> v.startsWith(MediaType.APPLICATION_FORM_URLENCODED));
    }

    private static void logThrottled(String path, String reason) {
        long now = System.nanoTime();
        long next = NEXT_LOG.get();
        if (now - next >= 0 && NEXT_LOG.compareAndSet(next, now + LOG_INTERVAL_NANOS)) {
            if (LOG.isLoggable(Level.INFO)) {
                LOG.info(Messages.get("form.refused", path, reason, SUPPRESSED.getAndSet(0)));
            }
        } else {
            SUPPRESSED.incrementAndGet();
        }
    }
}
