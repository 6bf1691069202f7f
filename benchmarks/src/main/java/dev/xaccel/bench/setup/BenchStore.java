package dev.xaccel.bench.setup;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.URL;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import software.amazon.awssdk.services.s3.presigner.S3Presigner;

import dev.xaccel.bench.run.BenchFailure;
import dev.xaccel.bench.run.Log;
import dev.xaccel.bench.run.Sleep;
import dev.xaccel.bench.server.StoreAccount;
import dev.xaccel.bench.system.CpuPinning;
import dev.xaccel.bench.system.Processes;

/**
 * The S3 store of the remote setups: {@code xaccel-test-store}'s s3proxy (jclouds' filesystem backend in
 * {@code work/data/store}, V4 signatures) as a JVM of its own on a free loopback port, its PID in the run's
 * {@link Processes}. The data files are uploaded by presigned PUTs (streamed from disk; a file whose object has its
 * size already, by a presigned HEAD, is kept from an earlier run). The driver presigns with the same credentials as
 * the application (BenchServer's {@code /remote} context): the store setup's GETs, valid for the whole run.
 */
public final class BenchStore {

    /** How long the store setup's presigned GETs live: longer than any run. */
    static final Duration BASELINE_TTL = Duration.ofHours(6);

    private final Process process;
    private final int port;
    private final String secret;
    private final Path requestLog;
    private final S3Presigner presigner;
    private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(5)).build();

    private BenchStore(Process process, int port, String secret, Path requestLog) {
        this.process = process;
        this.port = port;
        this.secret = secret;
        this.requestLog = requestLog;
        this.presigner = StoreAccount.presigner(endpoint(), secret);
    }

    /**
     * Starts the store on {@code port} (its classes and class path from
     * {@code test-support/xaccel-test-store/target}) without waiting for it: {@link #await} waits and uploads the data,
     * so that Tomcat starts meanwhile.
     *
     * @param storeModule {@code test-support/xaccel-test-store/target}
     */
    public static Starting start(Processes processes, String java, Path storeModule, Path dir, Path work, int port,
            String secret, CpuPinning pinning) {
        Path ready = work.resolve("store.ready");
        Path log = work.resolve("store.log");
        Path requests = work.resolve("store-requests.log");
        String classPath;
        try {
            classPath = storeModule.resolve("classes") + System.getProperty("path.separator")
                    + Files.readString(storeModule.resolve("classpath.txt"), StandardCharsets.UTF_8).trim();
            Files.createDirectories(dir);
            Files.deleteIfExists(ready);
        } catch (IOException e) {
            throw new BenchFailure("the store module is not built (" + storeModule + "): " + e, e);
        }
        Log.info("starting the S3 store (s3proxy, filesystem backend in " + dir + ")");
        Process p = processes.start(pinning.server(List.of(java, "-Xms256m", "-Xmx256m", "-XX:+UseSerialGC", "-cp",
                classPath, "dev.xaccel.teststore.StoreServer", "--dir", dir.toString(), "--bucket", StoreAccount.BUCKET,
                "--port", Integer.toString(port), "--ready", ready.toString(), "--request-log", requests.toString())),
                Map.of("STORE_ACCESS_KEY", StoreAccount.ACCESS_KEY, "STORE_SECRET_KEY", secret), log);
        return new Starting(new BenchStore(p, port, secret, requests), ready, log);
    }

    /** A store whose process runs but may not listen yet. */
    public record Starting(BenchStore store, Path ready, Path log) {

        /** Waits until the store listens (on the port it was given), then uploads the data. */
        public BenchStore await(DataSet data) {
            long deadline = System.currentTimeMillis() + 60_000;
            while (!Files.exists(ready)) {
                if (!store.process.isAlive() || System.currentTimeMillis() > deadline) {
                    Log.tail(log, 40);
                    throw new BenchFailure("the S3 store did not start" + (store.process.isAlive() ? " within 60 s"
                            : ""));
                }
                Sleep.millis(50);
            }
            Log.info("S3 store pid " + store.pid() + " on " + store.endpoint());
            store.upload(data);
            return store;
        }
    }

    /** {@code http://127.0.0.1:<port>}: the endpoint, the filter's remoteOrigins and nginx's map. */
    String endpoint() {
        return "http://127.0.0.1:" + port;
    }

    public int port() {
        return port;
    }

    long pid() {
        return process.pid();
    }

    String secret() {
        return secret;
    }

    /** The object names of the data set: the large file and the small ones. */
    static List<String> names(DataSet data) {
        List<String> names = new ArrayList<>(List.of(DataSet.BIG));
        for (int i = 0; i < data.smallCount(); i++) {
            names.add(DataSet.smallName(i));
        }
        return names;
    }

    /** Uploads what the store lacks, eight objects at a time. */
    private void upload(DataSet data) {
        long t0 = System.nanoTime();
        java.util.concurrent.ExecutorService pool = java.util.concurrent.Executors.newFixedThreadPool(8);
        try {
            List<java.util.concurrent.Future<Boolean>> sent = new ArrayList<>();
            for (String name : names(data)) {
                sent.add(pool.submit(() -> upload(name, data.file(name))));
            }
            int n = 0;
            for (java.util.concurrent.Future<Boolean> f : sent) {
                n += f.get() ? 1 : 0;
            }
            Log.info("S3 store: " + n + " objects uploaded by presigned PUT, " + (sent.size() - n) + " kept ("
                    + (System.nanoTime() - t0) / 1_000_000 + " ms)");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new BenchFailure("interrupted while uploading to the store");
        } catch (java.util.concurrent.ExecutionException e) {
            throw e.getCause() instanceof BenchFailure b ? b : new BenchFailure("uploading to the store: "
                    + e.getCause(), e.getCause());
        } finally {
            pool.shutdownNow();
        }
    }

    /** One object: kept when the store has it at this size (presigned HEAD), else a presigned PUT from disk. */
    private boolean upload(String name, Path file) throws IOException, InterruptedException {
        long size = Files.size(file);
        HttpResponse<Void> head = http.send(HttpRequest.newBuilder(presignHead(name)).method("HEAD",
                HttpRequest.BodyPublishers.noBody()).build(), HttpResponse.BodyHandlers.discarding());
        if (head.statusCode() == 200 && head.headers().firstValueAsLong("Content-Length").orElse(-1) == size) {
            return false;
        }
        URI put = url(presigner.presignPutObject(b -> b.signatureDuration(Duration.ofMinutes(30))
                .putObjectRequest(o -> o.bucket(StoreAccount.BUCKET).key(name))).url());
        HttpResponse<String> r = http.send(HttpRequest.newBuilder(put).PUT(HttpRequest.BodyPublishers.ofFile(file))
                .build(), HttpResponse.BodyHandlers.ofString());
        if (r.statusCode() != 200) {
            throw new BenchFailure("uploading " + name + " to the store: " + r.statusCode() + " " + r.body());
        }
        return true;
    }

    private URI presignHead(String name) {
        return url(presigner.presignHeadObject(b -> b.signatureDuration(Duration.ofMinutes(5))
                .headObjectRequest(o -> o.bucket(StoreAccount.BUCKET).key(name))).url());
    }

    /** A GET of {@code name}, presigned for {@code ttl}. */
    URI presignGet(String name, Duration ttl) {
        return url(presigner.presignGetObject(b -> b.signatureDuration(ttl)
                .getObjectRequest(o -> o.bucket(StoreAccount.BUCKET).key(name))).url());
    }

    /**
     * The store setup's links: per data file the raw query of a GET presigned for {@link #BASELINE_TTL}; and, for
     * wrk, {@code prefix/NAME?QUERY} per small file in {@code list}.
     */
    public Map<String, String> baselineQueries(DataSet data, String prefix, Path list) {
        Map<String, String> queries = new LinkedHashMap<>();
        StringBuilder sb = new StringBuilder();
        for (String name : names(data)) {
            String query = presignGet(name, BASELINE_TTL).getRawQuery();
            queries.put(name, query);
            if (!name.equals(DataSet.BIG)) {
                sb.append(prefix).append('/').append(name).append('?').append(query).append('\n');
            }
        }
        try {
            Files.writeString(list, sb.toString(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return queries;
    }

    /** The requests the store received so far, {@code METHOD /bucket/key}. */
    public List<String> requests() {
        try {
            return Files.exists(requestLog) ? Files.readAllLines(requestLog, StandardCharsets.UTF_8) : List.of();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static URI url(URL url) {
        try {
            return url.toURI();
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }
}
