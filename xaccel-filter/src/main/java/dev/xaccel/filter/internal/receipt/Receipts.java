package dev.xaccel.filter.internal.receipt;

import java.net.SocketException;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.ReentrantLock;
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
 * identifier issued here and still waiting: an invented one fails {@link ReceiptIds#issued}, a replayed one waits no
 * more, one after its receipt was reported unreceipted is late (the newest {@value #MAX_REMEMBERED_LATE}
 * remembered). Waiting identifiers are bounded in time ({@code receiptTimeout}, then unreceipted) and in number
 * ({@value #MAX_WAITING}, then the oldest are reported unreceipted early). A signed link's line
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

    private record Waiting(String id, String file, String tag, long issuedNanos) {
    }

    private final boolean enabled;
    private final ReceiptIds ids;
    private final FilterStatistics stats;
    private final long timeoutNanos;
    private final Map<String, Waiting> waiting = new ConcurrentHashMap<>();
    private final Queue<Waiting> order = new ConcurrentLinkedQueue<>();
    private final AtomicInteger ordered = new AtomicInteger();
    private final ReentrantLock trimming = new ReentrantLock();
    /** Identifiers reported unreceipted, newest last; the set for the reader thread, the deque under trimming. */
    private final Set<String> expired = ConcurrentHashMap.newKeySet();
    private final ArrayDeque<String> expiredOrder = new ArrayDeque<>();
    private final ReceiptQueue queue;
    /** The front end's lines: a loopback UDP socket or nginx's log file; {@code null}: direct only. */
    private final ReceiptSource source;
    /** The filter's signer, to tell a signed link's line from a forged one; null: every such line is forged. */
    private final SignedLinks links;

    private Receipts() {
        enabled = false;
        ids = null;
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
        String id = ids.next();
        Waiting w = new Waiting(id, file, tag, System.nanoTime());
        waiting.put(id, w);
        order.add(w);
        if (ordered.incrementAndGet() > MAX_WAITING && trimming.tryLock()) {
            // the bound holds at every issue, not only at the next sweep: the oldest is reported now (O(1)); a
            // request never waits for the lock, whoever holds it trims
            try {
                expireHeld(w.issuedNanos());
            } finally {
                trimming.unlock();
            }
        }
        return id;
    }

    /**
     * The receipt of an answer the filter sent itself.
     *
     * @param startNanos {@link System#nanoTime()} when the request reached the filter
     * @param bytes      body bytes written, -1 when unknown (the client broke off)
     */
    public void sent(String file, String tag, String ranges, long startNanos, int status, long bytes,
            boolean complete) {
        XAccelReceipt r = new XAccelReceipt(ids.next(), file, tag, complete ? Outcome.COMPLETE : Outcome.ABORTED,
                ServedBy.FILTER, status, bytes, ranges, Duration.ofNanos(System.nanoTime() - startNanos));
        if (bytes > 0) {
            stats.receiptBytesFilter.add(bytes);
        }
        publish(r);
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
        Waiting w = waiting.remove(line.id());
        if (w == null) {
            if (expired.remove(line.id())) {
                stats.receiptLinesLate.increment();
            } else {
                (ids.issued(line.id()) ? stats.receiptLinesStale : stats.receiptLinesForged).increment();
            }
            return;
        }
        stats.receiptBytesFrontEnd.add(line.bytes());
        publish(new XAccelReceipt(w.id(), w.file(), w.tag(), line.complete() ? Outcome.COMPLETE : Outcome.ABORTED,
                ServedBy.FRONT_END, line.status(), line.bytes(), line.ranges(), line.duration()));
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
        publish(new XAccelReceipt(ids.next(), line.uri().substring(1), XAccelReceipt.SIGNED_LINK_TAG,
                line.complete() ? Outcome.COMPLETE : Outcome.ABORTED, ServedBy.FRONT_END, line.status(),
                line.bytes(), line.ranges(), line.duration()));
    }

    /**
     * Reports what waited past the timeout, or beyond {@link #MAX_WAITING}, as unreceipted. Called by the reader
     * thread at least once a second, and by a request thread that issued past the bound; a receipt is reported
     * once whoever polls it ({@code waiting.remove(id, w)}).
     */
    void expire(long nowNanos) {
        trimming.lock();
        try {
            expireHeld(nowNanos);
        } finally {
            trimming.unlock();
        }
    }

    /** {@link #expire} with {@link #trimming} held: the only consumer of {@link #order}. */
    private void expireHeld(long nowNanos) {
        Waiting head;
        while ((head = order.peek()) != null) {
            boolean stillWaiting = waiting.get(head.id()) == head;
            boolean over = ordered.get() > MAX_WAITING;
            if (stillWaiting && !over && nowNanos - head.issuedNanos() < timeoutNanos) {
                return;
            }
            order.poll();
            ordered.decrementAndGet();
            if (stillWaiting && waiting.remove(head.id(), head)) {
                rememberLate(head.id());
                publish(new XAccelReceipt(head.id(), head.file(), head.tag(), Outcome.UNRECEIPTED,
                        ServedBy.FRONT_END, 0, -1, null, Duration.ofNanos(nowNanos - head.issuedNanos())));
            }
        }
    }

    /** With {@link #trimming} held: a line for {@code id} now counts late, for the newest few thousand. */
    private void rememberLate(String id) {
        expired.add(id);
        expiredOrder.addLast(id);
        if (expiredOrder.size() > MAX_REMEMBERED_LATE) {
            expired.remove(expiredOrder.removeFirst());
        }
    }

    private void publish(XAccelReceipt r) {
        switch (r.outcome()) {
            case COMPLETE -> stats.receiptsComplete.increment();
            case ABORTED -> stats.receiptsAborted.increment();
            default -> stats.receiptsUnreceipted.increment();
        }
        queue.publish(r);
    }

    /** Identifiers waiting for their line now. */
    public int waiting() {
        return waiting.size();
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
