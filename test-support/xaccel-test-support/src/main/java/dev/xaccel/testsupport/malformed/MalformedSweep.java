package dev.xaccel.testsupport.malformed;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.UnaryOperator;
import java.util.regex.Pattern;

import dev.xaccel.testsupport.RawHttp;

/**
 * Malformed requests over a list of endpoints: bad methods, {@code Content-Type}s and charsets, bad
 * percent-encoding in bodies, queries and paths, invalid UTF-8, bad {@code Range} and {@code If-*} headers,
 * overlong headers and request lines, bad {@code Content-Length}s and a body over every sane limit. Each request is
 * sent raw on a connection of its own; every answer must be no 5xx and carry no absolute path of the deployment, no
 * stack trace and no server version. {@link #run} returns what it found wrong, and counts what it sent.
 */
public final class MalformedSweep {

    /** Larger than nginx's default {@code client_max_body_size} (1 MiB) and any form limit. */
    static final int HUGE_BODY = 2 * 1024 * 1024 + 1;
    /** Longer than every front end's and Tomcat's default request-header and request-line buffer (8 KiB). */
    static final int OVERLONG = 24 * 1024;
    private static final Pattern STACK = Pattern.compile("(?i)(\\bat [a-z_$][\\w$]*\\.[\\w$.]+\\(|exception:|"
            + "\\.java:\\d+)");
    private static final Pattern VERSION = Pattern.compile("(?i)(tomcat|nginx|jetty|apache|lighttpd|caddy|undertow)"
            + "[ /]?v?\\d+\\.\\d+");
    private static final int PARALLEL = 4;
    /** What is read of an answer at most. */
    private static final int MAX_ANSWER = 256 * 1024;
    private static final String FORM = "application/x-www-form-urlencoded";
    private static final String UNKNOWN_METHOD = "unknown method";
    private static final String LOWER_CASE_METHOD = "lower-case method";

    /** One endpoint: its method, target and the headers that authenticate (empty for anonymous). */
    public record Endpoint(String method, String target, Map<String, String> headers) {
        public Endpoint {
            headers = Map.copyOf(headers);
        }

        /** Anonymous. */
        public static Endpoint of(String method, String target) {
            return new Endpoint(method, target, Map.of());
        }

        @Override
        public String toString() {
            return method + " " + target + (headers.isEmpty() ? "" : " " + headers.keySet());
        }
    }

    /** One finding: the request (shortened), the answer's status line and what was wrong. */
    public record Finding(String request, String status, String problem) {
    }

    /** The outcome of {@link #run}. */
    public record Result(int requests, List<Finding> findings, Map<Integer, Integer> statuses, List<String> slowest) {
    }

    private final List<String> forbidden;

    /** @param forbidden strings no answer may contain (the deployment's absolute paths, secrets) */
    public MalformedSweep(List<String> forbidden) {
        this.forbidden = List.copyOf(forbidden);
    }

    /**
     * The malformed variants of one endpoint, by name.
     *
     * @param withBodies also the variants of a request body (for endpoints that take one, and once per server)
     */
    static Map<String, byte[]> variants(Endpoint e, boolean withBodies) {
        Map<String, byte[]> out = new LinkedHashMap<>();
        String t = e.target();
        String q = t.contains("?") ? "&" : "?";
        String path = t.contains("?") ? t.substring(0, t.indexOf('?')) : t;
        String query = t.contains("?") ? t.substring(t.indexOf('?')) : "";
        out.put(UNKNOWN_METHOD, head("FROB", t, e, List.of()));
        out.put("method with a separator", head("GE(T", t, e, List.of()));
        out.put(LOWER_CASE_METHOD, head(e.method().toLowerCase(Locale.ROOT), t, e, List.of()));
        out.put("unparseable content type", body("POST", t, e, "garbage;;;=/", "a=b"));
        out.put("bogus charset", body("POST", t, e, FORM + "; charset=bogus", "user=a&password=b"));
        if (withBodies) {
            // what only an endpoint that reads a body can trip over (and the one huge body per server)
            out.put("no content type, length 0", head("POST", t, e, List.of("Content-Length: 0")));
            out.put("content type without subtype", body("POST", t, e, "application", "a=b"));
            out.put("illegal charset name", body("POST", t, e, FORM + "; charset=\"\u00ff;\"",
                    "user=a&password=b"));
            out.put("bad percent-encoding in the body", body("POST", t, e, FORM, "user=%zz&password=%"));
            out.put("invalid UTF-8 in the body", body("POST", t, e, FORM + "; charset=UTF-8",
                    "user=%C3%28&password=%FF"));
            out.put("raw invalid UTF-8 in the body", body("POST", t, e, FORM, "user=\u00c3\u0028&password=\u00ff"));
            out.put("huge body", body("POST", t, e, FORM, "user=" + "a".repeat(HUGE_BODY)));
        }
        out.put("Content-Length not a number", head(e.method(), t, e, List.of("Content-Length: abc")));
        out.put("negative Content-Length", head(e.method(), t, e, List.of("Content-Length: -1")));
        out.put("bad Range", head(e.method(), t, e, List.of("Range: bytes=abc")));
        out.put("overflowing Range", head(e.method(), t, e, List.of("Range: bytes=99999999999999999999999-")));
        out.put("Range of another unit", head(e.method(), t, e, List.of("Range: pages=1-2")));
        out.put("bad If-Modified-Since", head(e.method(), t, e, List.of("If-Modified-Since: garbage")));
        out.put("bad If-Unmodified-Since", head(e.method(), t, e, List.of("If-Unmodified-Since: 32 Foo 99999")));
        out.put("bad If-None-Match", head(e.method(), t, e, List.of("If-None-Match: \"unterminated")));
        out.put("bad If-Match", head(e.method(), t, e, List.of("If-Match: W/x, ,\"")));
        out.put("bad If-Range", head(e.method(), t, e, List.of("If-Range: garbage", "Range: bytes=0-1")));
        out.put("bad Accept", head(e.method(), t, e, List.of("Accept: */*;q=abc, text/;;")));
        out.put("overlong header", head(e.method(), t, e, List.of("X-Long: " + "a".repeat(OVERLONG))));
        out.put("overlong request line", head(e.method(), t + q + "x=" + "a".repeat(OVERLONG), e, List.of()));
        out.put("bad percent-encoding in the query", head(e.method(), t + q + "%zz=%&token=%C3%28%", e, List.of()));
        out.put("invalid UTF-8 in the path", head(e.method(), path + "%C3%28%FF" + query, e, List.of()));
        out.put("raw invalid UTF-8 in the path", head(e.method(), path + "\u00ff\u00fe" + query, e, List.of()));
        out.put("bad percent-encoding in the path", head(e.method(), path + "%zz%" + query, e, List.of()));
        out.put("encoded NUL in the path", head(e.method(), path + "%00" + query, e, List.of()));
        return out;
    }

    private static byte[] head(String method, String target, Endpoint e, List<String> extra) {
        return bytes(method, target, e, extra, null);
    }

    private static byte[] body(String method, String target, Endpoint e, String contentType, String body) {
        List<String> extra = new ArrayList<>();
        extra.add("Content-Type: " + contentType);
        extra.add("Content-Length: " + body.getBytes(StandardCharsets.ISO_8859_1).length);
        return bytes(method, target, e, extra, body);
    }

    private static byte[] bytes(String method, String target, Endpoint e, List<String> extra, String body) {
        StringBuilder sb = new StringBuilder();
        sb.append(method).append(' ').append(target).append(" HTTP/1.1\r\nHost: localhost\r\n");
        e.headers().forEach((n, v) -> sb.append(n).append(": ").append(v).append("\r\n"));
        extra.forEach(h -> sb.append(h).append("\r\n"));
        sb.append("Connection: close\r\n\r\n");
        if (body != null) {
            sb.append(body);
        }
        return sb.toString().getBytes(StandardCharsets.ISO_8859_1);
    }

    /**
     * Sends every variant of every endpoint to {@code port}.
     *
     * @param port the server (the container or the front end), on loopback
     * @param endpoints what to try
     * @return the findings and the number of requests sent
     */
    public Result run(int port, List<Endpoint> endpoints) {
        return run(port, endpoints, UnaryOperator.identity());
    }

    /**
     * As {@link #run(int, List)}, each request passed through {@code edit} first (to add a front end's marker).
     *
     * @param port the server
     * @param endpoints what to try
     * @param edit changes the raw request
     * @return the findings and the number of requests sent
     */
    public Result run(int port, List<Endpoint> endpoints, UnaryOperator<byte[]> edit) {
        Map<String, byte[]> all = new LinkedHashMap<>();
        for (Endpoint e : endpoints) {
            boolean withBodies = e.method().equals("POST") || e == endpoints.get(0);
            variants(e, withBodies).forEach((name, raw) -> all.put(e + ": " + name, raw));
        }
        List<Finding> findings = java.util.Collections.synchronizedList(new ArrayList<>());
        Map<Integer, Integer> statuses = new java.util.concurrent.ConcurrentSkipListMap<>();
        Map<String, Long> times = new java.util.concurrent.ConcurrentHashMap<>();
        // a few connections at a time: the servers wait on closing connections, not on the CPU
        ExecutorService pool = Executors.newFixedThreadPool(PARALLEL);
        try {
            List<Future<?>> sent = new ArrayList<>();
            for (Map.Entry<String, byte[]> v : all.entrySet()) {
                sent.add(pool.submit(() -> {
                    long start = System.nanoTime();
                    byte[] answer = exchange(port, edit.apply(v.getValue()));
                    times.put(v.getKey(), (System.nanoTime() - start) / 1_000_000);
                    RawHttp.Response r;
                    try {
                        r = RawHttp.Response.parse(startsWith(v.getValue(), "HEAD ") ? "HEAD" : "GET", answer);
                    } catch (RuntimeException truncated) {
                        // a chunked body cut at MAX_ANSWER: the head is what counts
                        r = RawHttp.Response.parse("HEAD", answer);
                    }
                    statuses.merge(r.status(), 1, Integer::sum);
                    check(v.getKey(), r, answer).ifPresent(findings::add);
                }));
            }
            for (Future<?> f : sent) {
                f.get();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        } catch (ExecutionException e) {
            throw new IllegalStateException(e.getCause());
        } finally {
            pool.shutdownNow();
        }
        List<String> slowest = times.entrySet().stream().sorted(Map.Entry.<String, Long>comparingByValue().reversed())
                .limit(5).map(t -> t.getKey() + " " + t.getValue() + " ms").toList();
        return new Result(all.size(), List.copyOf(findings), new java.util.TreeMap<>(statuses), slowest);
    }

    private java.util.Optional<Finding> check(String name, RawHttp.Response r, byte[] answer) {
        String text = new String(answer, StandardCharsets.ISO_8859_1);
        String problem = null;
        // RFC 9110 9.1: an unrecognized method (methods are case-sensitive) is well-formed, and 501 is its answer
        if (r.status() >= 500 && !(r.status() == 501
                && (name.endsWith(": " + UNKNOWN_METHOD) || name.endsWith(": " + LOWER_CASE_METHOD)))) {
            problem = "5xx";
        } else if (STACK.matcher(text).find()) {
            problem = "a stack trace";
        } else if (VERSION.matcher(text).find()) {
            problem = "a server version";
        } else {
            for (String f : forbidden) {
                if (text.contains(f)) {
                    problem = "contains " + f;
                    break;
                }
            }
        }
        if (problem == null) {
            return java.util.Optional.empty();
        }
        String shown = text.length() > 600 ? text.substring(0, 600) + "..." : text;
        return java.util.Optional.of(new Finding(name, r.statusLine(), problem + " in: " + shown));
    }

    private static boolean startsWith(byte[] b, String prefix) {
        byte[] p = prefix.getBytes(StandardCharsets.ISO_8859_1);
        return b.length >= p.length && Arrays.equals(b, 0, p.length, p, 0, p.length);
    }

    /**
     * Writes the request and reads until the server closes, or the first {@value #MAX_ANSWER} bytes; a server that
     * answers and closes before it read a huge body resets the connection: what arrived is kept, and a write that
     * fails after that counts as answered.
     */
    static byte[] exchange(int port, byte[] raw) {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress("127.0.0.1", port), RawHttp.TIMEOUT_MILLIS);
            socket.setSoTimeout(RawHttp.TIMEOUT_MILLIS);
            ByteArrayOutputStream all = new ByteArrayOutputStream();
            InputStream in = socket.getInputStream();
            try {
                OutputStream out = socket.getOutputStream();
                out.write(raw);
                out.flush();
            } catch (SocketException writeFailed) {
                // the server answered early and closed: read what it sent
            }
            byte[] buf = new byte[64 * 1024];
            try {
                int n;
                // a head and an error page fit; of a file answered 200 the rest is the file's own bytes
                while (all.size() < MAX_ANSWER && (n = in.read(buf)) >= 0) {
                    all.write(buf, 0, n);
                }
            } catch (SocketException reset) {
                // a reset after the answer: keep what arrived
            }
            return all.toByteArray();
        } catch (IOException e) {
            throw new UncheckedIOException("request to 127.0.0.1:" + port + " failed: " + e, e);
        }
    }
}
