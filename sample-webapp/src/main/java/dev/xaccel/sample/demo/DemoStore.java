package dev.xaccel.sample.demo;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The demo's S3 store: {@code xaccel-test-store}'s s3proxy (jclouds' filesystem backend) as a child JVM on
 * 127.0.0.1, with a library directory imported under {@code bucket/prefix} before it listens. Used by
 * {@link DemoLauncher} ({@code XACCEL_LIBRARY=s3://… ./demo}) and the sample's S3 integration test; not part of the
 * WAR. Closing stops the child (SIGTERM, then SIGKILL).
 */
public final class DemoStore implements AutoCloseable {

    /** Where the store keeps its files and writes its ready file and request log. */
    private final Path dir;
    private final Process process;
    private final int port;

    private DemoStore(Path dir, Process process, int port) {
        this.dir = dir;
        this.process = process;
        this.port = port;
    }

    /**
     * Starts the store and waits until it listens.
     *
     * @param classPath  the store's class path ({@code test-support/xaccel-test-store/target/classes} and its
     *                   {@code classpath.txt})
     * @param dir        the store's directory (its data below {@code data/})
     * @param port       the port, or 0 for a free one
     * @param bucket     the bucket, created when missing
     * @param prefix     the key prefix the library is imported under ({@code ""} for the top)
     * @param library    the directory imported (objects of the same size are kept)
     * @param accessKey  the store's credentials (handed over in its environment, never on a command line)
     * @param secretKey  …
     */
    public static DemoStore start(String classPath, Path dir, int port, String bucket, String prefix, Path library,
                                  String accessKey, String secretKey) throws IOException {
        Files.createDirectories(dir);
        Path ready = dir.resolve("ready");
        Files.deleteIfExists(ready);
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        List<String> cmd = new ArrayList<>(List.of(java, "-Xmx256m", "-XX:+UseSerialGC", "-cp", classPath,
                "dev.xaccel.teststore.StoreServer", "--dir", dir.resolve("data").toString(), "--bucket", bucket,
                "--port", Integer.toString(port), "--import", prefix + "=" + library.toAbsolutePath(),
                "--ready", ready.toString(), "--request-log", dir.resolve("requests.log").toString()));
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(dir.resolve("store.log").toFile()));
        pb.environment().put("STORE_ACCESS_KEY", accessKey);
        pb.environment().put("STORE_SECRET_KEY", secretKey);
        Process p = pb.start();
        long deadline = System.nanoTime() + Duration.ofSeconds(90).toNanos();
        while (!Files.exists(ready)) {
            if (!p.isAlive() || System.nanoTime() > deadline) {
                p.destroyForcibly();
                throw new IOException("the store did not start (log: " + dir.resolve("store.log") + "):\n"
                        + Files.readString(dir.resolve("store.log"), StandardCharsets.UTF_8));
            }
            try {
                Thread.sleep(50);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                p.destroyForcibly();
                throw new IOException("interrupted while the store started", e);
            }
        }
        int actual = -1;
        for (String line : Files.readAllLines(ready, StandardCharsets.UTF_8)) {
            if (line.startsWith("port=")) {
                actual = Integer.parseInt(line.substring("port=".length()));
            }
        }
        return new DemoStore(dir, p, actual);
    }

    public int port() {
        return port;
    }

    /** {@code http://127.0.0.1:<port>}: the endpoint and origin of the store. */
    public String endpoint() {
        return "http://127.0.0.1:" + port;
    }

    public long pid() {
        return process.pid();
    }

    /** The requests the store received so far, {@code METHOD /bucket/key} (no query). */
    public List<String> requests() throws IOException {
        Path log = dir.resolve("requests.log");
        return Files.exists(log) ? Files.readAllLines(log, StandardCharsets.UTF_8) : List.of();
    }

    @Override
    public void close() {
        process.destroy();
        try {
            if (!process.waitFor(10, TimeUnit.SECONDS)) {
                process.destroyForcibly().waitFor(5, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            process.destroyForcibly();
        }
    }
}
