package dev.xaccel.testsupport.servlet;

import java.io.IOException;

import jakarta.servlet.Filter;
import jakarta.servlet.FilterChain;
import jakarta.servlet.FilterConfig;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletRequest;
import jakarta.servlet.ServletResponse;

/** A filter of the test's {@code WebApp} given as an instance, declared in web.xml by this class and its id. */
public final class InstanceFilter implements Filter {

    private Filter delegate;

    @Override
    public void init(FilterConfig config) throws ServletException {
        delegate = Instances.get(config.getInitParameter(Instances.PARAM), Filter.class);
        delegate.init(config);
    }

    @Override
    public void doFilter(ServletRequest request, ServletResponse response, FilterChain chain) throws IOException,
            ServletException {
        delegate.doFilter(request, response, chain);
    }

    @Override
    public void destroy() {
        delegate.destroy();
    }
}
