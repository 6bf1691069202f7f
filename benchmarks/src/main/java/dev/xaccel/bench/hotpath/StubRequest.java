package dev.xaccel.bench.hotpath;

import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.Collections;
import java.util.Enumeration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import jakarta.servlet.DispatcherType;
import jakarta.servlet.ServletContext;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletRequestWrapper;

/** A GET request; reusable: {@link #reset()} clears what a filter may have set. */
final class StubRequest extends HttpServletRequestWrapper {
    private final ServletContext context;
    private final String contextPath;
    private final String servletPath;
    private final String pathInfo;
    private final String remoteAddr;
    private final StubHeaders headers = new StubHeaders();
    private final Map<String, Object> attributes = new HashMap<>();

    StubRequest(ServletContext context, String contextPath, String servletPath, String pathInfo,
            String remoteAddr) {
        super(Stubs.fallback(HttpServletRequest.class));
        this.context = context;
        this.contextPath = contextPath;
        this.servletPath = servletPath;
        this.pathInfo = pathInfo;
        this.remoteAddr = remoteAddr;
    }

    StubRequest header(String name, String value) {
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

    /** As the Servlet API says: -1 when absent (the fallback's 0 would be a date, 1970, for the preconditions). */
    @Override
    public long getDateHeader(String name) {
        String v = getHeader(name);
        if (v == null) {
            return -1;
        }
        try {
            return ZonedDateTime.parse(v, DateTimeFormatter.RFC_1123_DATE_TIME).toInstant().toEpochMilli();
        } catch (DateTimeParseException e) {
            throw new IllegalArgumentException(v, e);
        }
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
