package dev.xaccel.tomcat.internal.sendfile;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Ownership of the channel put in a slot: taken once, closed when never taken, refused after the request ended. */
class ChannelSlotTest {

    @TempDir
    Path dir;

    private FileChannel channel() throws Exception {
        return FileChannel.open(Files.write(dir.resolve("f.bin"), new byte[] { 1, 2, 3 }));
    }

    @Test
    void aChannelIsTakenOnceAndThenBelongsToItsTaker() throws Exception {
        ChannelSlot slot = new ChannelSlot();
        try (FileChannel channel = channel()) {
            assertTrue(slot.test(channel));
            assertSame(channel, slot.take());
            assertNull(slot.take());
            assertFalse(slot.end(), "nothing left to close");
            assertTrue(channel.isOpen(), "the taker closes it");
        }
    }

    @Test
    void aChannelNeverTakenIsClosedWhenTheRequestEnds() throws Exception {
        ChannelSlot slot = new ChannelSlot();
        FileChannel channel = channel();
        assertTrue(slot.test(channel));
        assertTrue(slot.end());
        assertFalse(channel.isOpen());
        assertNull(slot.take());
    }

    @Test
    void oneChannelPerRequestAndNoneAfterItsEnd() throws Exception {
        ChannelSlot slot = new ChannelSlot();
        try (FileChannel first = channel(); FileChannel second = channel()) {
            assertFalse(slot.test(null));
            assertTrue(slot.test(first));
            assertFalse(slot.test(second), "a second channel");
            assertSame(first, slot.take());
            assertFalse(slot.test(second), "a channel after the first was taken");
            ChannelSlot ended = new ChannelSlot();
            ended.end();
            assertFalse(ended.test(second), "a channel after the request ended");
            assertTrue(second.isOpen(), "a refused channel stays its owner's");
        }
    }

    @Test
    void theCurrentSlotIsTheOneBoundToThisThread() throws Exception {
        ChannelSlot slot = new ChannelSlot();
        assertNull(ChannelSlot.current());
        slot.bind();
        try {
            assertSame(slot, ChannelSlot.current());
            Thread other = new Thread(() -> assertNull(ChannelSlot.current()));
            other.start();
            other.join();
        } finally {
            ChannelSlot.unbind();
        }
        assertNull(ChannelSlot.current());
    }
}
