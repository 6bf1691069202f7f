package dev.xaccel.bench.server;

import java.net.URI;

import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3Configuration;
import software.amazon.awssdk.services.s3.presigner.S3Presigner;

/**
 * The bucket and credentials of the remote setups' S3 store: the application ({@link RemoteServlet}) and the driver
 * (its uploads and the store setup's GETs) presign with the same ones, path-style, as s3proxy expects.
 */
public final class StoreAccount {

    public static final String BUCKET = "bench";
    public static final String ACCESS_KEY = "bench";
    /** The environment variable that hands the secret key to the store and to BenchServer. */
    public static final String SECRET_ENV = "BENCH_STORE_SECRET";
    private static final Region REGION = Region.EU_WEST_1;

    private StoreAccount() {
    }

    /** A presigner for the store at {@code endpoint}; the caller closes it. */
    public static S3Presigner presigner(String endpoint, String secret) {
        return S3Presigner.builder().endpointOverride(URI.create(endpoint)).region(REGION)
                .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create(ACCESS_KEY, secret)))
                .serviceConfiguration(S3Configuration.builder().pathStyleAccessEnabled(true).build()).build();
    }
}
