package dev.xaccel.spring.boot.autoconfigure;

import java.util.function.ToLongFunction;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.BaseUnits;
import io.micrometer.core.instrument.binder.MeterBinder;

import dev.xaccel.filter.XAccelFilter;
import dev.xaccel.filter.XAccelFilterMXBean;

/**
 * The filter's counters ({@link XAccelFilter#getStatistics()}, the same as its MBean) as Micrometer meters, named
 * by Micrometer's conventions (lower-case, dot-separated, the unit as base unit and never in the name, dimensions
 * as tags) so that every registry renders them cleanly ({@code xaccel_requests_total}, {@code xaccel_sent_bytes_total}
 * and {@code xaccel_deliveries_active} in Prometheus; the same dotted names in OTLP):
 * <ul>
 * <li>{@value #REQUESTS}: counter, tag {@code outcome} = {@code offloaded}, {@code direct}, {@code not_found},
 * {@code rejected};</li>
 * <li>{@value #SENT}: counter, base unit {@code bytes}, the file content the filter sent itself (an offloaded
 * file's bytes are the front end's to count);</li>
 * <li>{@value #ACTIVE}: gauge, deliveries under way (the MBean's {@code InFlight}).</li>
 * </ul>
 * Each is tagged {@code filter} with the filter's name. They read the filter's own counters when the registry
 * asks, and read 0 before it started.
 */
public class XAccelMeterBinder implements MeterBinder {

    /** Requests the filter answered with a file, by outcome. */
    public static final String REQUESTS = "xaccel.requests";
    /** Bytes of file content the filter sent itself. */
    public static final String SENT = "xaccel.sent";
    /** Deliveries under way. */
    public static final String ACTIVE = "xaccel.deliveries.active";

    private final XAccelFilters filters;

    /** @param filters the application's filters */
    public XAccelMeterBinder(XAccelFilters filters) {
        this.filters = filters;
    }

    @Override
    public void bindTo(MeterRegistry registry) {
        filters.byName().forEach((name, filter) -> {
            // offloaded: the front end sent the file; direct: the filter did; not_found: 404, no such file or one
            // that may not be served; rejected: 400, 405, 500
            requests(registry, name, filter, "offloaded", XAccelFilterMXBean::getOffloaded);
            requests(registry, name, filter, "direct", XAccelFilterMXBean::getServedDirectly);
            requests(registry, name, filter, "not_found", XAccelFilterMXBean::getNotFound);
            requests(registry, name, filter, "rejected", XAccelFilterMXBean::getRejected);
            FunctionCounter.builder(SENT, filter, f -> read(f, XAccelFilterMXBean::getBytesServedDirectly))
                    .description("Bytes of file content the XAccelFilter sent itself").baseUnit(BaseUnits.BYTES)
                    .tag("filter", name).register(registry);
            Gauge.builder(ACTIVE, filter, f -> read(f, XAccelFilterMXBean::getInFlight))
                    .description("Deliveries of the XAccelFilter under way: files being sent, offload answers being "
                            + "written")
                    .tag("filter", name).register(registry);
        });
    }

    /** One description for every outcome: a registry keeps one per name (Prometheus' HELP line). */
    private static void requests(MeterRegistry registry, String name, XAccelFilter filter, String outcome,
            ToLongFunction<XAccelFilterMXBean> counter) {
        FunctionCounter.builder(REQUESTS, filter, f -> read(f, counter))
                .description("File requests the XAccelFilter answered, by outcome (offloaded, direct, not_found, "
                        + "rejected)")
                .baseUnit("requests").tag("filter", name).tag("outcome", outcome).register(registry);
    }

    private static double read(XAccelFilter filter, ToLongFunction<XAccelFilterMXBean> counter) {
        XAccelFilterMXBean stats = filter.getStatistics();
        return stats == null ? 0 : counter.applyAsLong(stats);
    }
}
