package dev.xaccel.sample.api;

import dev.xaccel.sample.DeliveryTally;
import dev.xaccel.sample.auth.AuthFilter;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.ws.rs.ForbiddenException;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.SecurityContext;
import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeSet;
import javax.management.JMException;
import javax.management.MBeanAttributeInfo;
import javax.management.MBeanServer;
import javax.management.ObjectName;

/**
 * {@code GET /api/stats} (admins only): the counters of this application's xaccel filters, read from their
 * MBeans — how many files were offloaded to nginx and how many Tomcat served itself. Not the filter's configuration
 * line: it names the data root's absolute path, which no answer shows (JMX itself still has it). And
 * {@code deliveries}: the delivery receipts the sample's {@link DeliveryTally} counted (completed and aborted
 * downloads per book and chapter, bytes per user); null when receipts are off.
 */
@Path("stats")
public class StatsResource {

    static final String QUERY = "dev.xaccel:type=XAccelFilter,*";
    /** The MBean attribute that is not shown. */
    static final String CONFIGURATION = "Configuration";

    @Context
    private HttpServletRequest request;

    @GET
    @Produces(MediaType.APPLICATION_JSON)
    public Map<String, Object> stats(@Context SecurityContext security) throws JMException {
        if (!security.isUserInRole(AuthFilter.ROLE_ADMIN)) {
            throw new ForbiddenException();
        }
        String ctx = request.getContextPath().isEmpty() ? "/" : request.getContextPath();
        MBeanServer server = ManagementFactory.getPlatformMBeanServer();
        List<Map<String, Object>> filters = new ArrayList<>();
        for (ObjectName name : new TreeSet<>(server.queryNames(new ObjectName(QUERY), null))) {
            String c = name.getKeyProperty("context");
            if (c != null && c.startsWith("\"")) {
                c = ObjectName.unquote(c);
            }
            if (!ctx.equals(c)) {
                continue;
            }
            Map<String, Object> f = new LinkedHashMap<>();
            f.put("objectName", name.toString());
            for (MBeanAttributeInfo a : server.getMBeanInfo(name).getAttributes()) {
                if (a.isReadable() && !CONFIGURATION.equals(a.getName())) {
                    Object v = server.getAttribute(name, a.getName());
                    if (v instanceof Number || v instanceof String || v instanceof Boolean) {
                        f.put(a.getName().substring(0, 1).toLowerCase(Locale.ROOT) + a.getName().substring(1), v);
                    }
                }
            }
            filters.add(f);
        }
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("context", ctx);
        out.put("filters", filters);
        DeliveryTally tally = DeliveryTally.current();
        out.put("deliveries", tally == null ? null : tally.snapshot());
        return out;
    }
}
