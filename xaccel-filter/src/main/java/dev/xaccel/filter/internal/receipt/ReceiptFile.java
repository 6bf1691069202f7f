package dev.xaccel.filter.internal.receipt;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Objects;
import java.util.function.Consumer;
import java.util.function.LongConsumer;
import java.util.logging.Level;
import java.util.logging.Logger;

import dev.xaccel.filter.internal.util.Messages;
import dev.xaccel.filter.internal.util.ThrottledLog;

/**
 * nginx's buffered receipt log ({@code access_log FILE xaccel_receipt buffer=64k flush=1s}) read as {@code tail -F}
 * does, by one daemon thread, which also expires receipts that waited too long (at least once a second). A file
 * because nginx then writes a buffer of lines at a time instead of sending one datagram per request, and nothing is
 * lost while the application is slow to read: the lines wait on disk.
 *
 * <p>Read from its end when it is there at start (older lines name identifiers of an earlier start, which no longer
 * count), from its beginning when it appears later. Rotated as nginx's logs are (renamed, then {@code nginx -s
 * reopen}): a file whose name now holds another one is read on until it has been left alone for
 * {@link #ROTATED_IDLE_NANOS}, because nginx writes to it until it reopens. Truncated in place ({@code copytruncate}):
 * read again from its beginning. A line is handed on once its newline is there, since a read may see half of a
 * write.
 */
final class ReceiptFile implements ReceiptSource {

    private static final Logger LOG = Logger.getLogger(ReceiptFile.class.getName());
    private static final ThrottledLog FAILED = new ThrottledLog(LOG, Level.WARNING);
    /** How long the reader sleeps when no file had anything new: a tenth of nginx's shipped {@code flush=1s}. */
    static final long POLL_MILLIS = 100;
    /** How long a rotated file is read on after its last line: far beyond a {@code postrotate} reopen. */
    static final long ROTATED_IDLE_NANOS = 60_000_000_000L;
    /** The longest line kept while its newline is awaited; nginx's receipt lines are a few hundred bytes. */
    static final int MAX_LINE = 16 * 1024;
    private static final long SECOND = 1_000_000_000L;

    private final Path path;
    private final Consumer<String> lines;
    private final LongConsumer expire;
    private final Thread thread;
    private volatile boolean closed;
    /** The file at the name, or {@code null} while there is none. Reader thread only, as the rest below. */
    private Tail current;
    /** Files renamed away that nginx may still write to. */
    private final List<Tail> rotated = new ArrayList<>();
    private final ByteBuffer buffer = ByteBuffer.allocate(64 * 1024);

    /** One open file: where reading goes on, and the start of a line whose newline has not come yet. */
    private static final class Tail {
        final FileChannel channel;
        final Object key;
        long position;
        long lastData;
        final ByteArrayOutputStream partial = new ByteArrayOutputStream();

        Tail(FileChannel channel, Object key, long position, long now) {
            this.channel = channel;
            this.key = key;
            this.position = position;
            this.lastData = now;
        }
    }

    /**
     * @param lines  takes each line, without its newline
     * @param expire called with {@link System#nanoTime()} at least once a second
     */
    ReceiptFile(String name, Path path, Consumer<String> lines, LongConsumer expire) {
        this.path = path;
        this.lines = lines;
        this.expire = expire;
        try {
            current = open(true, System.nanoTime());
        } catch (IOException e) {
            // not there yet, or not readable now: looked at again by the reader
            FAILED.log(() -> Messages.get("receipts.readFailed", e.getMessage()));
        }
        this.thread = new Thread(this::run, "xaccel-receipts-" + name + "-file");
        thread.setDaemon(true);
        thread.start();
    }

    private void run() {
        long lastLook = System.nanoTime();
        long lastSweep = lastLook;
        while (!closed) {
            boolean read = false;
            long now = System.nanoTime();
            try {
                read = drainAll(now);
                if (!read || now - lastLook >= SECOND) {
                    lookAtName(now);
                    lastLook = now;
                }
            } catch (IOException | RuntimeException e) {
                if (closed) {
                    // interrupted in a read by close(): nothing failed
                    return;
                }
                FAILED.log(() -> Messages.get("receipts.readFailed", e));
            }
            if (now - lastSweep >= SECOND) {
                expire.accept(now);
                lastSweep = now;
            }
            if (!read) {
                try {
                    Thread.sleep(POLL_MILLIS);
                } catch (InterruptedException e) {
                    return;
                }
            }
        }
    }

    /** Reads what each open file has new; closes a rotated one left alone long enough. */
    private boolean drainAll(long now) throws IOException {
        boolean read = false;
        for (Iterator<Tail> it = rotated.iterator(); it.hasNext();) {
            Tail t = it.next();
            if (drain(t, now)) {
                read = true;
            } else if (now - t.lastData >= ROTATED_IDLE_NANOS) {
                flushPartial(t);
                t.channel.close();
                it.remove();
            }
        }
        return current != null && drain(current, now) || read;
    }

    /** Hands on the complete lines of what {@code t} has beyond its position. */
    private boolean drain(Tail t, long now) throws IOException {
        long size = t.channel.size();
        if (size < t.position) {
            // truncated in place: what follows is new
            t.position = 0;
            t.partial.reset();
        }
        boolean read = false;
        while (t.position < t.channel.size()) {
            buffer.clear();
            int n = t.channel.read(buffer, t.position);
            if (n <= 0) {
                break;
            }
            t.position += n;
            read = true;
            split(t, buffer.array(), n);
        }
        if (read) {
            t.lastData = now;
        }
        return read;
    }

    private void split(Tail t, byte[] b, int n) {
        int start = 0;
        for (int i = 0; i < n; i++) {
            if (b[i] == '\n') {
                if (t.partial.size() > 0) {
                    t.partial.write(b, start, i - start);
                    deliver(t.partial.toByteArray(), t.partial.size());
                    t.partial.reset();
                } else {
                    deliver(b, start, i - start);
                }
                start = i + 1;
            }
        }
        if (start < n) {
            if (t.partial.size() + n - start > MAX_LINE) {
                // no line is this long: hand it on as it is (counted malformed) rather than hold it
                t.partial.write(b, start, n - start);
                flushPartial(t);
            } else {
                t.partial.write(b, start, n - start);
            }
        }
    }

    private void flushPartial(Tail t) {
        if (t.partial.size() > 0) {
            deliver(t.partial.toByteArray(), t.partial.size());
            t.partial.reset();
        }
    }

    private void deliver(byte[] b, int length) {
        deliver(b, 0, length);
    }

    private void deliver(byte[] b, int from, int length) {
        if (length > 0) {
            lines.accept(new String(b, from, length, StandardCharsets.UTF_8));
        }
    }

    /** Whether the name holds another file than the one read: then that one is read from its beginning. */
    private void lookAtName(long now) throws IOException {
        Object key;
        try {
            BasicFileAttributes a = Files.readAttributes(path, BasicFileAttributes.class);
            if (!a.isRegularFile()) {
                return;
            }
            key = a.fileKey();
        } catch (NoSuchFileException e) {
            // renamed away and nginx has not reopened yet: the current file is read on
            return;
        }
        if (current != null && Objects.equals(current.key, key)) {
            return;
        }
        Tail next = open(false, now);
        if (next != null && current != null) {
            rotated.add(current);
        }
        if (next != null) {
            current = next;
            drain(current, now);
        }
    }

    /**
     * Opens the file at the name, at its end or its beginning; {@code null} when the name holds no regular file.
     * Looked at before it is opened, because opening a pipe would wait for a writer.
     */
    private Tail open(boolean atEnd, long now) throws IOException {
        Object key;
        try {
            BasicFileAttributes a = Files.readAttributes(path, BasicFileAttributes.class);
            if (!a.isRegularFile()) {
                return null;
            }
            key = a.fileKey();
        } catch (NoSuchFileException e) {
            return null;
        }
        FileChannel c = FileChannel.open(path, StandardOpenOption.READ);
        try {
            if (!Objects.equals(key, Files.readAttributes(path, BasicFileAttributes.class).fileKey())) {
                // replaced meanwhile: looked at again on the next round
                c.close();
                return null;
            }
            return new Tail(c, key, atEnd ? c.size() : 0, now);
        } catch (IOException | RuntimeException e) {
            c.close();
            throw e;
        }
    }

    /** Stops the reader and closes the files (at most 2 s). */
    @Override
    public void close() {
        closed = true;
        thread.interrupt();
        try {
            thread.join(2000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        List<Tail> all = new ArrayList<>(rotated);
        if (current != null) {
            all.add(current);
        }
        for (Tail t : all) {
            try {
                t.channel.close();
            } catch (IOException e) {
                // opened read-only: nothing is lost
            }
        }
    }
}
