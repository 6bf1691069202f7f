package dev.xaccel.filter;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ConcurrentHashMap;

import org.gaul.s3proxy.AuthenticationType;
import org.gaul.s3proxy.S3Proxy;
import org.jclouds.ContextBuilder;
import org.jclouds.blobstore.BlobStoreContext;
import org.jclouds.filesystem.FilesystemApiMetadata;
import org.slf4j.LoggerFactory;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.AppenderBase;

import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3Configuration;
import software.amazon.awssdk.services.s3.model.GetObjectRequest;
import software.amazon.awssdk.services.s3.model.PutObjectRequest;
import software.amazon.awssdk.services.s3.presigner.S3Presigner;
import software.amazon.awssdk.services.s3.presigner.model.GetObjectPresignRequest;
import software.amazon.awssdk.services.s3.presigner.model.PutObjectPresignRequest;

/**
 * A real S3-compatible store for one suite: s3proxy in this JVM on a free loopback port, jclouds' filesystem
 * backend below {@code target/}, V4 signatures required (objects are private: an unsigned GET gets 403), one bucket.
 * URLs are presigned with the AWS SDK v2 as an application would (path-style, region eu-west-1, test credentials).
 * The store's request log (every request line as received and its headers, from s3proxy's handler at TRACE) tells
 * what reached it.
 */
final class S3Store implements AutoCloseable {

    static final String BUCKET = "media";
    static final String ACCESS_KEY = "xaccel-test-access";
    static final String SECRET_KEY = "xaccel-test-secret-0123456789";
    static final Region REGION = Region.EU_WEST_1;

    /** One request as the store received it. */
    record Received(String requestLine, Map<String, String> headers) {
        /** The raw request target: what nginx (or the filter) rebuilt. */
        String target() {
            // Jetty's "Request(GET http://127.0.0.1:port/media/key?query)@1a2b": the URI after the authority
            String uri = requestLine.substring(requestLine.indexOf(' ') + 1, requestLine.lastIndexOf('@') - 1);
            int authority = uri.indexOf("://");
            return authority < 0 ? uri : uri.substring(uri.indexOf('/', authority + 3));
        }
    }

    private final S3Proxy proxy;
    private final S3Presigner presigner;
    private final URI endpoint;
    private final RequestLog log;
    private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

    private S3Store(S3Proxy proxy, S3Presigner presigner, URI endpoint, RequestLog log) {
        this.proxy = proxy;
        this.presigner = presigner;
        this.endpoint = endpoint;
        this.log = log;
    }

    static S3Store start(Path dir) throws Exception {
        Properties p = new Properties();
        p.setProperty("jclouds.filesystem.basedir", dir.toString());
        // the API metadata directly: jclouds' provider lookup would load every backend s3proxy registers
        BlobStoreContext context = ContextBuilder.newBuilder(new FilesystemApiMetadata()).overrides(p)
                .build(BlobStoreContext.class);
        context.getBlobStore().createContainerInLocation(null, BUCKET);
        S3Proxy proxy = S3Proxy.builder().blobStore(context.getBlobStore()).endpoint(URI.create("http://127.0.0.1:0"))
                .awsAuthentication(AuthenticationType.AWS_V2_OR_V4, ACCESS_KEY, SECRET_KEY).build();
        RequestLog log = RequestLog.attach();
        proxy.start();
        long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        while (!"STARTED".equals(proxy.getState()) && System.nanoTime() < deadline) {
            Thread.sleep(10);
        }
        URI endpoint = URI.create("http://127.0.0.1:" + proxy.getPort());
        S3Presigner presigner = S3Presigner.builder().endpointOverride(endpoint).region(REGION)
                .credentialsProvider(
                        StaticCredentialsProvider.create(AwsBasicCredentials.create(ACCESS_KEY, SECRET_KEY)))
                .serviceConfiguration(S3Configuration.builder().pathStyleAccessEnabled(true).build()).build();
        return new S3Store(proxy, presigner, endpoint, log);
    }

    /** {@code http://127.0.0.1:<port>}: the origin to allow. */
    String origin() {
        return endpoint.toString();
    }

    int port() {
        return endpoint.getPort();
    }

    /** A GET URL for {@code key}, valid for {@code ttl}. */
    URI presignGet(String key, Duration ttl) {
        return uri(presigner.presignGetObject(GetObjectPresignRequest.builder().signatureDuration(ttl)
                .getObjectRequest(GetObjectRequest.builder().bucket(BUCKET).key(key).build()).build()).url());
    }

    /** Uploads a file through a presigned PUT, streamed from disk. */
    void put(String key, Path file) throws IOException, InterruptedException {
        put(key, HttpRequest.BodyPublishers.ofFile(file));
    }

    void put(String key, byte[] content) throws IOException, InterruptedException {
        put(key, HttpRequest.BodyPublishers.ofByteArray(content));
    }

    private void put(String key, HttpRequest.BodyPublisher body) throws IOException, InterruptedException {
        URI url = uri(presigner.presignPutObject(PutObjectPresignRequest.builder()
                .signatureDuration(Duration.ofMinutes(5))
                .putObjectRequest(PutObjectRequest.builder().bucket(BUCKET).key(key).build()).build()).url());
        HttpResponse<String> r = http.send(HttpRequest.newBuilder(url).PUT(body).build(),
                HttpResponse.BodyHandlers.ofString());
        if (r.statusCode() != 200) {
            throw new IOException("PUT " + key + ": " + r.statusCode() + " " + r.body());
        }
    }

    /** An unsigned GET straight to the store (the store must refuse it). */
    int anonymousGet(String rawPath) throws IOException, InterruptedException {
        return http.send(HttpRequest.newBuilder(endpoint.resolve(rawPath)).build(),
                HttpResponse.BodyHandlers.discarding()).statusCode();
    }

    /** Every request received so far, in order. */
    List<Received> received() {
        return log.snapshot();
    }

    private static URI uri(java.net.URL url) {
        try {
            return url.toURI();
        } catch (java.net.URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }

    @Override
    public void close() throws Exception {
        presigner.close();
        proxy.stop();
    }

    /** s3proxy logs each request ("request: ...", DEBUG) and then each of its headers ("header: N: V", TRACE). */
    static final class RequestLog extends AppenderBase<ILoggingEvent> {
        private final List<Received> received = new ArrayList<>();
        private final Map<String, Received> current = new ConcurrentHashMap<>();

        static RequestLog attach() {
            Logger handler = (Logger) LoggerFactory.getLogger("org.gaul.s3proxy.S3ProxyHandler");
            RequestLog log = new RequestLog();
            log.setContext(handler.getLoggerContext());
            log.start();
            handler.setLevel(Level.TRACE);
            handler.setAdditive(false);
            handler.addAppender(log);
            return log;
        }

        @Override
        protected synchronized void append(ILoggingEvent e) {
            String m = e.getFormattedMessage();
            if (m.startsWith("request: ")) {
                Received r = new Received(m.substring("request: ".length()), new java.util.LinkedHashMap<>());
                received.add(r);
                current.put(e.getThreadName(), r);
            } else if (m.startsWith("header: ")) {
                Received r = current.get(e.getThreadName());
                int colon = m.indexOf(": ", "header: ".length());
                if (r != null && colon > 0) {
                    r.headers().put(m.substring("header: ".length(), colon), m.substring(colon + 2));
                }
            }
        }

        synchronized List<Received> snapshot() {
            return List.copyOf(received);
        }
    }
}
