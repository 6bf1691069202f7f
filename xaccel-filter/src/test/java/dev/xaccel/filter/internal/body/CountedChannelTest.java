package dev.xaccel.filter.internal.body;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;
import java.util.Random;
import java.util.concurrent.atomic.AtomicLong;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The channel handed to a container that sends after the filter returned: what its {@code transferTo} moved, told
 * once when it is closed, whether the callback came before or after the close, and the file's own channel closed
 * with it.
 */
class CountedChannelTest {

    @TempDir
    Path dir;

    private FileChannel file(byte[] data) throws Exception {
        return FileChannel.open(Files.write(dir.resolve("f.bin"), data), StandardOpenOption.READ);
    }

    @Test
    void tellsTheBytesTransferredWhenClosed() throws Exception {
        byte[] data = new byte[100_000];
        new Random(5).nextBytes(data);
        FileChannel file = file(data);
        CountedChannel counted = new CountedChannel(file);
        AtomicLong told = new AtomicLong(-1);
        counted.whenClosed(told::set);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        long n = counted.transferTo(1000, 30_000, Channels.newChannel(out));
        n += counted.transferTo(1000 + n, 10_000, Channels.newChannel(out));
        assertEquals(40_000, n);
        assertArrayEquals(Arrays.copyOfRange(data, 1000, 41_000), out.toByteArray());
        assertEquals(-1, told.get(), "nothing told before the close");
        counted.close();
        assertEquals(40_000, told.get());
        assertFalse(file.isOpen(), "the file's channel closes with it");
        counted.close();
        assertEquals(40_000, told.get(), "told once");
    }

    @Test
    void aCallbackAfterTheCloseRunsAtOnce() throws Exception {
        CountedChannel counted = new CountedChannel(file(new byte[10]));
        counted.transferTo(0, 4, Channels.newChannel(new ByteArrayOutputStream()));
        counted.close();
        AtomicLong told = new AtomicLong(-1);
        counted.whenClosed(told::set);
        assertEquals(4, told.get());
    }

    @Test
    void theRestGoesToTheFile() throws Exception {
        FileChannel file = file(new byte[] {1, 2, 3});
        try (CountedChannel counted = new CountedChannel(file)) {
            assertEquals(3, counted.size());
            assertTrue(counted.isOpen());
            counted.position(2);
            assertEquals(2, file.position());
        }
    }
}
