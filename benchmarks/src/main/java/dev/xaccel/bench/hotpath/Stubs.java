package dev.xaccel.bench.hotpath;

import java.lang.reflect.Proxy;
import java.util.Collections;
import java.util.Enumeration;
import java.util.HashMap;
import java.util.Map;

import jakarta.servlet.ServletContext;

/**
 * The JMH benchmark's stub servlet objects ({@link StubRequest}, {@link StubResponse}) answer the methods a filter
 * calls on the hot path from plain fields and allocate nothing; every other method falls through to a proxy made
 * here, which answers null/0/false and counts the calls ({@link #fallbackCalls}), so that a benchmark can tell
 * whether it measured stub overhead.
 */
final class Stubs {

    /** Calls that reached a proxy (a method not overridden below). */
    static long fallbackCalls;

    private Stubs() {
    }

    @SuppressWarnings("unchecked")
    static <T> T fallback(Class<T> type) {
        return (T) Proxy.newProxyInstance(Stubs.class.getClassLoader(), new Class<?>[] {type}, (p, m, a) -> {
            fallbackCalls++;
            Class<?> r = m.getReturnType();
            if (r == boolean.class) {
                return false;
            }
            if (r == int.class) {
                return 0;
            }
            if (r == long.class) {
                return 0L;
            }
            if (r == Enumeration.class) {
                return Collections.emptyEnumeration();
            }
            if (m.getName().equals("toString")) {
                return type.getSimpleName() + "Stub";
            }
            if (m.getName().equals("hashCode")) {
                return System.identityHashCode(p);
            }
            if (m.getName().equals("equals")) {
                return p == a[0];
            }
            return null;
        });
    }

    /** A ServletContext whose MIME map and attributes are real, the rest answered by {@link #fallback}. */
    static ServletContext context(String contextPath) {
        Map<String, String> mime = Map.of("jpg", "image/jpeg", "mp3", "audio/mpeg", "bin",
                "application/octet-stream");
        Map<String, Object> attributes = new HashMap<>();
        ServletContext base = fallback(ServletContext.class);
        return (ServletContext) Proxy.newProxyInstance(Stubs.class.getClassLoader(),
                new Class<?>[] {ServletContext.class}, (p, m, a) -> switch (m.getName()) {
                    case "getContextPath" -> contextPath;
                    case "getMimeType" -> {
                        String f = (String) a[0];
                        int dot = f.lastIndexOf('.');
                        yield dot < 0 ? null : mime.get(f.substring(dot + 1));
                    }
                    case "getAttribute" -> attributes.get((String) a[0]);
                    case "setAttribute" -> attributes.put((String) a[0], a[1]);
                    case "getServerInfo" -> "stub";
                    case "getMajorVersion" -> 6;
                    case "getMinorVersion" -> 1;
                    case "getEffectiveMajorVersion" -> 6;
                    case "getEffectiveMinorVersion" -> 1;
                    default -> m.invoke(base, a);
                });
    }

}
