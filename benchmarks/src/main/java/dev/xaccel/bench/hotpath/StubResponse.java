package dev.xaccel.bench.hotpath;

import java.io.IOException;
import java.util.Collection;
import java.util.List;

import jakarta.servlet.ServletOutputStream;
import jakarta.servlet.WriteListener;
import jakarta.servlet.http.HttpServletResponse;
import jakarta.servlet.http.HttpServletResponseWrapper;

/** A response that records headers; reusable through {@link #reset()}. */
final class StubResponse extends HttpServletResponseWrapper {
    private final StubHeaders headers = new StubHeaders();
    private int status = 200;
    private String contentType;
    private long contentLength = -1;
    private final ServletOutputStream out = new ServletOutputStream() {
        @Override
        public void write(int b) {
            // discarded
        }

        @Override
        public void write(byte[] b, int off, int len) {
            // discarded
        }

        @Override
        public boolean isReady() {
            return true;
        }

        @Override
        public void setWriteListener(WriteListener writeListener) {
            // not used
        }
    };

    StubResponse() {
        super(Stubs.fallback(HttpServletResponse.class));
    }

    @Override
    public void reset() {
        headers.clear();
        status = 200;
        contentType = null;
        contentLength = -1;
    }

    String header(String name) {
        return headers.get(name);
    }

    @Override
    public void setHeader(String name, String value) {
        headers.set(name, value);
    }

    @Override
    public void addHeader(String name, String value) {
        if (headers.get(name) == null) {
            headers.set(name, value);
        }
    }

    @Override
    public boolean containsHeader(String name) {
        return headers.get(name) != null;
    }

    @Override
    public String getHeader(String name) {
        return header(name);
    }

    /** Servlet: never {@code null}, empty when absent (one value per name is all this stub keeps). */
    @Override
    public Collection<String> getHeaders(String name) {
        String v = header(name);
        return v == null ? List.of() : List.of(v);
    }

    @Override
    public Collection<String> getHeaderNames() {
        return headers.names();
    }

    @Override
    public void setDateHeader(String name, long date) {
        setHeader(name, Long.toString(date));
    }

    @Override
    public void setIntHeader(String name, int value) {
        setHeader(name, Integer.toString(value));
    }

    @Override
    public void setStatus(int sc) {
        status = sc;
    }

    @Override
    public int getStatus() {
        return status;
    }

    @Override
    public void sendError(int sc) {
        status = sc;
    }

    @Override
    public void sendError(int sc, String msg) {
        status = sc;
    }

    @Override
    public void setContentType(String type) {
        contentType = type;
    }

    @Override
    public String getContentType() {
        return contentType;
    }

    @Override
    public void setContentLength(int len) {
        contentLength = len;
    }

    @Override
    public void setContentLengthLong(long len) {
        contentLength = len;
    }

    @Override
    public void setCharacterEncoding(String charset) {
        // ignored
    }

    @Override
    public boolean isCommitted() {
        return false;
    }

    @Override
    public void resetBuffer() {
        // nothing buffered
    }

    @Override
    public void flushBuffer() throws IOException {
        // nothing buffered
    }

    @Override
    public ServletOutputStream getOutputStream() {
        return out;
    }

    long contentLength() {
        return contentLength;
    }
}
