package dev.xaccel.filter.internal.delivery;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.logging.Level;
import java.util.logging.Logger;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import dev.xaccel.filter.internal.http.ForwardedConditionals;
import dev.xaccel.filter.internal.util.Messages;
import dev.xaccel.filter.internal.util.ThrottledLog;
import dev.xaccel.filter.internal.util.Uris;

/**
 * Serves a remote object directly, when no front end takes it: fetches the (presigned) URL with the one
 * {@link HttpClient} of the filter and streams the body through a bounded buffer, never the whole object in
 * memory. The client's {@code Range} and valid conditional headers are forwarded, nothing else of the request (no
 * cookie, no credential); the store's status is mapped — 200, 206, 304, 412 and 416 pass with {@code Content-Length},
 * {@code Content-Range}, {@code ETag}, {@code Last-Modified} and {@code Accept-Ranges} from the store; 404 stays
 * 404; anything else (an expired or wrong signature, a redirect, a store error), a connection failure or a timeout
 * becomes a bare 502 (504 for a timeout). The store's body is only ever passed on with 200 or 206. {@code HEAD} is
 * sent as {@code GET} (the method the URL was signed for) and the body is not read. Thread-safe.
 */
public final class RemoteFileSender {

    /** Time to connect to the store. */
    public static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(5);
    /** Time until the store's response headers arrive. */
    public static final Duration RESPONSE_TIMEOUT = Duration.ofSeconds(30);

    /**
     * Request headers forwarded to the store: the range and the preconditions ({@link ForwardedConditionals}: only
     * valid ones, an invalid one is dropped as RFC 9110 has it ignored), which the store evaluates.
     */
    public static final List<String> FORWARDED = ForwardedConditionals.NAMES;
    /** Response headers of the store passed to the client (the length is set from the store's too). */
    public static final List<String> PASSED_BACK = List.of("Content-Range", "ETag", "Last-Modified", "Accept-Ranges");

    private static final Logger LOG = Logger.getLogger(RemoteFileSender.class.getName());

    private final HttpClient client;
    private final int bufferSize;
    private final ThrottledLog failedLog = new ThrottledLog(LOG, Level.WARNING);

    /** @param bufferSize copy buffer size in bytes, at least 1 */
    public RemoteFileSender(int bufferSize) {
        if (bufferSize < 1) {
            throw new IllegalArgumentException(Messages.get("sender.badBufferSize", bufferSize));
        }
        this.bufferSize = bufferSize;
        this.client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).connectTimeout(CONNECT_TIMEOUT)
                .followRedirects(HttpClient.Redirect.NEVER).build();
    }

    /**
     * @param url     the object's URL (its origin allowed)
     * @param representation the headers the application's choices give the object
     * @return the body sent (0 bytes for HEAD, 304, 412, 416), {@link Sent#NOT_FOUND} when the store answered 404
     *         (404 sent) or {@link Sent#FAILED} when it failed or refused (502 or 504 sent)
     * @throws IOException when the client went away, or the store's body broke off after the response was committed
     */
    public Sent send(HttpServletRequest req, HttpServletResponse resp, URI url, Representation representation)
            throws IOException {
        HttpRequest.Builder request = HttpRequest.newBuilder(url).timeout(RESPONSE_TIMEOUT).GET();
        for (String name : FORWARDED) {
            ForwardedConditionals.value(req, name).ifPresent(value -> request.header(name, value));
        }
        HttpResponse<InputStream> answer;
        try {
            answer = client.send(request.build(), HttpResponse.BodyHandlers.ofInputStream());
        } catch (HttpTimeoutException e) {
            return failed(resp, url, HttpServletResponse.SC_GATEWAY_TIMEOUT, e.toString());
        } catch (IOException e) {
            return failed(resp, url, HttpServletResponse.SC_BAD_GATEWAY, e.toString());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return failed(resp, url, HttpServletResponse.SC_BAD_GATEWAY, e.toString());
        }
        try (InputStream body = answer.body()) {
            return answer(req, resp, answer, body, representation, url);
        }
    }

    private Sent answer(HttpServletRequest req, HttpServletResponse resp, HttpResponse<InputStream> answer,
            InputStream body, Representation representation, URI url) throws IOException {
        int status = answer.statusCode();
        switch (status) {
            case HttpServletResponse.SC_OK:
            case HttpServletResponse.SC_PARTIAL_CONTENT:
                break;
            case HttpServletResponse.SC_NOT_MODIFIED:
            case HttpServletResponse.SC_PRECONDITION_FAILED:
            case HttpServletResponse.SC_REQUESTED_RANGE_NOT_SATISFIABLE:
                resp.setStatus(status);
                passBack(resp, answer);
                representation.writeValidators(resp, null);
                resp.setContentLength(0);
                return Sent.body(0);
            case HttpServletResponse.SC_NOT_FOUND:
                if (LOG.isLoggable(Level.FINE)) {
                    LOG.fine(Messages.get("remote.storeStatus", Uris.withoutQuery(url), status));
                }
                resp.sendError(HttpServletResponse.SC_NOT_FOUND);
                return Sent.NOT_FOUND;
            default:
                return failed(resp, url, HttpServletResponse.SC_BAD_GATEWAY, "status " + status);
        }
        resp.setStatus(status);
        passBack(resp, answer);
        Optional<String> storeType = answer.headers().firstValue("Content-Type");
        // several ranges: the store's multipart type carries the boundary of its body
        String type = status == HttpServletResponse.SC_PARTIAL_CONTENT && storeType.isPresent()
                && storeType.get().toLowerCase(Locale.ROOT).startsWith("multipart/byteranges")
                        ? storeType.get() : representation.contentType();
        representation.writeServed(resp, null, type, answer.headers().firstValueAsLong("Content-Length").orElse(-1));
        if ("HEAD".equals(req.getMethod())) {
            return Sent.body(0);
        }
        return Sent.body(copy(body, resp.getOutputStream()));
    }

    /** The store's validators and range headers (the representation's own follow). */
    private static void passBack(HttpServletResponse resp, HttpResponse<InputStream> answer) {
        for (String name : PASSED_BACK) {
            answer.headers().firstValue(name).ifPresent(v -> resp.setHeader(name, v));
        }
    }

    private long copy(InputStream in, OutputStream out) throws IOException {
        byte[] buffer = new byte[bufferSize];
        long total = 0;
        int n;
        while ((n = in.read(buffer)) >= 0) {
            out.write(buffer, 0, n);
            total += n;
        }
        out.flush();
        return total;
    }

    private Sent failed(HttpServletResponse resp, URI url, int status, String why) throws IOException {
        failedLog.log(() -> Messages.get("remote.storeFailed", Uris.withoutQuery(url), why, status));
        if (!resp.isCommitted()) {
            resp.sendError(status);
        }
        return Sent.FAILED;
    }
}
