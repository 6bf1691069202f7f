package dev.xaccel.filter;

/**
 * Receives one {@link XAccelReceipt} per delivery, on the filter's one receipt thread (never a request thread):
 * a slow listener delays only later receipts, and once {@code receiptQueue} receipts wait, the oldest are
 * dropped and counted ({@link XAccelFilterMXBean#getReceiptsDropped()}). Registered by class name
 * ({@code receiptListener} init-param, public no-argument constructor), on the builder, or as a Spring bean.
 */
@FunctionalInterface
public interface XAccelReceiptListener {

    /**
     * One delivery's receipt. An exception thrown here is logged (throttled) and the next receipt delivered.
     *
     * @param receipt the receipt
     */
    void onReceipt(XAccelReceipt receipt);
}
