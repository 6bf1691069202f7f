package dev.xaccel.testsupport.servlet;

import jakarta.servlet.FilterConfig;
import jakarta.servlet.ServletContext;
import java.util.Collections;
import java.util.Enumeration;
import java.util.LinkedHashMap;
import java.util.Map;

/** A FilterConfig for calling {@code Filter.init} directly: a name, init-params (in order) and a ServletContext. */
public final class TestFilterConfig implements FilterConfig {

    private final String name;
    private final Map<String, String> params;
    private final ServletContext context;

    /** @param context may be null for filters that do not ask for it */
    public TestFilterConfig(String name, Map<String, String> params, ServletContext context) {
        this.name = name;
        this.params = new LinkedHashMap<>(params);
        this.context = context;
    }

    @Override
    public String getFilterName() {
        return name;
    }

    @Override
    public ServletContext getServletContext() {
        return context;
    }

    @Override
    public String getInitParameter(String n) {
        return params.get(n);
    }

    @Override
    public Enumeration<String> getInitParameterNames() {
        return Collections.enumeration(params.keySet());
    }
}
