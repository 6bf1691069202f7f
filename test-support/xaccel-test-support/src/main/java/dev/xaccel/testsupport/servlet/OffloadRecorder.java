package dev.xaccel.testsupport.servlet;

import jakarta.servlet.Filter;
import jakarta.servlet.FilterChain;
import jakarta.servlet.FilterConfig;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletRequest;
import jakarta.servlet.ServletResponse;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;

import dev.xaccel.testsupport.TestPaths;

/**
 * The application's side of "who sent the bytes", the same for every front end and container: mapped first, it
 * records for each request with an {@code X-Request-Id} how the application answered it, and what the front end
 * sent in. An answer 200 with an offload header ({@code X-Accel-Redirect}, {@code X-Sendfile}) was offloaded, so
 * the bytes the client got came from the front end. The answers of every recorder of this JVM (the suites run
 * their containers embedded) are kept in one table by request id ({@link #answer}), which the front ends that
 * cannot log the application's answer read ({@code RunningFrontEnd}). In a server's JVM ({@link WarDeclared}) each
 * answer also goes to a file of its own below {@code target/offload-answers/}, where {@link #answer} finds it.
 */
public final class OffloadRecorder implements Filter, WarDeclared {

    /** The response headers that hand a file to a front end. */
    public static final List<String> OFFLOAD_HEADERS = List.of("X-Accel-Redirect", "X-Sendfile",
            "X-LIGHTTPD-send-file");

    /**
     * One answer.
     *
     * @param status         the status the application answered
     * @param offloadHeader  the offload header's name, or {@code null} when the application sent the file itself
     * @param offloadValue   its value (one char per byte)
     * @param contentLength  the application's {@code Content-Length}, or {@code null}
     * @param requestHeaders the request headers the front end sent, first value of each (names lower case)
     * @param remoteAddr     the peer address the application saw
     */
    public record Answer(int status, String offloadHeader, String offloadValue, String contentLength,
            Map<String, String> requestHeaders, String remoteAddr) {

        /** An offload: a 200 with an offload header (whose body the filter leaves empty). */
        public boolean offloaded() {
            return offloadHeader != null && status == 200;
        }
    }

    /** Every recorder's answers: request ids are unique per run (suite name and a counter). */
    private static final Map<String, Answer> ANSWERS = new ConcurrentHashMap<>();
    /** The ids of the requests that entered a recorder of this JVM, added before the chain runs. */
    private static final Set<String> REACHED = ConcurrentHashMap.newKeySet();
    /** The suffix of the file that says a request reached a recorder in a server's JVM. */
    private static final String REACHED_SUFFIX = ".reached";
    /** Init-param: the directory of the answers' files. */
    private static final String ANSWERS_DIR = "answersDir";

    /** Whether this JVM emptied the directory of an earlier run's answers (request ids repeat across runs). */
    private static final AtomicBoolean FRESH = new AtomicBoolean();

    private Path answersDir;

    /** The directory of the answers recorded in servers' JVMs, the same for every application. */
    private static Path sharedDir() {
        return TestPaths.target().resolve("offload-answers");
    }

    @Override
    public Map<String, String> warParams(Path dir) {
        try {
            if (FRESH.compareAndSet(false, true)) {
                TestPaths.fresh(sharedDir());
            }
            return Map.of(ANSWERS_DIR, Files.createDirectories(sharedDir()).toString());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public void init(FilterConfig config) {
        String dir = config.getInitParameter(ANSWERS_DIR);
        if (dir != null) {
            answersDir = Path.of(dir);
        }
    }

    @Override
    public void doFilter(ServletRequest request, ServletResponse response, FilterChain chain)
            throws IOException, ServletException {
        HttpServletRequest req = (HttpServletRequest) request;
        HttpServletResponse resp = (HttpServletResponse) response;
        String reached = req.getHeader("X-Request-Id");
        if (reached != null) {
            REACHED.add(reached);
            if (answersDir != null) {
                touch(answersDir.resolve(fileName(reached) + REACHED_SUFFIX));
            }
        }
        try {
            chain.doFilter(request, response);
        } finally {
            String id = req.getHeader("X-Request-Id");
            if (id != null) {
                String name = null;
                for (String h : OFFLOAD_HEADERS) {
                    if (resp.getHeader(h) != null) {
                        name = h;
                    }
                }
                Map<String, String> headers = new java.util.TreeMap<>();
                for (String h : java.util.Collections.list(req.getHeaderNames())) {
                    headers.put(h.toLowerCase(java.util.Locale.ROOT), req.getHeader(h));
                }
                Answer a = new Answer(resp.getStatus(), name, name == null ? null : resp.getHeader(name),
                        resp.getHeader("Content-Length"), headers, req.getRemoteAddr());
                ANSWERS.put(id, a);
                if (answersDir != null) {
                    write(answersDir.resolve(fileName(id)), a);
                }
            }
        }
    }

    /**
     * How the application answered the request that sent {@code X-Request-Id: requestId}, recorded when its thread
     * left the filters (which can be just after the client read the response).
     */
    public static Optional<Answer> answer(String requestId) {
        Answer a = ANSWERS.get(requestId);
        Path file = sharedDir().resolve(fileName(requestId));
        if (a != null || !Files.exists(file)) {
            return Optional.ofNullable(a);
        }
        Properties p = new Properties();
        try (Reader in = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            p.load(in);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        Map<String, String> headers = new java.util.TreeMap<>();
        p.stringPropertyNames().stream().filter(k -> k.startsWith("h.")).forEach(k -> headers.put(k.substring(2),
                p.getProperty(k)));
        return Optional.of(new Answer(Integer.parseInt(p.getProperty("status")), p.getProperty("offloadHeader"),
                p.getProperty("offloadValue"), p.getProperty("contentLength"), headers, p.getProperty("remoteAddr")));
    }

    private static String fileName(String requestId) {
        return URLEncoder.encode(requestId, StandardCharsets.UTF_8);
    }

    /** One answer's file, complete or absent: written aside and moved into place. */
    private static void write(Path file, Answer a) throws IOException {
        Properties p = new Properties();
        p.setProperty("status", Integer.toString(a.status()));
        putIf(p, "offloadHeader", a.offloadHeader());
        putIf(p, "offloadValue", a.offloadValue());
        putIf(p, "contentLength", a.contentLength());
        putIf(p, "remoteAddr", a.remoteAddr());
        a.requestHeaders().forEach((k, v) -> putIf(p, "h." + k, v));
        Path tmp = Files.createTempFile(file.getParent(), "answer", ".tmp");
        try (Writer out = Files.newBufferedWriter(tmp, StandardCharsets.UTF_8)) {
            p.store(out, null);
        }
        Files.move(tmp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    }

    private static void putIf(Properties p, String key, String value) {
        if (value != null) {
            p.setProperty(key, value);
        }
    }

    /**
     * Whether the request that sent {@code X-Request-Id: requestId} entered the application (its first filter, a
     * recorder): recorded before any response byte, so a false after the response means the container answered
     * it itself.
     */
    public static boolean reached(String requestId) {
        return REACHED.contains(requestId)
                || Files.exists(sharedDir().resolve(fileName(requestId) + REACHED_SUFFIX));
    }

    /** In a server's JVM, a request's arrival is an empty file beside its answer's. */
    private static void touch(Path file) throws IOException {
        try {
            Files.createFile(file);
        } catch (java.nio.file.FileAlreadyExistsException e) {
            // a request id sent twice: it reached the application, which is all the file says
        }
    }
}
