package dev.xaccel.sample.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.xaccel.filter.SignedLinks;
import jakarta.servlet.ServletContext;
import jakarta.servlet.http.HttpServletRequest;
import java.lang.reflect.Proxy;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

class CoverLinksTest {

    static final String SECRET = "0123456789abcdefghijklmnopqrstuvwxyzABCD";
    static final String API = "/api/items/abc/cover";
    static final String PATH = "Jules Verne/Vingt mille lieues sous les mers/Couverture été.jpg";

    @SuppressWarnings("unchecked")
    private static <T> T proxy(Class<T> type, Map<String, Object> answers) {
        return (T) Proxy.newProxyInstance(type.getClassLoader(), new Class<?>[] {type},
                (p, m, args) -> answers.get(m.getName() + (args == null || args.length == 0 ? "" : ":" + args[0])));
    }

    private static ServletContext context(boolean signedLinks) {
        Map<String, Object> a = new HashMap<>();
        if (signedLinks) {
            a.put("getAttribute:" + SignedLinks.CONTEXT_ATTRIBUTE,
                    SignedLinks.create(SECRET, "/s/library/", Duration.ofHours(1)));
        }
        return proxy(ServletContext.class, a);
    }

    private static HttpServletRequest request(String marker) {
        Map<String, Object> a = new HashMap<>();
        if (marker != null) {
            a.put("getHeader:" + CoverLinks.MARKER_HEADER, marker);
        }
        return proxy(HttpServletRequest.class, a);
    }

    @Test
    void signedThroughNginxWhenConfigured() {
        String url = CoverLinks.url(context(true), request("x-accel-redirect"), PATH, API);
        assertTrue(Pattern.matches("/s/library/Jules%20Verne/Vingt%20mille%20lieues%20sous%20les%20mers/"
                + "Couverture%20%C3%A9t%C3%A9\\.jpg\\?md5=[A-Za-z0-9_-]{22}&expires=\\d+", url), url);
    }

    @Test
    void authenticatedUrlWithoutASecret() {
        assertEquals(API, CoverLinks.url(context(false), request("X-Accel-Redirect"), PATH, API));
    }

    @Test
    void authenticatedUrlForAClientTalkingToTomcatDirectly() {
        assertEquals(API, CoverLinks.url(context(true), request(null), PATH, API));
        assertEquals(API, CoverLinks.url(context(true), request("X-Sendfile"), PATH, API));
    }

    @Test
    void aNameNginxWouldNotSeeUnchangedIsNeverSigned() {
        assertEquals(API, CoverLinks.url(context(true), request("X-Accel-Redirect"), "a/b/line\nbreak.jpg", API));
    }
}
