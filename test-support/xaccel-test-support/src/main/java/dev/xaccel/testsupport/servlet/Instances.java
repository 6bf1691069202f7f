package dev.xaccel.testsupport.servlet;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The filter and servlet instances a test's {@code WebApp} holds, by id, for an {@link ExplodedWar}'s web.xml to
 * name: GlassFish and Payara instantiate what web.xml declares by class, so an instance goes in as an
 * {@link InstanceFilter} or {@link InstanceServlet} whose init-param is its id. Both run in the tests' JVM and their
 * web class loaders ask the tests' loader first, so both sides see this one map.
 */
final class Instances {

    /** The init-param that names the instance. */
    static final String PARAM = "xaccel.instance";

    private static final Map<String, Object> BY_ID = new ConcurrentHashMap<>();
    private static final AtomicLong IDS = new AtomicLong();

    private Instances() {
    }

    static String put(Object instance) {
        String id = instance.getClass().getSimpleName() + "-" + IDS.incrementAndGet();
        BY_ID.put(id, instance);
        return id;
    }

    static <T> T get(String id, Class<T> type) {
        Object o = BY_ID.get(id);
        if (o == null) {
            throw new IllegalStateException("no instance " + id);
        }
        return type.cast(o);
    }

    static void remove(Iterable<String> ids) {
        ids.forEach(BY_ID::remove);
    }
}
