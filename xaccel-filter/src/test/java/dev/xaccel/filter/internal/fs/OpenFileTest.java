package dev.xaccel.filter.internal.fs;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Who closes the channel: the owner, unless it was handed over and taken. */
class OpenFileTest {

    @TempDir
    Path dir;

    private OpenFile open() throws Exception {
        Path file = Files.write(dir.resolve("f.bin"), new byte[10]);
        FileChannel channel = FileChannel.open(file);
        return new OpenFile(channel, 10, 0);
    }

    @Test
    void closeClosesTheChannel() throws Exception {
        OpenFile open = open();
        open.close();
        assertFalse(open.channel().isOpen());
    }

    @Test
    void aTakenChannelIsLeftOpenForItsNewOwner() throws Exception {
        OpenFile open = open();
        List<FileChannel> taken = new ArrayList<>();
        assertTrue(open.handOver(taken::add));
        open.close();
        assertTrue(open.channel().isOpen());
        assertSame(open.channel(), taken.get(0));
        taken.get(0).close();
    }

    @Test
    void aRefusedChannelIsStillClosedByItsOwner() throws Exception {
        OpenFile open = open();
        assertFalse(open.handOver(c -> false));
        open.close();
        assertFalse(open.channel().isOpen());
    }

    @Test
    void aClosedChannelIsNotOffered() throws Exception {
        OpenFile open = open();
        open.close();
        assertFalse(open.handOver(c -> {
            throw new AssertionError("offered a closed channel");
        }));
    }
}
