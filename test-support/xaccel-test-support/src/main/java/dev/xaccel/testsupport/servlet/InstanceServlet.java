package dev.xaccel.testsupport.servlet;

import java.io.IOException;

import jakarta.servlet.Servlet;
import jakarta.servlet.ServletConfig;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletRequest;
import jakarta.servlet.ServletResponse;

/** A servlet of the test's {@code WebApp} given as an instance, declared in web.xml by this class and its id. */
public final class InstanceServlet implements Servlet {

    private Servlet delegate;

    @Override
    public void init(ServletConfig config) throws ServletException {
        delegate = Instances.get(config.getInitParameter(Instances.PARAM), Servlet.class);
        delegate.init(config);
    }

    @Override
    public ServletConfig getServletConfig() {
        return delegate.getServletConfig();
    }

    @Override
    public void service(ServletRequest request, ServletResponse response) throws ServletException, IOException {
        delegate.service(request, response);
    }

    @Override
    public String getServletInfo() {
        return delegate.getServletInfo();
    }

    @Override
    public void destroy() {
        delegate.destroy();
    }
}
