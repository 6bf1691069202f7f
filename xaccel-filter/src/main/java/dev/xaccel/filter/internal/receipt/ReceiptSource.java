package dev.xaccel.filter.internal.receipt;

/**
 * Where a front end's receipt lines come from ({@link ReceiptSocket}, {@link ReceiptFile}): read by a daemon thread
 * of its own, which hands each line on and expires waiting receipts at least once a second.
 */
interface ReceiptSource extends AutoCloseable {

    /** Stops reading and releases the socket or file. */
    @Override
    void close();
}
