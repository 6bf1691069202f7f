package dev.xaccel.filter;

import java.util.Collections;
import java.util.Enumeration;
import java.util.LinkedHashMap;
import java.util.Map;

import jakarta.servlet.FilterConfig;
import jakarta.servlet.ServletContext;

/** Minimal FilterConfig: a name, init-params and an optional ServletContext. */
final class TestFilterConfig implements FilterConfig {

    private final String name;
    private final Map<String, String> params;
    private final ServletContext context;

    TestFilterConfig(String name, Map<String, String> params, ServletContext context) {
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
