package dev.xaccel.filter.internal.receipt;

import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.atomic.LongAdder;
import java.util.logging.Level;
import java.util.logging.Logger;

import dev.xaccel.filter.XAccelReceipt;
import dev.xaccel.filter.XAccelReceiptListener;
import dev.xaccel.filter.internal.util.Messages;
import dev.xaccel.filter.internal.util.ThrottledLog;

/**
 * The bounded queue between whoever makes a receipt (request threads, the socket reader) and the listeners: one
 * daemon thread calls them in order. A full queue drops its oldest receipt and counts it: a slow listener never
 * blocks a request, and memory stays bounded.
 */
final class ReceiptQueue implements AutoCloseable {

    private static final Logger LOG = Logger.getLogger(ReceiptQueue.class.getName());
    private static final ThrottledLog FAILED = new ThrottledLog(LOG, Level.WARNING);

    private final BlockingQueue<XAccelReceipt> queue;
    private final List<XAccelReceiptListener> listeners;
    private final LongAdder dropped;
    private final Thread thread;

    ReceiptQueue(String name, int capacity, List<XAccelReceiptListener> listeners, LongAdder dropped) {
        this.queue = new ArrayBlockingQueue<>(capacity);
        this.listeners = List.copyOf(listeners);
        this.dropped = dropped;
        this.thread = new Thread(this::run, "xaccel-receipts-" + name);
        thread.setDaemon(true);
        if (!this.listeners.isEmpty()) {
            thread.start();
        }
    }

    /** Whether any listener takes receipts: else none is made. */
    boolean listened() {
        return !listeners.isEmpty();
    }

    /** Queues the receipt for the listeners; never blocks. */
    void publish(XAccelReceipt r) {
        if (listeners.isEmpty()) {
            return;
        }
        while (!queue.offer(r)) {
            if (queue.poll() != null) {
                dropped.increment();
            }
        }
    }

    private void run() {
        try {
            while (true) {
                XAccelReceipt r = queue.take();
                for (XAccelReceiptListener l : listeners) {
                    try {
                        l.onReceipt(r);
                    } catch (RuntimeException e) {
                        FAILED.log(() -> Messages.get("receipts.listenerFailed", e));
                    }
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public void close() {
        thread.interrupt();
    }
}
