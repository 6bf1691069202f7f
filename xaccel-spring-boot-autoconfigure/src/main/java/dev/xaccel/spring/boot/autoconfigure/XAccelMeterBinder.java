package dev.xaccel.spring.boot.autoconfigure;

import java.util.Map;
import java.util.TreeMap;
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
 * <li>{@value #RECEIPTS}: counter, tag {@code outcome} = {@code complete}, {@code aborted}, {@code unreceipted}:
 * delivery receipts ({@code xaccel.receipts}; 0 while off);</li>
 * <li>{@value #RECEIPT_BYTES}: counter, base unit {@code bytes}, tag {@code served_by} = {@code front_end},
 * {@code filter}: the body bytes the receipts report, the front end's included;</li>
 * <li>{@value #UNMATCHED}: counter, tag {@code reason} = {@code malformed}, {@code forged}, {@code stale},
 * {@code late}: receipt lines that counted for nothing;</li>
 * <li>{@value #DROPPED}: counter, receipts a slow listener lost.</li>
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

    /** Delivery receipts, by outcome. */
    public static final String RECEIPTS = "xaccel.receipts";
    /** Body bytes the receipts report, by who sent them. */
    public static final String RECEIPT_BYTES = "xaccel.receipts.sent";
    /** Receipt lines that matched nothing, by reason. */
    public static final String UNMATCHED = "xaccel.receipts.unmatched.lines";
    /** Receipts dropped for a slow listener. */
    public static final String DROPPED = "xaccel.receipts.dropped";

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
            receipts(registry, name, filter);
        });
    }

    private static void receipts(MeterRegistry registry, String name, XAccelFilter filter) {
        tagged(registry, RECEIPTS, "Delivery receipts of the XAccelFilter, by outcome (complete, aborted, "
                + "unreceipted)", "receipts", name, filter, "outcome", Map.of(
                        "complete", XAccelFilterMXBean::getReceiptsComplete,
                        "aborted", XAccelFilterMXBean::getReceiptsAborted,
                        "unreceipted", XAccelFilterMXBean::getReceiptsUnreceipted));
        tagged(registry, RECEIPT_BYTES, "Body bytes the XAccelFilter's delivery receipts report, by who sent them",
                BaseUnits.BYTES, name, filter, "served_by", Map.of(
                        "front_end", XAccelFilterMXBean::getReceiptBytesFrontEnd,
                        "filter", XAccelFilterMXBean::getReceiptBytesFilter));
        tagged(registry, UNMATCHED, "Receipt lines the XAccelFilter counted for nothing, by reason (malformed, "
                + "forged, stale, late)", "lines", name, filter, "reason", Map.of(
                        "malformed", XAccelFilterMXBean::getReceiptLinesMalformed,
                        "forged", XAccelFilterMXBean::getReceiptLinesForged,
                        "stale", XAccelFilterMXBean::getReceiptLinesStale,
                        "late", XAccelFilterMXBean::getReceiptLinesLate));
        FunctionCounter.builder(DROPPED, filter, f -> read(f, XAccelFilterMXBean::getReceiptsDropped))
                .description("Delivery receipts the XAccelFilter dropped for a slow listener")
                .tag("filter", name).register(registry);
    }

    private static void tagged(MeterRegistry registry, String meter, String description, String unit, String name,
            XAccelFilter filter, String tag, Map<String, ToLongFunction<XAccelFilterMXBean>> counters) {
        new TreeMap<>(counters).forEach((value, counter) -> FunctionCounter.builder(meter, filter,
                f -> read(f, counter)).description(description).baseUnit(unit).tag("filter", name).tag(tag, value)
                .register(registry));
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
