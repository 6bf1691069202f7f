package dev.xaccel.suite;

import jakarta.servlet.Filter;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletOutputStream;
import jakarta.servlet.ServletRequest;
import jakarta.servlet.ServletResponse;
import jakarta.servlet.WriteListener;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import jakarta.servlet.http.HttpServletResponseWrapper;
import java.io.IOException;

/**
 * Stands in for an application filter that replaces the response's output stream (a compressing or counting
 * filter): on requests with {@code X-Test-Wrap-Stream: 1} the XAccelFilter, mapped after it, gets a response whose
 * stream is this filter's own, which passes every byte on unchanged. Inert otherwise.
 */
public final class StreamWrappingFilter implements Filter {

    /** The request header that turns the wrapping on. */
    public static final String HEADER = "X-Test-Wrap-Stream";

    @Override
    public void doFilter(ServletRequest request, ServletResponse response, FilterChain chain)
            throws IOException, ServletException {
        if (!"1".equals(((HttpServletRequest) request).getHeader(HEADER))) {
            chain.doFilter(request, response);
            return;
        }
        HttpServletResponse resp = (HttpServletResponse) response;
        ServletOutputStream inner = resp.getOutputStream();
        ServletOutputStream passing = new ServletOutputStream() {
            @Override
            public void write(int b) throws IOException {
                inner.write(b);
            }

            @Override
            public void write(byte[] b, int off, int len) throws IOException {
                inner.write(b, off, len);
            }

            @Override
            public void flush() throws IOException {
                inner.flush();
            }

            @Override
            public boolean isReady() {
                return inner.isReady();
            }

            @Override
            public void setWriteListener(WriteListener listener) {
                inner.setWriteListener(listener);
            }
        };
        chain.doFilter(request, new HttpServletResponseWrapper(resp) {
            @Override
            public ServletOutputStream getOutputStream() {
                return passing;
            }
        });
    }
}
