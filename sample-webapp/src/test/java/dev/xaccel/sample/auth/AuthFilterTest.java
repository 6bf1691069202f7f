package dev.xaccel.sample.auth;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.servlet.FilterConfig;
import jakarta.servlet.ServletContext;
import jakarta.servlet.http.HttpServletRequest;
import java.lang.reflect.Proxy;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

class AuthFilterTest {

    @SuppressWarnings("unchecked")
    private static <T> T proxy(Class<T> type, Map<String, Object> answers) {
        return (T) Proxy.newProxyInstance(type.getClassLoader(), new Class<?>[] {type},
                (p, m, args) -> answers.get(m.getName() + (args == null || args.length == 0 ? "" : ":" + args[0])));
    }

    private static AuthFilter filter(String publicPaths) throws Exception {
        ServletContext ctx = proxy(ServletContext.class,
                Map.of("getAttribute:" + TokenStore.class.getName(), new TokenStore(Duration.ofMinutes(1))));
        Map<String, Object> params = new java.util.HashMap<>();
        params.put("getServletContext", ctx);
        if (publicPaths != null) {
            params.put("getInitParameter:" + AuthFilter.PARAM_PUBLIC_PATHS, publicPaths);
        }
        AuthFilter f = new AuthFilter();
        f.init(proxy(FilterConfig.class, params));
        return f;
    }

    @Test
    void defaultPublicPathsAreThePageTheLoginAndTheFeeds() throws Exception {
        AuthFilter f = filter(null);
        assertTrue(f.isPublic("/"));
        assertTrue(f.isPublic("/index.html"));
        assertTrue(f.isPublic("/assets/app.js"));
        assertTrue(f.isPublic("/api/login"));
        assertTrue(f.isPublic("/feeds/0123456789ab.xml"), "a feed checks its own token");
        assertFalse(f.isPublic("/feeds"));
        assertFalse(f.isPublic("/api/feed-token"));
        assertFalse(f.isPublic("/api/feeds/x.xml"));
        assertFalse(f.isPublic("/api/items"));
        assertFalse(f.isPublic("/api/login/x"));
        assertFalse(f.isPublic("/library/a.wav"));
        assertFalse(f.isPublic("/assets"));
    }

    @Test
    void configuredPublicPaths() throws Exception {
        AuthFilter f = filter("/health, /static/");
        assertTrue(f.isPublic("/health"));
        assertTrue(f.isPublic("/static/x"));
        assertFalse(f.isPublic("/"));
    }

    @Test
    void bearerParsing() {
        assertEquals("abc", AuthFilter.bearer(proxy(HttpServletRequest.class,
                Map.of("getHeader:Authorization", "Bearer abc"))));
        assertEquals("abc", AuthFilter.bearer(proxy(HttpServletRequest.class,
                Map.of("getHeader:Authorization", "bearer  abc "))));
        assertNull(AuthFilter.bearer(proxy(HttpServletRequest.class,
                Map.of("getHeader:Authorization", "Basic ZGVtbzpkZW1v"))));
        assertNull(AuthFilter.bearer(proxy(HttpServletRequest.class,
                Map.of("getHeader:Authorization", "Bearer "))));
        assertNull(AuthFilter.bearer(proxy(HttpServletRequest.class, Map.of())));
    }
}
