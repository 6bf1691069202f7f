package dev.xaccel.bench.server;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.Executor;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

import org.apache.catalina.connector.Connector;
import org.apache.coyote.AbstractProtocol;
import org.apache.coyote.ProtocolHandler;

/**
 * Samples every connector's {@code connectionCount} (sockets Tomcat has accepted and holds) and its executor's
 * active (busy) threads every few milliseconds and keeps the maxima since the last {@link #start()}.
 * Sampling runs only between {@link #start()} and {@link #stop()}. This is what the accept-filter workload reports;
 * the same values are visible over JMX
 * ({@code Catalina:type=ThreadPool,name=...} {@code connectionCount}, {@code currentThreadsBusy}).
 */
final class ConnectorSampler {

    /** Sampling period in milliseconds. */
    static final long PERIOD_MILLIS = 10;

    private static final class Sample {
        final Connector connector;
        volatile long maxConnections;
        volatile int maxBusy;

        Sample(Connector connector) {
            this.connector = connector;
        }
    }

    private ScheduledFuture<?> task;
    private final Map<String, Sample> samples = new LinkedHashMap<>();
    private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "bench-sampler");
        t.setDaemon(true);
        return t;
    });

    void add(String name, Connector connector) {
        samples.put(name, new Sample(connector));
    }

    /** Resets the maxima and samples until {@link #stop()}; sampling only while measuring keeps its CPU out of
     * the other workloads' accounting. */
    synchronized void start() {
        for (Sample s : samples.values()) {
            s.maxConnections = connections(s.connector);
            s.maxBusy = busy(s.connector);
        }
        if (task == null) {
            task = timer.scheduleAtFixedRate(this::sample, 0, PERIOD_MILLIS, TimeUnit.MILLISECONDS);
        }
    }

    synchronized void stop() {
        if (task != null) {
            task.cancel(false);
            task = null;
        }
    }

    private synchronized void sample() {
        for (Sample s : samples.values()) {
            long c = connections(s.connector);
            if (c > s.maxConnections) {
                s.maxConnections = c;
            }
            int b = busy(s.connector);
            if (b > s.maxBusy) {
                s.maxBusy = b;
            }
        }
    }

    /** One line per value: {@code <connector> <key> <value>}. */
    synchronized String report() {
        StringBuilder sb = new StringBuilder();
        for (Map.Entry<String, Sample> e : samples.entrySet()) {
            Sample s = e.getValue();
            String n = e.getKey();
            sb.append(n).append(" port ").append(s.connector.getLocalPort()).append('\n');
            sb.append(n).append(" protocol ").append(s.connector.getProtocolHandlerClassName()).append('\n');
            sb.append(n).append(" connectionCount ").append(connections(s.connector)).append('\n');
            sb.append(n).append(" maxConnectionCount ").append(s.maxConnections).append('\n');
            sb.append(n).append(" busyThreads ").append(busy(s.connector)).append('\n');
            sb.append(n).append(" maxBusyThreads ").append(s.maxBusy).append('\n');
            for (String property : new String[] {"acceptFilterEffective", "acceptFilterKernelValue",
                "maxKeepAliveRequests", "keepAliveTimeout"}) {
                Object v = s.connector.getProperty(property);
                if (v != null) {
                    sb.append(n).append(' ').append(property).append(' ')
                            .append(String.valueOf(v).isEmpty() ? "-" : v).append('\n');
                }
            }
        }
        return sb.toString();
    }

    private static long connections(Connector connector) {
        ProtocolHandler handler = connector.getProtocolHandler();
        if (handler instanceof AbstractProtocol<?> p) {
            return p.getConnectionCount();
        }
        return -1;
    }

    private static int busy(Connector connector) {
        Executor executor = connector.getProtocolHandler().getExecutor();
        if (executor instanceof org.apache.tomcat.util.threads.ThreadPoolExecutor tpe) {
            return tpe.getActiveCount();
        }
        if (executor instanceof java.util.concurrent.ThreadPoolExecutor tpe) {
            return tpe.getActiveCount();
        }
        return -1;
    }
}
