package dev.xaccel.filter.internal.receipt;

import java.net.SocketException;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReferenceArray;
import java.util.logging.Logger;

import dev.xaccel.filter.ConfigException;
import dev.xaccel.filter.InitParams;
import dev.xaccel.filter.SignedLinks;
import dev.xaccel.filter.XAccelReceipt;
import dev.xaccel.filter.XAccelReceipt.Outcome;
import dev.xaccel.filter.XAccelReceipt.ServedBy;
import dev.xaccel.filter.XAccelReceiptListener;
import dev.xaccel.filter.internal.config.ReceiptSettings;
import dev.xaccel.filter.internal.metrics.FilterStatistics;
import dev.xaccel.filter.internal.util.Messages;

/**
 * Delivery receipts of one filter: issues an identifier per offload (sent to the front end in
 * {@value #HEADER}), matches the front end's lines to them, makes the receipts of what the filter sent itself, and
 * hands every receipt to the listeners ({@link ReceiptQueue}) and the counters. A line counts only for an
 * identifier issued here and still waiting: an invented one fails {@link ReceiptIds#counterOf}, a replayed one waits
 * no more, one after its receipt was reported unreceipted is late (the newest {@value #MAX_REMEMBERED_LATE}
 * remembered). Waiting identifiers are bounded in time ({@code receiptTimeout}, then unreceipted) and in number
 * ({@value #MAX_WAITING}, then the oldest are reported unreceipted early).
 *
 * <p>The waiting identifiers sit in a ring of {@value #MAX_WAITING} slots indexed by the counter their identifier
 * encrypts: issuing is one slot written, a line one decryption and one slot taken, with no map, queue or string key
 * on either side (a profile of the hop under load put those at about a microsecond per offload). Issuing into a slot
 * whose older identifier still waits reports that one unreceipted: the bound in number. A sweep of the ring once a
 * second reports the ones past {@code receiptTimeout}: the bound in time. A taken slot is emptied, so what waited
 * dies young. A signed link's line
 * ({@link SignedLinkLine}) has no identifier: it counts when the filter's signed-link secret made its signature, each
 * time it comes (a link may be fetched many times). Thread-safe.
 */
public final class Receipts implements AutoCloseable {

    /** The offload answer's header nginx logs ({@code $upstream_http_x_xaccel_receipt}) and never passes on. */
    public static final String HEADER = "X-Xaccel-Receipt";
    /** Most identifiers waiting for their line at once. */
    public static final int MAX_WAITING = 100_000;
    /** Most identifiers reported unreceipted that are remembered, so a line arriving after its bound counts late. */
    public static final int MAX_REMEMBERED_LATE = 10_000;

    private static final Logger LOG = Logger.getLogger(Receipts.class.getName());

    /** No receipts. */
    public static final Receipts OFF = new Receipts();

    /** An issued identifier waiting for its line, by the counter it encrypts. */
    private record Waiting(long counter, String file, String tag, long issuedNanos) {
    }

    private final boolean enabled;
    private final ReceiptIds ids;
    private final FilterStatistics stats;
    private final long timeoutNanos;
    /** Slot {@code counter % MAX_WAITING}: the identifier of that counter while it waits, else empty. */
    private final AtomicReferenceArray<Waiting> waiting;
    /** Counters reported unreceipted: the set answers "late?", the queue (its length in the int) forgets the oldest. */
    private final Set<Long> expired = ConcurrentHashMap.newKeySet();
    private final Queue<Long> expiredOrder = new ConcurrentLinkedQueue<>();
    private final AtomicInteger expiredCount = new AtomicInteger();
    private final ReceiptQueue queue;
    /** The front end's lines: a loopback UDP socket or nginx's log file; {@code null}: direct only. */
    private final ReceiptSource source;
    /** The filter's signer, to tell a signed link's line from a forged one; null: every such line is forged. */
    private final SignedLinks links;

    private Receipts() {
        enabled = false;
        ids = null;
        waiting = null;
        stats = null;
        timeoutNanos = 0;
        queue = null;
        source = null;
        links = null;
    }

    private Receipts(String name, ReceiptSettings s, List<XAccelReceiptListener> listeners, FilterStatistics stats,
            SignedLinks links) throws SocketException {
        this.enabled = true;
        this.links = links;
        this.ids = new ReceiptIds(new SecureRandom());
        this.waiting = new AtomicReferenceArray<>(s.address() != null || s.file() != null ? MAX_WAITING : 0);
        this.stats = stats;
        this.timeoutNanos = TimeUnit.SECONDS.toNanos(s.timeoutSeconds());
        this.queue = new ReceiptQueue(name, s.queue(), listeners, stats.receiptsDropped);
        ReceiptSource src = null;
        if (s.address() != null) {
            try {
                src = new ReceiptSocket(name, s.address(), this::accept, this::expire);
            } catch (SocketException e) {
                queue.close();
                throw e;
            }
        } else if (s.file() != null) {
            src = new ReceiptFile(name, s.file(), this::accept, this::expire);
        }
        this.source = src;
    }

    /**
     * The receipts of a filter, started: its listeners made, its socket bound.
     *
     * @param loader the class loader of the application, for the {@code receiptListener} class
     * @throws ConfigException naming the init-param when the listener cannot be made or the socket not bound
     */
    public static Receipts start(String name, ReceiptSettings s, ClassLoader loader, FilterStatistics stats) {
        return start(name, s, loader, stats, null);
    }

    /**
     * {@link #start(String, ReceiptSettings, ClassLoader, FilterStatistics)}, also receipting the fetches of links
     * {@code links} signed.
     *
     * @param links the filter's signed links, or {@code null}
     */
    public static Receipts start(String name, ReceiptSettings s, ClassLoader loader, FilterStatistics stats,
            SignedLinks links) {
        if (!s.enabled()) {
            return OFF;
        }
        List<XAccelReceiptListener> listeners = new ArrayList<>(s.listeners());
        if (s.listenerClass() != null) {
            listeners.add(listener(s.listenerClass(), loader));
        }
        try {
            Receipts r = new Receipts(name, s, listeners, stats, links);
            if (s.address() != null) {
                LOG.info(Messages.get("receipts.started", name, s.shown()));
            } else if (s.file() != null) {
                LOG.info(Messages.get("receipts.startedFile", name, s.shown()));
            }
            return r;
        } catch (SocketException e) {
            throw ConfigException.invalid(InitParams.RECEIPTS, s.shown(),
                    Messages.get("receipts.bindFailed", name, s.shown(), e.getMessage()));
        }
    }

    private static XAccelReceiptListener listener(String className, ClassLoader loader) {
        try {
            Class<?> c = Class.forName(className, true, loader);
            return (XAccelReceiptListener) c.getConstructor().newInstance();
        } catch (ReflectiveOperationException | ClassCastException | LinkageError e) {
            throw ConfigException.invalid(InitParams.RECEIPT_LISTENER, className,
                    Messages.get("config.receiptListener.load", className, e.getClass().getSimpleName()));
        }
    }

    /** Whether receipts are made at all. */
    public boolean enabled() {
        return enabled;
    }

    /** Whether offloads get an identifier the front end logs back (a socket or a file is read). */
    public boolean issuing() {
        return source != null;
    }

    /**
     * A new identifier for an offload of {@code file}, waiting for its line.
     *
     * @param file the file as the application named it
     * @param tag  the declaration's tag, or {@code null}
     */
    public String issue(String file, String tag) {
        long c = ids.draw();
        Waiting w = new Waiting(c, file, tag, System.nanoTime());
        int slot = slot(c);
        Waiting older = waiting.getAndSet(slot, w);
        if (older != null) {
            // MAX_WAITING issued since that one, and still no line: the bound holds at every issue (O(1))
            if (older.counter() > c && waiting.compareAndSet(slot, w, older)) {
                // the issue MAX_WAITING later came first (this thread stalled between its draw and here)
                older = w;
            }
            unreceipted(older, w.issuedNanos());
        }
        return ids.id(c);
    }

    private static int slot(long counter) {
        return (int) (counter % MAX_WAITING);
    }

    /**
     * The receipt of an answer the filter sent itself.
     *
     * @param startNanos {@link System#nanoTime()} when the request reached the filter
     * @param bytes      body bytes written, -1 when unknown (the client broke off)
     */
    public void sent(String file, String tag, String ranges, long startNanos, int status, long bytes,
            boolean complete) {
        if (bytes > 0) {
            stats.receiptBytesFilter.add(bytes);
        }
        Outcome outcome = complete ? Outcome.COMPLETE : Outcome.ABORTED;
        if (count(outcome)) {
            queue.publish(new XAccelReceipt(ids.next(), file, tag, outcome, ServedBy.FILTER, status, bytes, ranges,
                    Duration.ofNanos(System.nanoTime() - startNanos)));
        }
    }

    /** One datagram from the socket, or one line of the file. */
    void accept(String datagram) {
        int offload = datagram.indexOf(ReceiptLine.MARK);
        int signed = datagram.indexOf(SignedLinkLine.MARK);
        if (signed >= 0 && (offload < 0 || signed < offload)) {
            acceptSigned(datagram);
            return;
        }
        ReceiptLine line = ReceiptLine.parse(datagram);
        if (line == null) {
            stats.receiptLinesMalformed.increment();
            return;
        }
        long c = ids.counterOf(line.id());
        if (c < 0) {
            stats.receiptLinesForged.increment();
            return;
        }
        int slot = slot(c);
        Waiting w = waiting.get(slot);
        if (w == null || w.counter() != c || !waiting.compareAndSet(slot, w, null)) {
            (expired.remove(c) ? stats.receiptLinesLate : stats.receiptLinesStale).increment();
            return;
        }
        stats.receiptBytesFrontEnd.add(line.bytes());
        Outcome outcome = line.complete() ? Outcome.COMPLETE : Outcome.ABORTED;
        if (count(outcome)) {
            queue.publish(new XAccelReceipt(line.id(), w.file(), w.tag(), outcome, ServedBy.FRONT_END,
                    line.status(), line.bytes(), line.ranges(), line.duration()));
        }
    }

    /** A signed link's line: a receipt when this filter's secret signed the link, else forged. */
    private void acceptSigned(String datagram) {
        SignedLinkLine line = SignedLinkLine.parse(datagram);
        if (line == null) {
            stats.receiptLinesMalformed.increment();
            return;
        }
        if (links == null || !links.verifies(line.uri(), line.expires(), line.signature())) {
            stats.receiptLinesForged.increment();
            return;
        }
        stats.receiptBytesFrontEnd.add(line.bytes());
        Outcome outcome = line.complete() ? Outcome.COMPLETE : Outcome.ABORTED;
        if (count(outcome)) {
            queue.publish(new XAccelReceipt(ids.next(), line.uri().substring(1), XAccelReceipt.SIGNED_LINK_TAG,
                    outcome, ServedBy.FRONT_END, line.status(), line.bytes(), line.ranges(), line.duration()));
        }
    }

    /**
     * Reports what waited past the timeout as unreceipted: one pass over the ring. Called by the reader thread at
     * least once a second; a receipt is reported once, by whoever empties its slot.
     */
    void expire(long nowNanos) {
        for (int i = 0; i < waiting.length(); i++) {
            Waiting w = waiting.get(i);
            if (w != null && nowNanos - w.issuedNanos() >= timeoutNanos && waiting.compareAndSet(i, w, null)) {
                unreceipted(w, nowNanos);
            }
        }
    }

    /** Reports {@code w}, taken out of its slot, unreceipted: a line for it now counts late, for the newest few. */
    private void unreceipted(Waiting w, long nowNanos) {
        Long c = w.counter();
        if (expired.add(c)) {
            expiredOrder.add(c);
            if (expiredCount.incrementAndGet() > MAX_REMEMBERED_LATE) {
                Long oldest = expiredOrder.poll();
                if (oldest != null) {
                    expiredCount.decrementAndGet();
                    expired.remove(oldest);
                }
            }
        }
        if (count(Outcome.UNRECEIPTED)) {
            queue.publish(new XAccelReceipt(ids.id(w.counter()), w.file(), w.tag(), Outcome.UNRECEIPTED,
                    ServedBy.FRONT_END, 0, -1, null, Duration.ofNanos(nowNanos - w.issuedNanos())));
        }
    }

    /**
     * Counts a receipt by its outcome.
     *
     * @return whether the receipt is to be made and queued: only listeners see it
     */
    private boolean count(Outcome outcome) {
        switch (outcome) {
            case COMPLETE -> stats.receiptsComplete.increment();
            case ABORTED -> stats.receiptsAborted.increment();
            default -> stats.receiptsUnreceipted.increment();
        }
        return queue.listened();
    }

    /** Identifiers waiting for their line now (one pass over the ring). */
    public int waiting() {
        int n = 0;
        for (int i = 0; i < waiting.length(); i++) {
            if (waiting.get(i) != null) {
                n++;
            }
        }
        return n;
    }

    @Override
    public void close() {
        if (source != null) {
            source.close();
        }
        if (queue != null) {
            queue.close();
        }
    }
}
