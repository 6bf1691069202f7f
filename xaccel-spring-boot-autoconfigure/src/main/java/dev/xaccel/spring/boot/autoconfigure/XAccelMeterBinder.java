package dev.xaccel.spring.boot.autoconfigure;

import java.util.function.ToLongFunction;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.BaseUnits;
import io.micrometer.core.instrument.binder.MeterBinder;

import dev.xaccel.filter.XAccelFilter;
import dev.xaccel.filter.XAccelFilterMXBean;

/**
 * The filter's counters ({@link XAccelFilter#getStatistics()}, the same as its MBean) as Micrometer meters:
 * {@value #REQUESTS} with tag {@code outcome} = {@code offloaded}, {@code direct}, {@code not_found},
 * {@code rejected}, and {@value #BYTES_DIRECT} (bytes the filter sent itself); each tagged with the filter's name.
 * Function counters: they read the filter's own counters when the registry asks, and read 0 before it started.
 */
public class XAccelMeterBinder implements MeterBinder {

    /** Requests the filter answered with a file, by outcome. */
    public static final String REQUESTS = "xaccel.requests";
    /** Bytes of file content the filter sent itself. */
    public static final String BYTES_DIRECT = "xaccel.bytes.direct";

    private final XAccelFilters filters;

    /** @param filters the application's filters */
    public XAccelMeterBinder(XAccelFilters filters) {
        this.filters = filters;
    }

    @Override
    public void bindTo(MeterRegistry registry) {
        filters.byName().forEach((name, filter) -> {
            requests(registry, name, filter, "offloaded",
                    "answered with the offload header: the front end sent the file", XAccelFilterMXBean::getOffloaded);
            requests(registry, name, filter, "direct", "files the filter sent itself",
                    XAccelFilterMXBean::getServedDirectly);
            requests(registry, name, filter, "not_found", "answered 404: no such file, or one that may not be served",
                    XAccelFilterMXBean::getNotFound);
            requests(registry, name, filter, "rejected", "answered 400, 405 or 500",
                    XAccelFilterMXBean::getRejected);
            FunctionCounter.builder(BYTES_DIRECT, filter, f -> read(f, XAccelFilterMXBean::getBytesServedDirectly))
                    .description("Bytes of file content the XAccelFilter sent itself").baseUnit(BaseUnits.BYTES)
                    .tag("filter", name).register(registry);
        });
    }

    private static void requests(MeterRegistry registry, String name, XAccelFilter filter, String outcome,
            String what, ToLongFunction<XAccelFilterMXBean> counter) {
        FunctionCounter.builder(REQUESTS, filter, f -> read(f, counter))
                .description("File requests the XAccelFilter answered, by outcome (" + outcome + ": " + what + ")")
                .baseUnit("requests").tag("filter", name).tag("outcome", outcome).register(registry);
    }

    private static double read(XAccelFilter filter, ToLongFunction<XAccelFilterMXBean> counter) {
        XAccelFilterMXBean stats = filter.getStatistics();
        return stats == null ? 0 : counter.applyAsLong(stats);
    }
}
