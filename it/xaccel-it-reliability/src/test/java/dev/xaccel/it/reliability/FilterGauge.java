package dev.xaccel.it.reliability;

import java.lang.management.ManagementFactory;
import java.util.Set;
import javax.management.MBeanServer;
import javax.management.ObjectName;

/** The XAccelFilter's JMX view in this JVM (one filter instance), as an operator's JMX console reads it. */
final class FilterGauge {

    private final MBeanServer server = ManagementFactory.getPlatformMBeanServer();
    private final ObjectName name;

    FilterGauge() throws Exception {
        Set<ObjectName> names = server.queryNames(new ObjectName("dev.xaccel:type=XAccelFilter,*"), null);
        if (names.size() != 1) {
            throw new IllegalStateException("expected one XAccelFilter MBean, found " + names);
        }
        this.name = names.iterator().next();
    }

    long get(String attribute) {
        try {
            return ((Number) server.getAttribute(name, attribute)).longValue();
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    long inFlight() {
        return get("InFlight");
    }
}
