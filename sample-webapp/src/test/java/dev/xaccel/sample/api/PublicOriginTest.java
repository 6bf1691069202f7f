package dev.xaccel.sample.api;

import static org.junit.jupiter.api.Assertions.assertEquals;

import jakarta.servlet.http.HttpServletRequest;
import java.lang.reflect.Proxy;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

class PublicOriginTest {

    /** A request to Tomcat on 127.0.0.1:8081 ({@code Host: 127.0.0.1}, as nginx's $host sends it). */
    private static HttpServletRequest request(String... headers) {
        Map<String, Object> a = new HashMap<>(Map.of("getScheme", "http", "getServerName", "127.0.0.1",
                "getServerPort", 80));
        for (int i = 0; i < headers.length; i += 2) {
            a.put("getHeader:" + headers[i], headers[i + 1]);
        }
        return (HttpServletRequest) Proxy.newProxyInstance(HttpServletRequest.class.getClassLoader(),
                new Class<?>[] {HttpServletRequest.class},
                (p, m, args) -> a.get(m.getName() + (args == null || args.length == 0 ? "" : ":" + args[0])));
    }

    @Test
    void behindNginxTheForwardedHeadersGiveTheClientsOrigin() {
        assertEquals("http://127.0.0.1:8080", PublicOrigin.of(request("X-Forwarded-Proto", "http",
                "X-Forwarded-Host", "127.0.0.1", "X-Forwarded-Port", "8080")));
        assertEquals("https://books.example", PublicOrigin.of(request("X-Forwarded-Proto", "https",
                "X-Forwarded-Host", "books.example", "X-Forwarded-Port", "443")));
        assertEquals("http://books.example:8443", PublicOrigin.of(request("X-Forwarded-Host", "books.example:8443",
                "X-Forwarded-Port", "80")), "a port in the host wins");
        assertEquals("http://[::1]:8080", PublicOrigin.of(request("X-Forwarded-Host", "[::1]",
                "X-Forwarded-Port", "8080")));
    }

    @Test
    void withoutThemTheRequestsOwn() {
        assertEquals("http://127.0.0.1", PublicOrigin.of(request()));
    }

    @Test
    void valuesThatAreNotAHostOrPortAreIgnored() {
        assertEquals("http://127.0.0.1", PublicOrigin.of(request("X-Forwarded-Host", "evil.example/x?",
                "X-Forwarded-Proto", "javascript")));
        assertEquals("http://127.0.0.1", PublicOrigin.of(request("X-Forwarded-Host", "a\"><b",
                "X-Forwarded-Port", "80")));
        assertEquals("http://h.example", PublicOrigin.of(request("X-Forwarded-Host", "h.example",
                "X-Forwarded-Port", "80x")));
    }
}
