package dev.xaccel.filter.internal.metrics;

import java.util.concurrent.atomic.LongAdder;
import java.util.function.IntSupplier;
import java.util.function.LongSupplier;

import dev.xaccel.filter.XAccelFilterMXBean;

/** Thread-safe counters of one filter instance; the object registered as {@link XAccelFilterMXBean}. */
public final class FilterStatistics implements XAccelFilterMXBean {

    public final LongAdder offloaded = new LongAdder();
    public final LongAdder servedDirectly = new LongAdder();
    public final LongAdder notFound = new LongAdder();
    public final LongAdder rejected = new LongAdder();
    public final LongAdder bytesServedDirectly = new LongAdder();
    public final LongAdder receiptsComplete = new LongAdder();
    public final LongAdder receiptsAborted = new LongAdder();
    public final LongAdder receiptsUnreceipted = new LongAdder();
    public final LongAdder receiptBytesFrontEnd = new LongAdder();
    public final LongAdder receiptBytesFilter = new LongAdder();
    public final LongAdder receiptLinesMalformed = new LongAdder();
    public final LongAdder receiptLinesForged = new LongAdder();
    public final LongAdder receiptLinesStale = new LongAdder();
    public final LongAdder receiptLinesLate = new LongAdder();
    public final LongAdder receiptsDropped = new LongAdder();
    /** A gauge: deliveries begun and not yet ended ({@link #begin()}/{@link #end()}). */
    private final LongAdder inFlight = new LongAdder();
    private final String configuration;
    private final IntSupplier missingRoots;
    private final LongSupplier smallFileHits;
    private final LongSupplier smallFileMisses;

    /** @param missingRoots how many data roots are missing, looked at when asked */
    public FilterStatistics(String configuration, IntSupplier missingRoots) {
        this(configuration, missingRoots, () -> 0, () -> 0);
    }

    /**
     * @param missingRoots    how many data roots are missing, looked at when asked
     * @param smallFileHits   the small-file cache's hits since start
     * @param smallFileMisses its misses since start
     */
    public FilterStatistics(String configuration, IntSupplier missingRoots, LongSupplier smallFileHits,
            LongSupplier smallFileMisses) {
        this.configuration = configuration;
        this.missingRoots = missingRoots;
        this.smallFileHits = smallFileHits;
        this.smallFileMisses = smallFileMisses;
    }

    /** A delivery begins: the caller ends it with {@link #end()} in a {@code finally}. */
    public void begin() {
        inFlight.increment();
    }

    /** The delivery {@link #begin() begun} ended, however (written, offloaded, failed, client gone). */
    public void end() {
        inFlight.decrement();
    }

    /** Counts a rejection by its status: 404 as not found, anything else as rejected. */
    public void countRejection(int status) {
        if (status == 404) {
            notFound.increment();
        } else {
            rejected.increment();
        }
    }

    @Override
    public long getOffloaded() {
        return offloaded.sum();
    }

    @Override
    public long getServedDirectly() {
        return servedDirectly.sum();
    }

    @Override
    public long getNotFound() {
        return notFound.sum();
    }

    @Override
    public long getRejected() {
        return rejected.sum();
    }

    @Override
    public long getBytesServedDirectly() {
        return bytesServedDirectly.sum();
    }

    @Override
    public long getInFlight() {
        return inFlight.sum();
    }

    @Override
    public int getMissingRoots() {
        return missingRoots.getAsInt();
    }

    @Override
    public long getSmallFileCacheHits() {
        return smallFileHits.getAsLong();
    }

    @Override
    public long getSmallFileCacheMisses() {
        return smallFileMisses.getAsLong();
    }

    @Override
    public String getConfiguration() {
        return configuration;
    }

    @Override
    public long getReceiptsComplete() {
        return receiptsComplete.sum();
    }

    @Override
    public long getReceiptsAborted() {
        return receiptsAborted.sum();
    }

    @Override
    public long getReceiptsUnreceipted() {
        return receiptsUnreceipted.sum();
    }

    @Override
    public long getReceiptBytesFrontEnd() {
        return receiptBytesFrontEnd.sum();
    }

    @Override
    public long getReceiptBytesFilter() {
        return receiptBytesFilter.sum();
    }

    @Override
    public long getReceiptLinesMalformed() {
        return receiptLinesMalformed.sum();
    }

    @Override
    public long getReceiptLinesForged() {
        return receiptLinesForged.sum();
    }

    @Override
    public long getReceiptLinesStale() {
        return receiptLinesStale.sum();
    }

    @Override
    public long getReceiptLinesLate() {
        return receiptLinesLate.sum();
    }

    @Override
    public long getReceiptsDropped() {
        return receiptsDropped.sum();
    }
}
