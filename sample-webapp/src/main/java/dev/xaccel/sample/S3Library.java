package dev.xaccel.sample;

import java.io.IOException;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.UnaryOperator;

import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.AwsCredentialsProvider;
import software.amazon.awssdk.auth.credentials.DefaultCredentialsProvider;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.S3Configuration;
import software.amazon.awssdk.services.s3.model.ListObjectsV2Request;
import software.amazon.awssdk.services.s3.model.S3Object;
import software.amazon.awssdk.services.s3.presigner.S3Presigner;

/**
 * A library in an S3 bucket ({@code XACCEL_LIBRARY=s3://bucket/prefix}): the objects below the prefix, listed
 * with ListObjectsV2 through the AWS SDK v2, indexed like a directory ({@code Author/Title/…},
 * {@code Author/author.jpg}). Every file is delivered through a GET presigned for {@link Config#presignTtl()}
 * (seconds): the xaccel filter hands it to nginx ({@code X-Accel-Redirect: /_xaccel/remote/…}) or streams it
 * itself. The store's origin must be the filter's {@code remoteOrigins} ({@link #origin()}).
 */
public final class S3Library extends Library {

    /** The prefix of a library location in a store. */
    public static final String SCHEME = "s3://";

    /**
     * How to reach the store, from the environment ({@link #fromEnvironment}).
     *
     * @param bucket      the bucket
     * @param prefix      the key prefix of the library ({@code ""} or ending in {@code /})
     * @param endpoint    the store's endpoint ({@code XACCEL_S3_ENDPOINT}), or null for AWS's own for the region
     * @param region      {@code XACCEL_S3_REGION}, default {@value #DEFAULT_REGION}
     * @param accessKey   {@code XACCEL_S3_ACCESS_KEY}, or null for the SDK's default credential chain
     * @param secretKey   {@code XACCEL_S3_SECRET_KEY} (with an access key)
     * @param pathStyle   {@code XACCEL_S3_PATH_STYLE}: default true with an endpoint (MinIO, s3proxy, Ceph), false
     *                    without (AWS: virtual-hosted, {@code bucket.s3.region.amazonaws.com})
     * @param presignTtl  {@code XACCEL_S3_PRESIGN_SECONDS}, default {@value #DEFAULT_PRESIGN_SECONDS}
     */
    public record Config(String bucket, String prefix, URI endpoint, String region, String accessKey,
            String secretKey, boolean pathStyle, Duration presignTtl) {

        public static final String DEFAULT_REGION = "us-east-1";
        public static final int DEFAULT_PRESIGN_SECONDS = 10;

        @Override
        public String toString() {
            return SCHEME + bucket + "/" + prefix + " (endpoint " + (endpoint == null ? "AWS" : endpoint)
                    + ", region " + region + ", " + (pathStyle ? "path-style" : "virtual-hosted") + ", credentials "
                    + (accessKey == null ? "from the SDK's default chain" : "XACCEL_S3_ACCESS_KEY") + ", presigned for "
                    + presignTtl.toSeconds() + " s)";
        }

        /**
         * {@code s3://bucket[/prefix]} and the {@code XACCEL_S3_*} variables of {@code env}.
         *
         * @throws IllegalArgumentException naming what is wrong
         */
        public static Config fromEnvironment(String location, UnaryOperator<String> env) {
            if (!location.startsWith(SCHEME)) {
                throw new IllegalArgumentException("not an s3:// location: " + location);
            }
            String rest = location.substring(SCHEME.length());
            int slash = rest.indexOf('/');
            String bucket = slash < 0 ? rest : rest.substring(0, slash);
            String prefix = slash < 0 ? "" : rest.substring(slash + 1);
            if (!bucket.matches("[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]")) {
                throw new IllegalArgumentException("not a bucket name in " + location);
            }
            if (!prefix.isEmpty() && !prefix.endsWith("/")) {
                prefix += "/";
            }
            String endpoint = value(env, "XACCEL_S3_ENDPOINT");
            String access = value(env, "XACCEL_S3_ACCESS_KEY");
            String secret = value(env, "XACCEL_S3_SECRET_KEY");
            if ((access == null) != (secret == null)) {
                throw new IllegalArgumentException("XACCEL_S3_ACCESS_KEY and XACCEL_S3_SECRET_KEY go together");
            }
            String pathStyle = value(env, "XACCEL_S3_PATH_STYLE");
            String ttl = value(env, "XACCEL_S3_PRESIGN_SECONDS");
            String region = value(env, "XACCEL_S3_REGION");
            long seconds;
            try {
                seconds = ttl == null ? DEFAULT_PRESIGN_SECONDS : Long.parseLong(ttl);
            } catch (NumberFormatException e) {
                seconds = -1;
            }
            if (seconds < 1 || seconds > 3600) {
                throw new IllegalArgumentException("XACCEL_S3_PRESIGN_SECONDS: 1 to 3600 seconds, got " + ttl);
            }
            return new Config(bucket, prefix, endpoint == null ? null : URI.create(endpoint),
                    region == null ? DEFAULT_REGION : region, access, secret,
                    pathStyle == null ? endpoint != null : Boolean.parseBoolean(pathStyle),
                    Duration.ofSeconds(seconds));
        }

        private static String value(UnaryOperator<String> env, String name) {
            String v = env.apply(name);
            return v == null || v.isBlank() ? null : v.trim();
        }
    }

    private final Config config;
    private final Path emptyRoot;
    private final S3Client client;
    private final S3Presigner presigner;

    /**
     * Connects and scans once (a store that cannot be listed fails the start).
     *
     * @param emptyRoot an empty local directory, created if missing: the filter's location (nothing local is served)
     */
    public S3Library(Config config, Path emptyRoot) throws IOException {
        this.config = config;
        this.emptyRoot = Files.createDirectories(emptyRoot).toRealPath();
        AwsCredentialsProvider credentials = config.accessKey() == null ? DefaultCredentialsProvider.builder().build()
                : StaticCredentialsProvider.create(AwsBasicCredentials.create(config.accessKey(), config.secretKey()));
        S3Configuration s3 = S3Configuration.builder().pathStyleAccessEnabled(config.pathStyle()).build();
        Region region = Region.of(config.region());
        var clientBuilder = S3Client.builder().region(region).credentialsProvider(credentials)
                .serviceConfiguration(s3).httpClientBuilder(UrlConnectionHttpClient.builder()
                        .connectionTimeout(Duration.ofSeconds(5)).socketTimeout(Duration.ofSeconds(30)));
        var presignerBuilder = S3Presigner.builder().region(region).credentialsProvider(credentials)
                .serviceConfiguration(s3);
        if (config.endpoint() != null) {
            clientBuilder.endpointOverride(config.endpoint());
            presignerBuilder.endpointOverride(config.endpoint());
        }
        this.client = clientBuilder.build();
        this.presigner = presignerBuilder.build();
        try {
            rescan();
        } catch (IOException | RuntimeException e) {
            close();
            throw e instanceof IOException io ? io : new IOException("cannot list " + config, e);
        }
    }

    public Config config() {
        return config;
    }

    @Override
    public String location() {
        return SCHEME + config.bucket() + "/" + config.prefix();
    }

    @Override
    public Path root() {
        return emptyRoot;
    }

    @Override
    protected List<Library.Entry> list() {
        List<Library.Entry> out = new ArrayList<>();
        ListObjectsV2Request request = ListObjectsV2Request.builder().bucket(config.bucket())
                .prefix(config.prefix()).build();
        for (S3Object o : client.listObjectsV2Paginator(request).contents()) {
            String relative = o.key().substring(config.prefix().length());
            if (!relative.isEmpty() && !relative.endsWith("/")) {
                out.add(new Library.Entry(relative, o.size(), o.lastModified()));
            }
        }
        return out;
    }

    /**
     * A GET of the entry's object, presigned for {@link Config#presignTtl()}: nginx (or the filter) uses it at once.
     */
    public URI presignGet(Library.Entry e) {
        String key = config.prefix() + e.relative();
        try {
            return presigner.presignGetObject(b -> b.signatureDuration(config.presignTtl())
                    .getObjectRequest(g -> g.bucket(config.bucket()).key(key))).url().toURI();
        } catch (URISyntaxException ex) {
            throw new IllegalStateException("the SDK presigned an invalid URL for " + key, ex);
        }
    }

    /**
     * {@code scheme://host[:port]} of the presigned URLs, as the filter's {@code remoteOrigins} compares them (lower
     * case, no default port).
     */
    public String origin() {
        URI u = presignGet(new Library.Entry("origin", 0, java.time.Instant.EPOCH));
        String scheme = u.getScheme().toLowerCase(Locale.ROOT);
        int port = u.getPort();
        boolean defaultPort = port < 0 || scheme.equals("http") && port == 80 || scheme.equals("https") && port == 443;
        return scheme + "://" + u.getHost().toLowerCase(Locale.ROOT) + (defaultPort ? "" : ":" + port);
    }

    public void close() {
        presigner.close();
        client.close();
    }
}
