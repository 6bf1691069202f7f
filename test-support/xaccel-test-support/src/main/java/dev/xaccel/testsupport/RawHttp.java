package dev.xaccel.testsupport;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * A deliberately dumb HTTP/1.1 client: the request line is written byte for byte as given (no client
 * normalizes or re-encodes it), one request per connection ({@code Connection: close}), and the
 * response is parsed without interpretation so duplicated headers stay visible.
 */
public final class RawHttp {

    public static final int TIMEOUT_MILLIS = 15_000;

    private RawHttp() {
    }

    /** A request; {@code target} is sent verbatim in the request line. */
    public static final class Request {
        private final String method;
        private final String target;
        private final List<String[]> headers = new ArrayList<>();

        private Request(String method, String target) {
            this.method = method;
            this.target = target;
        }

        public Request header(String name, String value) {
            headers.add(new String[] {name, value});
            return this;
        }

        public Request headers(Map<String, String> all) {
            all.forEach(this::header);
            return this;
        }

        public String method() {
            return method;
        }

        public String target() {
            return target;
        }

        public byte[] bytes() {
            StringBuilder sb = new StringBuilder();
            sb.append(method).append(' ').append(target).append(" HTTP/1.1\r\n");
            boolean host = false;
            for (String[] h : headers) {
                host |= h[0].equalsIgnoreCase("Host");
                sb.append(h[0]).append(": ").append(h[1]).append("\r\n");
            }
            if (!host) {
                sb.append("Host: localhost\r\n");
            }
            sb.append("Connection: close\r\n\r\n");
            // ISO-8859-1 keeps every char < 256 as one byte: callers pass raw bytes as chars if they must.
            return sb.toString().getBytes(StandardCharsets.ISO_8859_1);
        }

        public Response send(int port) {
            return RawHttp.send(port, method, bytes());
        }
    }

    public static Request get(String target) {
        return new Request("GET", target);
    }

    public static Request head(String target) {
        return new Request("HEAD", target);
    }

    public static Request request(String method, String target) {
        return new Request(method, target);
    }

    /** Sends raw bytes and reads until the server closes the connection. */
    public static Response send(int port, String method, byte[] raw) {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress("127.0.0.1", port), TIMEOUT_MILLIS);
            socket.setSoTimeout(TIMEOUT_MILLIS);
            OutputStream out = socket.getOutputStream();
            out.write(raw);
            out.flush();
            InputStream in = socket.getInputStream();
            ByteArrayOutputStream all = new ByteArrayOutputStream();
            byte[] buf = new byte[64 * 1024];
            int n;
            try {
                while ((n = in.read(buf)) >= 0) {
                    all.write(buf, 0, n);
                }
            } catch (java.net.SocketException reset) {
                // A server may reset after answering an invalid request: keep what arrived.
                if (all.size() == 0) {
                    throw reset;
                }
            }
            return Response.parse(method, all.toByteArray());
        } catch (IOException e) {
            throw new UncheckedIOException("request to 127.0.0.1:" + port + " failed: " + e, e);
        }
    }

    /** A parsed response; {@link #raw()} keeps every received byte. */
    public static final class Response {
        private final int status;
        private final String statusLine;
        private final List<String[]> headers;
        private final byte[] body;
        private final byte[] raw;

        private Response(int status, String statusLine, List<String[]> headers, byte[] body, byte[] raw) {
            this.status = status;
            this.statusLine = statusLine;
            this.headers = headers;
            this.body = body;
            this.raw = raw;
        }

        public static Response parse(String method, byte[] raw) {
            int end = indexOf(raw, "\r\n\r\n".getBytes(StandardCharsets.ISO_8859_1), 0);
            if (end < 0) {
                return new Response(-1, "<no response head>", List.of(), raw, raw);
            }
            String head = new String(raw, 0, end, StandardCharsets.ISO_8859_1);
            String[] lines = head.split("\r\n");
            String statusLine = lines[0];
            String[] parts = statusLine.split(" ", 3);
            int status = parts.length > 1 ? Integer.parseInt(parts[1]) : -1;
            List<String[]> headers = new ArrayList<>();
            for (int i = 1; i < lines.length; i++) {
                int colon = lines[i].indexOf(':');
                headers.add(new String[] {lines[i].substring(0, colon).trim(),
                        lines[i].substring(colon + 1).trim()});
            }
            byte[] rest = Arrays.copyOfRange(raw, end + 4, raw.length);
            Response r = new Response(status, statusLine, headers, rest, raw);
            byte[] body;
            if (method.equals("HEAD") || status == 204 || status == 304 || status / 100 == 1) {
                body = rest;
            } else if ("chunked".equalsIgnoreCase(r.header("Transfer-Encoding"))) {
                body = dechunk(rest);
            } else if (r.header("Content-Length") != null) {
                int length = Integer.parseInt(r.header("Content-Length"));
                body = Arrays.copyOf(rest, Math.min(length, rest.length));
            } else {
                body = rest;
            }
            return new Response(status, statusLine, headers, body, raw);
        }

        public int status() {
            return status;
        }

        public String statusLine() {
            return statusLine;
        }

        /** First value of a header (case-insensitive name), or null. */
        public String header(String name) {
            for (String[] h : headers) {
                if (h[0].equalsIgnoreCase(name)) {
                    return h[1];
                }
            }
            return null;
        }

        /** Every value of a header, in order. */
        public List<String> headers(String name) {
            List<String> values = new ArrayList<>();
            for (String[] h : headers) {
                if (h[0].equalsIgnoreCase(name)) {
                    values.add(h[1]);
                }
            }
            return values;
        }

        public List<String> headerNames() {
            List<String> names = new ArrayList<>();
            for (String[] h : headers) {
                names.add(h[0].toLowerCase(Locale.ROOT));
            }
            return names;
        }

        public byte[] body() {
            return body;
        }

        public String bodyText() {
            return new String(body, StandardCharsets.UTF_8);
        }

        public byte[] raw() {
            return raw;
        }

        @Override
        public String toString() {
            StringBuilder sb = new StringBuilder(statusLine);
            for (String[] h : headers) {
                sb.append(" | ").append(h[0]).append(": ").append(h[1]);
            }
            sb.append(" | body ").append(body.length).append(" bytes");
            if (body.length > 0 && body.length < 300) {
                sb.append(": ").append(new String(body, StandardCharsets.ISO_8859_1).replace("\r\n", "\\r\\n"));
            }
            return sb.toString();
        }
    }

    public static byte[] dechunk(byte[] in) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        int pos = 0;
        while (pos < in.length) {
            int eol = indexOf(in, new byte[] {'\r', '\n'}, pos);
            if (eol < 0) {
                break;
            }
            String sizeLine = new String(in, pos, eol - pos, StandardCharsets.ISO_8859_1);
            int semi = sizeLine.indexOf(';');
            int size = Integer.parseInt((semi >= 0 ? sizeLine.substring(0, semi) : sizeLine).trim(), 16);
            pos = eol + 2;
            if (size == 0) {
                break;
            }
            int n = Math.min(size, in.length - pos);
            out.write(in, pos, n);
            pos += size + 2;
        }
        return out.toByteArray();
    }

    public static int indexOf(byte[] haystack, byte[] needle, int from) {
        outer:
        for (int i = Math.max(from, 0); i <= haystack.length - needle.length; i++) {
            for (int j = 0; j < needle.length; j++) {
                if (haystack[i + j] != needle[j]) {
                    continue outer;
                }
            }
            return i;
        }
        return -1;
    }

    /** One part of a {@code multipart/byteranges} body. */
    public record Part(String contentType, String contentRange, byte[] data) {
    }

    /** Splits a {@code multipart/byteranges} body using the boundary from its Content-Type. */
    public static List<Part> byteranges(Response r) {
        String type = r.header("Content-Type");
        if (type == null || !type.toLowerCase(Locale.ROOT).startsWith("multipart/byteranges")) {
            throw new AssertionError("not multipart/byteranges: " + r);
        }
        int b = type.indexOf("boundary=");
        String boundary = type.substring(b + "boundary=".length()).trim();
        if (boundary.startsWith("\"")) {
            boundary = boundary.substring(1, boundary.indexOf('"', 1));
        }
        byte[] delimiter = ("--" + boundary).getBytes(StandardCharsets.ISO_8859_1);
        byte[] body = r.body();
        List<Part> parts = new ArrayList<>();
        int pos = indexOf(body, delimiter, 0);
        while (pos >= 0) {
            int after = pos + delimiter.length;
            if (after + 1 < body.length && body[after] == '-' && body[after + 1] == '-') {
                break;
            }
            int headEnd = indexOf(body, "\r\n\r\n".getBytes(StandardCharsets.ISO_8859_1), after);
            String head = new String(body, after, headEnd - after, StandardCharsets.ISO_8859_1);
            String contentType = null;
            String contentRange = null;
            for (String line : head.split("\r\n")) {
                int colon = line.indexOf(':');
                if (colon < 0) {
                    continue;
                }
                String name = line.substring(0, colon).trim();
                String value = line.substring(colon + 1).trim();
                if (name.equalsIgnoreCase("Content-Type")) {
                    contentType = value;
                } else if (name.equalsIgnoreCase("Content-Range")) {
                    contentRange = value;
                }
            }
            int next = indexOf(body, ("\r\n--" + boundary).getBytes(StandardCharsets.ISO_8859_1), headEnd + 4);
            if (next < 0) {
                throw new AssertionError("unterminated multipart part in " + r);
            }
            parts.add(new Part(contentType, contentRange, Arrays.copyOfRange(body, headEnd + 4, next)));
            pos = next + 2;
        }
        return parts;
    }
}
