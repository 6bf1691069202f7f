package dev.xaccel.bench.server;

import java.io.IOException;
import java.io.PrintWriter;
import java.lang.management.ManagementFactory;
import java.util.Set;

import javax.management.MBeanAttributeInfo;
import javax.management.MBeanServer;
import javax.management.ObjectName;

import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

/**
 * {@code GET /_bench/stats?start} resets the maxima and starts sampling; {@code GET /_bench/stats} stops sampling and
 * answers the connector maxima of {@link ConnectorSampler}, the JIT's total compilation time
 * ({@code jvm compilationMillis}) and every numeric attribute of the XAccelFilter MBeans, as plain text lines
 * {@code <name> <key> <value>}. Loopback only (the server binds 127.0.0.1).
 */
final class StatsServlet extends HttpServlet {

    private static final long serialVersionUID = 1L;

    private final transient ConnectorSampler sampler;

    StatsServlet(ConnectorSampler sampler) {
        this.sampler = sampler;
    }

    @Override
    protected void doGet(HttpServletRequest req, HttpServletResponse resp) throws IOException {
        if (req.getParameter("start") != null) {
            sampler.start();
            resp.setStatus(HttpServletResponse.SC_NO_CONTENT);
            return;
        }
        sampler.stop();
        resp.setContentType("text/plain;charset=UTF-8");
        PrintWriter out = resp.getWriter();
        out.print(sampler.report());
        // the JIT's work so far: the warm-up goes on until it has settled (Warmup)
        out.append("jvm compilationMillis ")
                .append(String.valueOf(ManagementFactory.getCompilationMXBean().getTotalCompilationTime()))
                .append('\n');
        MBeanServer server = ManagementFactory.getPlatformMBeanServer();
        try {
            Set<ObjectName> names = server.queryNames(new ObjectName("dev.xaccel:*"), null);
            for (ObjectName name : names) {
                String context = name.getKeyProperty("context");
                String label = "filter" + (context == null ? "" : context.replace(' ', '_'));
                for (MBeanAttributeInfo a : server.getMBeanInfo(name).getAttributes()) {
                    Object v = server.getAttribute(name, a.getName());
                    if (v instanceof Number) {
                        out.append(label).append(' ').append(a.getName()).append(' ')
                                .append(String.valueOf(v)).append('\n');
                    }
                }
            }
        } catch (Exception e) {
            out.append("filter error ").append(e.toString().replace('\n', ' ')).append('\n');
        }
    }
}
