package dev.xaccel.bench.hotpath;

import java.io.IOException;
import java.lang.reflect.Proxy;
import java.util.Arrays;
import java.util.Collection;
import java.util.Collections;
import java.util.Enumeration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import jakarta.servlet.DispatcherType;
import jakarta.servlet.ServletContext;
import jakarta.servlet.ServletOutputStream;
import jakarta.servlet.WriteListener;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletRequestWrapper;
import jakarta.servlet.http.HttpServletResponse;
import jakarta.servlet.http.HttpServletResponseWrapper;

/**
 * Minimal, allocation-free servlet objects for the JMH benchmark: the methods a filter calls on the hot path are
 * plain field reads; everything else falls through to a proxy that answers null/0/false and counts the calls
 * ({@link #fallbackCalls}), so a benchmark can tell whether it measured stub overhead.
 */
final class Stubs {

    /** Calls that reached a proxy (a method not overridden below). */
    static long fallbackCalls;

    private Stubs() {
    }

    @SuppressWarnings("unchecked")
    static <T> T fallback(Class<T> type) {
        return (T) Proxy.newProxyInstance(Stubs.class.getClassLoader(), new Class<?>[] {type}, (p, m, a) -> {
            fallbackCalls++;
            Class<?> r = m.getReturnType();
            if (r == boolean.class) {
                return false;
            }
            if (r == int.class) {
                return 0;
            }
            if (r == long.class) {
                return 0L;
            }
            if (r == Enumeration.class) {
                return Collections.emptyEnumeration();
            }
            if (m.getName().equals("toString")) {
                return type.getSimpleName() + "Stub";
            }
            if (m.getName().equals("hashCode")) {
                return System.identityHashCode(p);
            }
            if (m.getName().equals("equals")) {
                return p == a[0];
            }
            return null;
        });
    }

    /** A ServletContext whose MIME map and attributes are real, the rest answered by {@link #fallback}. */
    static ServletContext context(String contextPath) {
        Map<String, String> mime = Map.of("jpg", "image/jpeg", "mp3", "audio/mpeg", "bin",
                "application/octet-stream");
        Map<String, Object> attributes = new HashMap<>();
        ServletContext base = fallback(ServletContext.class);
        return (ServletContext) Proxy.newProxyInstance(Stubs.class.getClassLoader(),
                new Class<?>[] {ServletContext.class}, (p, m, a) -> switch (m.getName()) {
                    case "getContextPath" -> contextPath;
                    case "getMimeType" -> {
                        String f = (String) a[0];
                        int dot = f.lastIndexOf('.');
                        yield dot < 0 ? null : mime.get(f.substring(dot + 1));
                    }
                    case "getAttribute" -> attributes.get((String) a[0]);
                    case "setAttribute" -> attributes.put((String) a[0], a[1]);
                    case "getServerInfo" -> "stub";
                    case "getMajorVersion" -> 6;
                    case "getMinorVersion" -> 1;
                    case "getEffectiveMajorVersion" -> 6;
                    case "getEffectiveMinorVersion" -> 1;
                    default -> m.invoke(base, a);
                });
    }

    /**
     * Header storage that, like a container's recycled header table, allocates nothing per request: parallel
     * arrays searched with {@code equalsIgnoreCase}; a {@code null} value removes the header. One value per name.
     */
    static final class Headers {
        private final String[] names = new String[32];
        private final String[] values = new String[32];
        private int size;

        String get(String name) {
            for (int i = 0; i < size; i++) {
                if (names[i].equalsIgnoreCase(name)) {
                    return values[i];
                }
            }
            return null;
        }

        void set(String name, String value) {
            for (int i = 0; i < size; i++) {
                if (names[i].equalsIgnoreCase(name)) {
                    if (value == null) {
                        size--;
                        names[i] = names[size];
                        values[i] = values[size];
                    } else {
                        values[i] = value;
                    }
                    return;
                }
            }
            if (value != null) {
                names[size] = name;
                values[size++] = value;
            }
        }

        List<String> names() {
            return List.copyOf(Arrays.asList(names).subList(0, size));
        }

        void clear() {
            size = 0;
        }
    }

    /** A GET request; reusable: {@link #reset()} clears what a filter may have set. */
    static final class Request extends HttpServletRequestWrapper {
        private final ServletContext context;
        private final String contextPath;
        private final String servletPath;
        private final String pathInfo;
        private final String remoteAddr;
        private final Headers headers = new Headers();
        private final Map<String, Object> attributes = new HashMap<>();

        Request(ServletContext context, String contextPath, String servletPath, String pathInfo,
                String remoteAddr) {
            super(fallback(HttpServletRequest.class));
            this.context = context;
            this.contextPath = contextPath;
            this.servletPath = servletPath;
            this.pathInfo = pathInfo;
            this.remoteAddr = remoteAddr;
        }

        Request header(String name, String value) {
            headers.set(name, value);
            return this;
        }

        void reset() {
            attributes.clear();
        }

        @Override
        public String getMethod() {
            return "GET";
        }

        @Override
        public String getProtocol() {
            return "HTTP/1.1";
        }

        @Override
        public String getScheme() {
            return "http";
        }

        @Override
        public String getContextPath() {
            return contextPath;
        }

        @Override
        public String getServletPath() {
            return servletPath;
        }

        @Override
        public String getPathInfo() {
            return pathInfo;
        }

        @Override
        public String getRequestURI() {
            return contextPath + servletPath + (pathInfo == null ? "" : pathInfo);
        }

        @Override
        public String getQueryString() {
            return null;
        }

        @Override
        public String getRemoteAddr() {
            return remoteAddr;
        }

        /** A TCP peer's port (the filter takes ports 0 at both ends for a Unix domain socket). */
        @Override
        public int getRemotePort() {
            return 54321;
        }

        @Override
        public int getLocalPort() {
            return 8080;
        }

        @Override
        public String getHeader(String name) {
            return headers.get(name);
        }

        @Override
        public Enumeration<String> getHeaders(String name) {
            String v = getHeader(name);
            return v == null ? Collections.emptyEnumeration() : Collections.enumeration(List.of(v));
        }

        @Override
        public Object getAttribute(String name) {
            return attributes.get(name);
        }

        @Override
        public void setAttribute(String name, Object o) {
            attributes.put(name, o);
        }

        @Override
        public void removeAttribute(String name) {
            attributes.remove(name);
        }

        @Override
        public DispatcherType getDispatcherType() {
            return DispatcherType.REQUEST;
        }

        @Override
        public ServletContext getServletContext() {
            return context;
        }

        @Override
        public boolean isAsyncStarted() {
            return false;
        }
    }

    /** A response that records headers; reusable through {@link #reset()}. */
    static final class Response extends HttpServletResponseWrapper {
        private final Headers headers = new Headers();
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

        Response() {
            super(fallback(HttpServletResponse.class));
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
}
