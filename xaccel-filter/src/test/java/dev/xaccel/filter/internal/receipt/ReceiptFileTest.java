package dev.xaccel.filter.internal.receipt;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The receipt log read as nginx writes and rotates it: real files, the reader's own thread. */
class ReceiptFileTest {

    @TempDir
    Path dir;

    private final BlockingQueue<String> lines = new LinkedBlockingQueue<>();
    private final AtomicInteger sweeps = new AtomicInteger();
    private ReceiptFile reader;

    private ReceiptFile read(Path file) {
        reader = new ReceiptFile("test", file, lines::add, now -> sweeps.incrementAndGet());
        return reader;
    }

    @AfterEach
    void close() {
        if (reader != null) {
            reader.close();
        }
    }

    /** Appends as nginx does: O_APPEND, whole buffers. */
    private static void append(Path file, String text) throws IOException {
        try (FileChannel c = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                StandardOpenOption.APPEND)) {
            c.write(java.nio.ByteBuffer.wrap(text.getBytes(StandardCharsets.UTF_8)));
        }
    }

    private String next() throws InterruptedException {
        String line = lines.poll(5, TimeUnit.SECONDS);
        assertNotNull(line, "no line within 5 s");
        return line;
    }

    private void assertNoMore() throws InterruptedException {
        assertNull(lines.poll(3 * ReceiptFile.POLL_MILLIS, TimeUnit.MILLISECONDS));
    }

    @Test
    void startsAtTheEndAndHandsOnEachLineOnceItsNewlineIsThere() throws Exception {
        Path file = dir.resolve("receipts.log");
        append(file, "xr1 old line of an earlier start\n");
        read(file);
        append(file, "xr1 a\nxr1 b\nxr1 c-first-half");
        assertEquals("xr1 a", next());
        assertEquals("xr1 b", next());
        assertNoMore();
        append(file, "-second-half\n");
        assertEquals("xr1 c-first-half-second-half", next());
        assertNoMore();
    }

    @Test
    void aFileThatAppearsLaterIsReadFromItsBeginning() throws Exception {
        Path file = dir.resolve("receipts.log");
        read(file);
        Thread.sleep(2 * ReceiptFile.POLL_MILLIS);
        append(file, "xr1 first\nxr1 second\n");
        assertEquals("xr1 first", next());
        assertEquals("xr1 second", next());
    }

    @Test
    void aRotatedFileIsReadOnUntilNginxReopensAndTheNewOneFromItsBeginning() throws Exception {
        Path file = dir.resolve("receipts.log");
        append(file, "");
        read(file);
        append(file, "xr1 before\n");
        assertEquals("xr1 before", next());
        // logrotate: rename, create the new file; nginx writes on to the old one until it reopens
        Path old = dir.resolve("receipts.log.1");
        Files.move(file, old);
        append(old, "xr1 after the rename\n");
        assertEquals("xr1 after the rename", next());
        append(file, "xr1 in the new file\n");
        assertEquals("xr1 in the new file", next());
        append(old, "xr1 an old worker's last buffer\n");
        assertEquals("xr1 an old worker's last buffer", next());
        // logrotate compresses the old file and removes it: the open file is read to its end regardless
        Files.delete(old);
        append(file, "xr1 new again\n");
        assertEquals("xr1 new again", next());
        assertNoMore();
    }

    @Test
    void aFileTruncatedInPlaceIsReadAgainFromItsBeginning() throws Exception {
        Path file = dir.resolve("receipts.log");
        append(file, "");
        read(file);
        append(file, "xr1 one\n");
        assertEquals("xr1 one", next());
        try (FileChannel c = FileChannel.open(file, StandardOpenOption.WRITE)) {
            c.truncate(0);
        }
        // seen shorter before nginx writes past the old end (copytruncate's own race: docs/filter.md)
        Thread.sleep(3 * ReceiptFile.POLL_MILLIS);
        append(file, "xr1 two\n");
        assertEquals("xr1 two", next());
        assertNoMore();
    }

    @Test
    void aLineLongerThanAnyReceiptIsHandedOnAsItIsNotHeld() throws Exception {
        Path file = dir.resolve("receipts.log");
        append(file, "");
        read(file);
        append(file, "x".repeat(ReceiptFile.MAX_LINE + 10));
        assertTrue(next().length() > ReceiptFile.MAX_LINE);
        append(file, "\nxr1 next\n");
        assertEquals("xr1 next", next());
    }

    @Test
    void receiptsExpireAtLeastOnceASecondWhileNothingComes() throws Exception {
        read(dir.resolve("receipts.log"));
        Thread.sleep(2500);
        assertTrue(sweeps.get() >= 2, "sweeps " + sweeps.get());
    }

    @Test
    void aPipeAtTheNameIsNeverOpenedAndTheReaderStopsPromptly() throws Exception {
        Path file = dir.resolve("receipts.log");
        Process mkfifo = new ProcessBuilder("mkfifo", file.toString()).start();
        assertEquals(0, mkfifo.waitFor());
        read(file);
        Thread.sleep(3 * ReceiptFile.POLL_MILLIS);
        int before = sweeps.get();
        Thread.sleep(1500);
        assertTrue(sweeps.get() > before, "the reader did not wait for a writer of the pipe");
        Files.delete(file);
        append(file, "xr1 a file again\n");
        assertEquals("xr1 a file again", next());
        long start = System.nanoTime();
        reader.close();
        assertTrue(System.nanoTime() - start < TimeUnit.SECONDS.toNanos(2), "close took too long");
        reader = null;
    }
}
