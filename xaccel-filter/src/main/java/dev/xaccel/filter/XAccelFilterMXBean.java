package dev.xaccel.filter;

/**
 * Management view of one {@link XAccelFilter} instance, registered in the platform MBeanServer under
 * {@code dev.xaccel:type=XAccelFilter,context=<context path or />,name=<filter name>} unless the
 * {@code jmxName} init-param says otherwise ({@code none} disables registration). Counters only grow;
 * {@link #getInFlight()} is a gauge.
 */
public interface XAccelFilterMXBean {

    /**
     * Responses answered with the offload header (the front-end server sent the bytes).
     *
     * @return the count since start
     */
    long getOffloaded();

    /**
     * Answers the filter sent itself: files (offload not applicable or not allowed for the request), and the 304,
     * 412 and 416 it decides from a file's validators instead of handing the file off.
     *
     * @return the count since start
     */
    long getServedDirectly();

    /**
     * Requests for files that do not exist or may not be served (answered 404).
     *
     * @return the count since start
     */
    long getNotFound();

    /**
     * Requests rejected for other reasons (400, 405, 500 for a declared file outside every location or one that
     * shrank before its first byte).
     *
     * @return the count since start
     */
    long getRejected();

    /**
     * Bytes of file content the filter wrote itself (or handed to the container's sendfile).
     *
     * @return the sum since start
     */
    long getBytesServedDirectly();

    /**
     * Deliveries under way right now: files being sent by the filter (a direct copy, from the open file to the
     * client, until its last byte is written or the client went away) and offload or remote answers being written.
     * A gauge, not a counter: it returns to its idle value (0 when no request is being answered) whatever the
     * outcome, aborted clients and failed reads included, so a value that keeps growing while traffic is idle means
     * deliveries that never end.
     *
     * @return the number right now
     */
    long getInFlight();

    /**
     * Data roots (of {@code locations} and {@code mappings}) that are missing right now: unmounted, moved away, or
     * no longer a directory. Looked at when asked (one {@code stat} per root), so a health check sees a root go
     * and come back even while no request comes in; the filter logs it as a 404 would (a throttled WARNING, an
     * INFO line when it is back).
     *
     * @return 0 when every root is there
     */
    int getMissingRoots();

    /**
     * Direct answers of a small file from memory ({@code smallFileCacheSize}), each validated against the file at
     * its name just before (its identity, size, modification and change time).
     *
     * @return the count since start; 0 when the cache is off
     */
    long getSmallFileCacheHits();

    /**
     * Direct answers of a file opened below its root (no link on the way) whose bytes were not in memory or no
     * longer matched the file at its name: the file was opened, and kept when small and unchanged for a second.
     *
     * @return the count since start; 0 when the cache is off
     */
    long getSmallFileCacheMisses();

    /**
     * The effective configuration, one line, as logged at startup (never the signed-link secret).
     *
     * @return {@code name=value} pairs in the order of the init-param table
     */
    String getConfiguration();

    /**
     * Receipts handed to the listeners' queue, by outcome: the front end or the filter sent the whole answer.
     * 0 while {@code receipts} is {@code off}.
     *
     * @return the count since start
     */
    long getReceiptsComplete();

    /**
     * Receipts of answers the client broke off (or the sender stopped) before their end.
     *
     * @return the count since start
     */
    long getReceiptsAborted();

    /**
     * Offloads the front end never reported within {@code receiptTimeout} (it died, or its log line was lost).
     *
     * @return the count since start
     */
    long getReceiptsUnreceipted();

    /**
     * Body bytes the front end reported it sent for offloaded answers (nginx's {@code $body_bytes_sent}).
     *
     * @return the sum since start
     */
    long getReceiptBytesFrontEnd();

    /**
     * Body bytes of answers the filter sent itself, as its receipts report them.
     *
     * @return the sum since start
     */
    long getReceiptBytesFilter();

    /**
     * Receipt lines that were not in the receipt format.
     *
     * @return the count since start
     */
    long getReceiptLinesMalformed();

    /**
     * Receipt lines whose identifier this filter never issued (a forged or foreign line).
     *
     * @return the count since start
     */
    long getReceiptLinesForged();

    /**
     * Receipt lines whose identifier was issued but already receipted (a replay or a duplicate), or reported
     * unreceipted longer ago than the newest 10,000 such.
     *
     * @return the count since start
     */
    long getReceiptLinesStale();

    /**
     * Receipt lines that arrived after their identifier's receipt was reported unreceipted ({@code receiptTimeout}
     * passed, or too many waited): the front end sent the file, later than the bound.
     *
     * @return the count since start
     */
    long getReceiptLinesLate();

    /**
     * Receipts dropped because {@code receiptQueue} receipts were waiting for a slow listener (the oldest go).
     *
     * @return the count since start
     */
    long getReceiptsDropped();
}
