package dev.xaccel.filter.internal.delivery;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.Writer;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.logging.Logger;

import jakarta.servlet.ServletOutputStream;
import jakarta.servlet.WriteListener;
import jakarta.servlet.http.HttpServletResponse;
import jakarta.servlet.http.HttpServletResponseWrapper;

import dev.xaccel.filter.internal.util.Messages;

/**
 * Response wrapper used in declared mode.
 * <ul>
 * <li>Always: offload headers ({@code X-Accel-*}, {@code X-Sendfile*}, {@code X-LIGHTTPD-send-file}) set by
 * downstream code are dropped, with one WARNING per header name and filter.</li>
 * <li>Once a file is declared: body bytes are discarded, {@code flushBuffer()} and {@code Content-Length} are
 * ignored (nothing gets committed), and validators, range and transfer headers ({@code ETag},
 * {@code Last-Modified}, {@code Accept-Ranges}, {@code Content-Range}, {@code Content-Encoding},
 * {@code Transfer-Encoding}) are dropped, because the filter answers for the file.</li>
 * </ul>
 * The real output stream or writer is obtained lazily on the first byte written before a declaration, so a
 * downstream {@code getWriter()} call alone does not prevent the filter from streaming the file.
 */
public final class OffloadResponseWrapper extends HttpServletResponseWrapper {

    private static final Logger LOG = Logger.getLogger(OffloadResponseWrapper.class.getName());

    /** The offload header names already warned about, per filter instance (one WARNING each). */
    public static final class Warnings {
        private final Set<String> warned = ConcurrentHashMap.newKeySet();

        /** @return true the first time for this lower-case name */
        public boolean first(String lowerCaseName) {
            return warned.add(lowerCaseName);
        }
    }

    private final java.util.function.BooleanSupplier declared;
    private final Warnings warned;
    private GatedOutputStream stream;
    private PrintWriter writer;
    private boolean bodyWritten;

    /** @param declared whether a file has been declared for this response (from then on it answers for the file) */
    public OffloadResponseWrapper(HttpServletResponse response, java.util.function.BooleanSupplier declared,
            Warnings warnings) {
        super(response);
        this.declared = declared;
        this.warned = warnings;
    }

    /** Whether downstream code wrote body bytes to the real response (before any declaration). */
    public boolean bodyWritten() {
        return bodyWritten;
    }

    public static boolean isOffloadHeader(String name) {
        if (name == null) {
            return false;
        }
        String n = name.toLowerCase(Locale.ROOT);
        return n.startsWith("x-accel-") || n.startsWith("x-sendfile") || n.equals("x-lighttpd-send-file");
    }

    /**
     * Validators, range and transfer headers that only the delivery of the file may set: ignored once a file is
     * declared, and removed before delivery (downstream code may have set them earlier). A compressing filter's
     * {@code Content-Encoding} would make clients decode the raw file.
     */
    public static final List<String> FILE_MANAGED_HEADERS = List.of("ETag", "Last-Modified", "Accept-Ranges",
            "Content-Range", "Content-Encoding", "Transfer-Encoding");

    private static boolean isFileManagedHeader(String name) {
        if (name.equalsIgnoreCase("Content-Length")) {
            return true;
        }
        for (String managed : FILE_MANAGED_HEADERS) {
            if (managed.equalsIgnoreCase(name)) {
                return true;
            }
        }
        return false;
    }

    /** @return true when the header must not reach the real response */
    private boolean blocked(String name) {
        if (isOffloadHeader(name)) {
            String key = name.toLowerCase(Locale.ROOT);
            if (warned.first(key)) {
                LOG.warning(Messages.get("wrapper.headerBlocked", name));
            }
            return true;
        }
        return name != null && declared.getAsBoolean() && isFileManagedHeader(name);
    }

    @Override
    public void setHeader(String name, String value) {
        if (!blocked(name)) {
            super.setHeader(name, value);
        }
    }

    @Override
    public void addHeader(String name, String value) {
        if (!blocked(name)) {
            super.addHeader(name, value);
        }
    }

    @Override
    public void setIntHeader(String name, int value) {
        if (!blocked(name)) {
            super.setIntHeader(name, value);
        }
    }

    @Override
    public void addIntHeader(String name, int value) {
        if (!blocked(name)) {
            super.addIntHeader(name, value);
        }
    }

    @Override
    public void setDateHeader(String name, long date) {
        if (!blocked(name)) {
            super.setDateHeader(name, date);
        }
    }

    @Override
    public void addDateHeader(String name, long date) {
        if (!blocked(name)) {
            super.addDateHeader(name, date);
        }
    }

    @Override
    public void setContentLength(int len) {
        if (!declared.getAsBoolean()) {
            super.setContentLength(len);
        }
    }

    @Override
    public void setContentLengthLong(long len) {
        if (!declared.getAsBoolean()) {
            super.setContentLengthLong(len);
        }
    }

    @Override
    public void flushBuffer() throws IOException {
        if (!declared.getAsBoolean()) {
            super.flushBuffer();
        }
    }

    @Override
    public ServletOutputStream getOutputStream() throws IOException {
        if (writer != null) {
            throw new IllegalStateException(Messages.get("wrapper.writerInUse"));
        }
        if (stream == null) {
            stream = new GatedOutputStream();
        }
        return stream;
    }

    @Override
    public PrintWriter getWriter() throws IOException {
        if (stream != null) {
            throw new IllegalStateException(Messages.get("wrapper.streamInUse"));
        }
        if (writer == null) {
            writer = new PrintWriter(new GatedWriter());
        }
        return writer;
    }

    /** Delegates to the real stream until a file is declared, then discards. */
    private final class GatedOutputStream extends ServletOutputStream {
        private ServletOutputStream real;

        private ServletOutputStream real() throws IOException {
            if (real == null) {
                real = getResponse().getOutputStream();
            }
            return real;
        }

        @Override
        public void write(int b) throws IOException {
            if (!declared.getAsBoolean()) {
                bodyWritten = true;
                real().write(b);
            }
        }

        @Override
        public void write(byte[] b, int off, int len) throws IOException {
            if (!declared.getAsBoolean()) {
                bodyWritten = true;
                real().write(b, off, len);
            }
        }

        @Override
        public void flush() throws IOException {
            if (!declared.getAsBoolean() && real != null) {
                real.flush();
            }
        }

        @Override
        public void close() throws IOException {
            if (!declared.getAsBoolean() && real != null) {
                real.close();
            }
        }

        @Override
        public boolean isReady() {
            if (declared.getAsBoolean()) {
                return true;
            }
            try {
                return real().isReady();
            } catch (IOException e) {
                return false;
            }
        }

        @Override
        public void setWriteListener(WriteListener listener) {
            try {
                real().setWriteListener(listener);
            } catch (IOException e) {
                throw new IllegalStateException(e);
            }
        }
    }

    /** Delegates to the real writer until a file is declared, then discards. */
    private final class GatedWriter extends Writer {
        private PrintWriter real;

        private PrintWriter real() throws IOException {
            if (real == null) {
                real = getResponse().getWriter();
            }
            return real;
        }

        @Override
        public void write(char[] cbuf, int off, int len) throws IOException {
            if (!declared.getAsBoolean()) {
                bodyWritten = true;
                real().write(cbuf, off, len);
            }
        }

        @Override
        public void flush() throws IOException {
            if (!declared.getAsBoolean() && real != null) {
                real.flush();
            }
        }

        @Override
        public void close() throws IOException {
            if (!declared.getAsBoolean() && real != null) {
                real.close();
            }
        }
    }
}
