package com.example.files;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpFilter;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

/** Your authentication: here every request needs {@code Authorization: Bearer $APP_TOKEN}. */
public class TokenFilter extends HttpFilter {

    private byte[] expected;

    @Override
    public void init() throws ServletException {
        String token = System.getenv("APP_TOKEN");
        if (token == null || token.isEmpty()) {
            throw new ServletException("APP_TOKEN is not set");
        }
        expected = ("Bearer " + token).getBytes(StandardCharsets.UTF_8);
    }

    @Override
    protected void doFilter(HttpServletRequest req, HttpServletResponse resp, FilterChain chain)
            throws IOException, ServletException {
        String given = req.getHeader("Authorization");
        if (given == null || !MessageDigest.isEqual(expected, given.getBytes(StandardCharsets.UTF_8))) {
            resp.setHeader("WWW-Authenticate", "Bearer");
            resp.sendError(HttpServletResponse.SC_UNAUTHORIZED);
            return;
        }
        chain.doFilter(req, resp);
    }
}
