package dev.xaccel.teststore;

import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.stream.Stream;

import org.gaul.s3proxy.AuthenticationType;
import org.gaul.s3proxy.S3Proxy;
import org.jclouds.ContextBuilder;
import org.jclouds.blobstore.BlobStore;
import org.jclouds.blobstore.BlobStoreContext;
import org.jclouds.blobstore.domain.Blob;
import org.jclouds.blobstore.domain.BlobMetadata;
import org.jclouds.filesystem.FilesystemApiMetadata;
import org.slf4j.LoggerFactory;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.AppenderBase;

/**
 * An S3-compatible store in a process of its own: s3proxy on 127.0.0.1 with jclouds' filesystem backend under
 * {@code --dir}, V4 (or V2) signatures required, so every object is private (an unsigned GET gets 403).
 *
 * <pre>
 * STORE_ACCESS_KEY=… STORE_SECRET_KEY=… java -cp target/classes:$(cat target/classpath.txt) \
 *     dev.xaccel.teststore.StoreServer --dir DIR --bucket NAME [--port N] [--import PREFIX=DIR]...
 *     [--ready FILE] [--request-log FILE]
 * </pre>
 *
 * <ul>
 * <li>{@code --port}: the port (default 0: a free one, see {@code --ready});</li>
 * <li>{@code --bucket}: created when missing;</li>
 * <li>{@code --import PREFIX=DIR}: before the store listens, every regular file below {@code DIR} (hidden names
 * skipped) becomes the object {@code PREFIX/<relative path>} of the bucket, through jclouds' blob store (an object
 * of the same size is kept); an empty prefix puts the files at the bucket's top;</li>
 * <li>{@code --ready}: once it listens, {@code port=…} and {@code pid=…} lines, written atomically;</li>
 * <li>{@code --request-log}: one line per request the store received, {@code METHOD /bucket/key} (never the
 * query, which holds signatures).</li>
 * </ul>
 * The credentials come from the environment (a command line is readable by every user of the machine). Stops on
 * SIGTERM/SIGINT.
 */
public final class StoreServer {

    /** The environment variables of the credentials. */
    public static final String ACCESS_KEY_ENV = "STORE_ACCESS_KEY";
    public static final String SECRET_KEY_ENV = "STORE_SECRET_KEY";

    private StoreServer() {
    }

    public static void main(String[] args) throws Exception {
        Map<String, List<String>> opts = parse(args);
        String access = env(ACCESS_KEY_ENV);
        String secret = env(SECRET_KEY_ENV);
        Path dir = Files.createDirectories(Path.of(one(opts, "dir")).toAbsolutePath());
        String bucket = one(opts, "bucket");
        int port = Integer.parseInt(opts.containsKey("port") ? one(opts, "port") : "0");

        Properties p = new Properties();
        p.setProperty("jclouds.filesystem.basedir", dir.toString());
        // the API metadata directly: jclouds' provider lookup would load every backend s3proxy registers
        BlobStoreContext context = ContextBuilder.newBuilder(new FilesystemApiMetadata()).overrides(p)
                .build(BlobStoreContext.class);
        BlobStore store = context.getBlobStore();
        if (!store.containerExists(bucket)) {
            store.createContainerInLocation(null, bucket);
        }
        for (String spec : opts.getOrDefault("import", List.of())) {
            int eq = spec.indexOf('=');
            if (eq < 0) {
                throw new IllegalArgumentException("--import wants PREFIX=DIR, got [" + spec + "]");
            }
            int n = importTree(store, bucket, spec.substring(0, eq), Path.of(spec.substring(eq + 1)));
            System.out.println("StoreServer: " + n + " objects imported into " + bucket + "/" + spec.substring(0, eq));
        }
        if (opts.containsKey("request-log")) {
            RequestLog.attach(Path.of(one(opts, "request-log")));
        }
        S3Proxy proxy = S3Proxy.builder().blobStore(store).endpoint(URI.create("http://127.0.0.1:" + port))
                .awsAuthentication(AuthenticationType.AWS_V2_OR_V4, access, secret).build();
        proxy.start();
        long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
        while (!"STARTED".equals(proxy.getState())) {
            if (System.nanoTime() > deadline) {
                System.err.println("StoreServer: s3proxy did not start (" + proxy.getState() + ")");
                System.exit(2);
            }
            Thread.sleep(10);
        }
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            try {
                proxy.stop();
                context.close();
            } catch (Exception e) {
                System.err.println("StoreServer: stopping: " + e);
            }
        }, "store-shutdown"));
        String ready = "port=" + proxy.getPort() + "\npid=" + ProcessHandle.current().pid() + "\n";
        if (opts.containsKey("ready")) {
            Path file = Path.of(one(opts, "ready"));
            Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
            Files.writeString(tmp, ready, StandardCharsets.UTF_8);
            Files.move(tmp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        }
        System.out.println("StoreServer: s3proxy on http://127.0.0.1:" + proxy.getPort() + "/" + bucket + " ("
                + dir + ")");
        System.out.flush();
        Thread.currentThread().join();
    }

    /** Puts every regular, non-hidden file below {@code root} under {@code prefix}; returns how many there are. */
    static int importTree(BlobStore store, String bucket, String prefix, Path root) throws IOException {
        Path base = root.toRealPath();
        String p = prefix.isEmpty() || prefix.endsWith("/") ? prefix : prefix + "/";
        List<Path> files;
        try (Stream<Path> walk = Files.walk(base)) {
            files = walk.filter(Files::isRegularFile).filter(f -> !hidden(base.relativize(f))).sorted().toList();
        }
        for (Path f : files) {
            String key = p + base.relativize(f).toString().replace(f.getFileSystem().getSeparator(), "/");
            long size = Files.size(f);
            BlobMetadata existing = store.blobMetadata(bucket, key);
            if (existing != null && existing.getContentMetadata().getContentLength() != null
                    && existing.getContentMetadata().getContentLength() == size) {
                continue;
            }
            try (InputStream in = Files.newInputStream(f)) {
                Blob blob = store.blobBuilder(key).payload(in).contentLength(size).build();
                store.putBlob(bucket, blob);
            }
        }
        return files.size();
    }

    private static boolean hidden(Path relative) {
        for (Path segment : relative) {
            if (segment.toString().startsWith(".")) {
                return true;
            }
        }
        return false;
    }

    private static String env(String name) {
        String v = System.getenv(name);
        if (v == null || v.isBlank()) {
            System.err.println("StoreServer: the environment variable " + name + " is not set");
            System.exit(2);
        }
        return v;
    }

    private static Map<String, List<String>> parse(String[] args) {
        Map<String, List<String>> m = new LinkedHashMap<>();
        for (int i = 0; i < args.length; i++) {
            if (!args[i].startsWith("--") || i + 1 >= args.length) {
                throw new IllegalArgumentException("usage: StoreServer --dir DIR --bucket NAME [--port N] "
                        + "[--import PREFIX=DIR]... [--ready FILE] [--request-log FILE]");
            }
            m.computeIfAbsent(args[i].substring(2), k -> new ArrayList<>()).add(args[++i]);
        }
        return m;
    }

    private static String one(Map<String, List<String>> opts, String name) {
        List<String> v = opts.get(name);
        if (v == null || v.isEmpty()) {
            throw new IllegalArgumentException("--" + name + " is required");
        }
        return v.get(v.size() - 1);
    }

    /**
     * s3proxy's handler logs every request at DEBUG as {@code request: Request(GET http://host:port/b/k?q)@id}:
     * appended to a file as {@code GET /b/k}, without the query.
     */
    static final class RequestLog extends AppenderBase<ILoggingEvent> {
        private final Path file;

        private RequestLog(Path file) {
            this.file = file;
        }

        static void attach(Path file) throws IOException {
            Files.writeString(file, "", StandardCharsets.UTF_8);
            Logger handler = (Logger) LoggerFactory.getLogger("org.gaul.s3proxy.S3ProxyHandler");
            RequestLog log = new RequestLog(file);
            log.setContext(handler.getLoggerContext());
            log.start();
            handler.setLevel(Level.DEBUG);
            handler.setAdditive(false);
            handler.addAppender(log);
        }

        @Override
        protected synchronized void append(ILoggingEvent e) {
            String m = e.getFormattedMessage();
            if (!m.startsWith("request: ")) {
                return;
            }
            String line = m.substring("request: ".length());
            int open = line.indexOf('(');
            int blank = line.indexOf(' ', open + 1);
            int close = line.lastIndexOf(')');
            if (open < 0 || blank < 0 || close < blank) {
                return;
            }
            String method = line.substring(open + 1, blank);
            String uri = line.substring(blank + 1, close);
            int authority = uri.indexOf("://");
            String target = authority < 0 ? uri : uri.substring(Math.max(uri.indexOf('/', authority + 3), 0));
            int query = target.indexOf('?');
            try {
                Files.writeString(file, method + " " + (query < 0 ? target : target.substring(0, query)) + "\n",
                        StandardCharsets.UTF_8, StandardOpenOption.APPEND);
            } catch (IOException ex) {
                addError("request log " + file, ex);
            }
        }
    }
}
