package dev.xaccel.testsupport.load;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

/**
 * One GET over its own connection whose body is hashed as it arrives, never held in memory: for downloads of large
 * files that must arrive byte-exact while something happens to the servers (a kill, a reload, a file replaced). The
 * body is read up to the response's {@code Content-Length}; a connection that ends earlier is reported as such
 * ({@link Result#complete()} false), never padded. It can read slowly ({@link #readRate}, to keep a download in
 * flight) and abort ({@link #abortAfter}: close with a reset after that many body bytes, as a user closing the
 * tab). {@link #progress()} counts the body bytes received so far, for a test that waits until downloads are under
 * way.
 */
public final class StreamingGet {

    /**
     * What arrived.
     *
     * @param status        the status code, -1 when no response head arrived
     * @param headers       the response headers (names in lower case; the last value of a repeated header)
     * @param contentLength the announced length, -1 when none
     * @param received      body bytes received
     * @param sha256        hex SHA-256 of the received body bytes
     * @param aborted       the client closed the connection on purpose ({@link #abortAfter})
     * @param error         what ended the download early (a reset, a timeout), or null
     */
    public record Result(int status, Map<String, String> headers, long contentLength, long received, String sha256,
            boolean aborted, String error) {

        /** The whole announced body arrived. */
        public boolean complete() {
            return contentLength >= 0 && received == contentLength && error == null && !aborted;
        }

        @Override
        public String toString() {
            return "status " + status + ", " + received + " of " + contentLength + " bytes"
                    + (aborted ? ", aborted" : "") + (error == null ? "" : ", " + error);
        }
    }

    private final int port;
    private final String target;
    private final Map<String, String> requestHeaders = new LinkedHashMap<>();
    private long readRate;
    private long abortAfter = -1;
    private int timeoutMillis = 30_000;
    private int receiveBuffer;
    private final AtomicLong progress = new AtomicLong();

    private StreamingGet(int port, String target) {
        this.port = port;
        this.target = target;
    }

    /** A GET of {@code target} (sent verbatim) at 127.0.0.1:{@code port}. */
    public static StreamingGet of(int port, String target) {
        return new StreamingGet(port, target);
    }

    public StreamingGet header(String name, String value) {
        requestHeaders.put(name, value);
        return this;
    }

    /** Reads at most about {@code bytesPerSecond} (0: as fast as it comes). */
    public StreamingGet readRate(long bytesPerSecond) {
        this.readRate = bytesPerSecond;
        return this;
    }

    /** Closes the connection with a reset once {@code bytes} of the body have arrived. */
    public StreamingGet abortAfter(long bytes) {
        this.abortAfter = bytes;
        return this;
    }

    /**
     * A small receive buffer (set before connecting, so the TCP window stays small): the server cannot push far
     * ahead of what the client read, so an abort finds it in the middle of sending.
     */
    public StreamingGet receiveBuffer(int bytes) {
        this.receiveBuffer = bytes;
        return this;
    }

    /** The read timeout (default 30 s). */
    public StreamingGet timeoutMillis(int millis) {
        this.timeoutMillis = millis;
        return this;
    }

    /** Body bytes received so far (while {@link #run()} runs in another thread). */
    public long progress() {
        return progress.get();
    }

    /** Sends the request and reads the answer; never throws for what the server did (see {@link Result#error}). */
    public Result run() {
        MessageDigest sha = sha256();
        int status = -1;
        Map<String, String> headers = new LinkedHashMap<>();
        long length = -1;
        long received = 0;
        try (Socket socket = new Socket()) {
            if (receiveBuffer > 0) {
                socket.setReceiveBufferSize(receiveBuffer);
            }
            socket.connect(new InetSocketAddress("127.0.0.1", port), 10_000);
            socket.setSoTimeout(timeoutMillis);
            if (readRate > 0) {
                socket.setReceiveBufferSize(64 * 1024);
            }
            OutputStream out = socket.getOutputStream();
            out.write(request());
            out.flush();
            InputStream in = socket.getInputStream();
            String head = readHead(in);
            if (head == null) {
                return new Result(-1, headers, -1, 0, hex(sha), false, "no response head");
            }
            String[] lines = head.split("\r\n");
            String[] statusLine = lines[0].split(" ", 3);
            status = Integer.parseInt(statusLine[1]);
            for (int i = 1; i < lines.length; i++) {
                int colon = lines[i].indexOf(':');
                if (colon > 0) {
                    headers.put(lines[i].substring(0, colon).trim().toLowerCase(Locale.ROOT),
                            lines[i].substring(colon + 1).trim());
                }
            }
            length = headers.containsKey("content-length") ? Long.parseLong(headers.get("content-length")) : -1;
            byte[] buf = new byte[readRate > 0 ? (int) Math.max(1024, Math.min(64 * 1024, readRate / 20)) : 64 * 1024];
            long started = System.nanoTime();
            while (length < 0 || received < length) {
                int want = (int) (length < 0 ? buf.length : Math.min(buf.length, length - received));
                if (abortAfter >= 0) {
                    if (received >= abortAfter) {
                        socket.setSoLinger(true, 0);
                        return new Result(status, headers, length, received, hex(sha), true, null);
                    }
                    want = (int) Math.max(1, Math.min(want, abortAfter - received));
                }
                int n = in.read(buf, 0, want);
                if (n < 0) {
                    break;
                }
                sha.update(buf, 0, n);
                received += n;
                progress.addAndGet(n);
                if (readRate > 0) {
                    pace(started, received);
                }
            }
            String error = length >= 0 && received < length ? "connection closed after " + received + " of "
                    + length + " bytes" : null;
            return new Result(status, headers, length, received, hex(sha), false, error);
        } catch (IOException | RuntimeException e) {
            return new Result(status, headers, length, received, hex(sha), false, e.toString());
        }
    }

    private void pace(long started, long received) {
        long due = started + received * 1_000_000_000L / readRate;
        long wait = due - System.nanoTime();
        if (wait > 0) {
            try {
                Thread.sleep(wait / 1_000_000L, (int) (wait % 1_000_000L));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    private byte[] request() {
        StringBuilder sb = new StringBuilder("GET ").append(target).append(" HTTP/1.1\r\nHost: localhost\r\n");
        requestHeaders.forEach((n, v) -> sb.append(n).append(": ").append(v).append("\r\n"));
        sb.append("Connection: close\r\n\r\n");
        return sb.toString().getBytes(StandardCharsets.ISO_8859_1);
    }

    /** The response head up to the blank line (without it), byte by byte so no body byte is consumed. */
    private static String readHead(InputStream in) throws IOException {
        StringBuilder sb = new StringBuilder();
        int state = 0;
        while (true) {
            int b = in.read();
            if (b < 0) {
                return null;
            }
            sb.append((char) b);
            state = (b == '\r' && (state == 0 || state == 2)) ? state + 1
                    : (b == '\n' && (state == 1 || state == 3)) ? state + 1 : 0;
            if (state == 4) {
                return sb.substring(0, sb.length() - 4);
            }
        }
    }

    /** Hex SHA-256 of a whole file, for comparing with {@link Result#sha256()}. */
    public static String sha256(java.nio.file.Path file) throws IOException {
        MessageDigest sha = sha256();
        try (InputStream in = java.nio.file.Files.newInputStream(file)) {
            byte[] buf = new byte[1 << 16];
            int n;
            while ((n = in.read(buf)) > 0) {
                sha.update(buf, 0, n);
            }
        }
        return hex(sha);
    }

    /** Hex SHA-256 of bytes. */
    public static String sha256(byte[] bytes) {
        MessageDigest sha = sha256();
        sha.update(bytes);
        return hex(sha);
    }

    private static MessageDigest sha256() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    private static String hex(MessageDigest sha) {
        return HexFormat.of().formatHex(sha.digest());
    }
}
