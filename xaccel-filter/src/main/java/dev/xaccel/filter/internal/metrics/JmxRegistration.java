package dev.xaccel.filter.internal.metrics;

import java.lang.management.ManagementFactory;
import java.util.logging.Level;
import java.util.logging.Logger;
import javax.management.InstanceAlreadyExistsException;
import javax.management.JMException;
import javax.management.MBeanServer;
import javax.management.MalformedObjectNameException;
import javax.management.ObjectName;

import dev.xaccel.filter.InitParams;
import dev.xaccel.filter.internal.util.Messages;

/**
 * Registers the statistics MBean in the platform MBeanServer. When the name is taken (a second webapp with
 * the same context path and filter name, e.g. during a parallel redeploy) an {@code instance=N} key is added
 * and a WARNING logged; a JMX failure never stops the filter from starting.
 */
public final class JmxRegistration {

    private static final Logger LOG = Logger.getLogger(JmxRegistration.class.getName());
    private static final int MAX_INSTANCES = 100;

    private final ObjectName registered;

    private JmxRegistration(ObjectName registered) {
        this.registered = registered;
    }

    /**
     * Registers the statistics of one filter.
     *
     * @param configured the {@code jmxName} value: {@code null} derives the name, {@code none} disables JMX
     * @param context    for the context path of the derived name, may be {@code null}
     * @return the registration, or {@code null} when disabled or failed (logged)
     */
    public static JmxRegistration forFilter(String configured, jakarta.servlet.ServletContext context,
            String filterName, Object mbean) {
        if (InitParams.JMX_NAME_NONE.equals(configured)) {
            return null;
        }
        String name = configured != null ? configured
                : defaultName(context == null ? "" : context.getContextPath(), filterName);
        return register(name, mbean);
    }

    /** The default name for a context path and filter name. */
    public static String defaultName(String contextPath, String filterName) {
        String ctx = contextPath == null || contextPath.isEmpty() ? "/" : contextPath;
        return "dev.xaccel:type=XAccelFilter,context=" + quoteIfNeeded(ctx) + ",name="
                + quoteIfNeeded(filterName == null ? "XAccelFilter" : filterName);
    }

    public static String quoteIfNeeded(String value) {
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            if (c == ',' || c == '=' || c == ':' || c == '"' || c == '*' || c == '?' || c == '\n' || c == '\\') {
                return ObjectName.quote(value);
            }
        }
        return value.isEmpty() ? ObjectName.quote(value) : value;
    }

    /** @return the registration, or {@code null} when it failed (logged) */
    public static JmxRegistration register(String name, Object mbean) {
        MBeanServer server = ManagementFactory.getPlatformMBeanServer();
        try {
            ObjectName base = new ObjectName(name);
            ObjectName candidate = base;
            for (int n = 2; n <= MAX_INSTANCES + 1; n++) {
                try {
                    server.registerMBean(mbean, candidate);
                    if (candidate != base) {
                        LOG.warning(Messages.get("jmx.duplicate", base, candidate));
                    }
                    return new JmxRegistration(candidate);
                } catch (InstanceAlreadyExistsException e) {
                    candidate = new ObjectName(name + ",instance=" + n);
                }
            }
            LOG.warning(Messages.get("jmx.failed", name, "too many instances"));
        } catch (MalformedObjectNameException e) {
            LOG.warning(Messages.get("jmx.failed", name, e.getMessage()));
        } catch (JMException | RuntimeException e) {
            LOG.log(Level.WARNING, Messages.get("jmx.failed", name, e.toString()));
        }
        return null;
    }

    public ObjectName name() {
        return registered;
    }

    public void unregister() {
        try {
            ManagementFactory.getPlatformMBeanServer().unregisterMBean(registered);
        } catch (JMException | RuntimeException e) {
            LOG.fine(() -> "JMX unregistration of " + registered + " failed: " + e);
        }
    }
}
