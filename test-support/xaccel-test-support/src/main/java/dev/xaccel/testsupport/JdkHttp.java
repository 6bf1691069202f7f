package dev.xaccel.testsupport;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

/**
 * The JDK's HTTP/1.1 client aimed at one server on 127.0.0.1, for tests that want a real client's behaviour
 * (connection reuse, header parsing); {@link RawHttp} is the one that sends bytes as given. No redirects are
 * followed and no cookies kept: each call says what it sends. Absolute URLs (links a server hands out, e.g. a
 * feed's enclosures) go through {@link #send(String, URI, HttpRequest.BodyPublisher, String...)}, also with a
 * client {@linkplain #JdkHttp() made for no port}.
 */
public final class JdkHttp {

    /** The server's port; 0 for a client of absolute URLs only. */
    private final int port;
    private final HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(5)).followRedirects(HttpClient.Redirect.NEVER).build();

    /** A client of {@code http://127.0.0.1:<port>}. */
    public JdkHttp(int port) {
        this.port = port;
    }

    /** A client of absolute URLs only (the servers' ports are in them): the path methods refuse. */
    public JdkHttp() {
        this(0);
    }

    /** A GET; {@code headers} are name, value, name, value, ... */
    public HttpResponse<byte[]> get(String pathAndQuery, String... headers) throws IOException, InterruptedException {
        return send("GET", pathAndQuery, HttpRequest.BodyPublishers.noBody(), headers);
    }

    /** A request without a body. */
    public HttpResponse<byte[]> send(String method, String pathAndQuery, String... headers)
            throws IOException, InterruptedException {
        return send(method, pathAndQuery, HttpRequest.BodyPublishers.noBody(), headers);
    }

    /** A request with a body. */
    public HttpResponse<byte[]> send(String method, String pathAndQuery, HttpRequest.BodyPublisher body,
            String... headers) throws IOException, InterruptedException {
        if (port == 0) {
            throw new IllegalStateException("a client made for no port: give " + pathAndQuery
                    + " as an absolute URL");
        }
        return send(method, URI.create("http://127.0.0.1:" + port + pathAndQuery), body, headers);
    }

    /** A request to an absolute URL, e.g. a link a server handed out; {@code headers} as for {@link #get}. */
    public HttpResponse<byte[]> send(String method, URI url, HttpRequest.BodyPublisher body, String... headers)
            throws IOException, InterruptedException {
        HttpRequest.Builder b = HttpRequest.newBuilder(url).timeout(Duration.ofSeconds(30)).method(method, body);
        if (headers.length > 0) {
            b.headers(headers);
        }
        return client.send(b.build(), HttpResponse.BodyHandlers.ofByteArray());
    }
}
