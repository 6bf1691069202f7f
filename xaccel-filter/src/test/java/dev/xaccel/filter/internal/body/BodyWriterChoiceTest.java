package dev.xaccel.filter.internal.body;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.when;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Random;

import jakarta.servlet.ServletOutputStream;
import jakarta.servlet.WriteListener;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The choice of the body writer outside any container: a stream of an unknown class (this test's, as an
 * application's wrapper would have) has neither hand-off and is copied; the container-specific ones are tested in
 * their containers (the delivery suite's ZeroCopyIT).
 */
class BodyWriterChoiceTest {

    @TempDir
    Path dir;

    /** A stream of no container: it even has a public {@code write(ByteBuffer)} and {@code transferFrom}. */
    static final class PlainStream extends ServletOutputStream {
        final ByteArrayOutputStream bytes = new ByteArrayOutputStream();

        @Override
        public void write(int b) {
            bytes.write(b);
        }

        @Override
        public void write(ByteBuffer buffer) {
            throw new AssertionError("not a container's stream: must not be used");
        }

        public void transferFrom(FileChannel channel) {
            throw new AssertionError("not a container's stream: must not be used");
        }

        @Override
        public boolean isReady() {
            return true;
        }

        @Override
        public void setWriteListener(WriteListener listener) {
        }
    }

    private static BodyWriter choose(BodyWriterChoice choice, PlainStream out, long length) throws Exception {
        HttpServletResponse resp = mock(HttpServletResponse.class);
        when(resp.getOutputStream()).thenReturn(out);
        return choice.choose(mock(HttpServletRequest.class), resp, null, Path.of("/srv/x.bin"), length);
    }

    @Test
    void anUnknownStreamIsCopiedWhateverMethodsItHas() throws Exception {
        PlainStream out = new PlainStream();
        byte[] data = new byte[200_000];
        new Random(3).nextBytes(data);
        Path file = Files.write(dir.resolve("x.bin"), data);
        BodyWriter writer = choose(new BodyWriterChoice(true, true, new FileBody(4096)), out, 100_000);
        assertEquals(Copy.NAME, writer.name());
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ)) {
            writer.send(ch, 50_000, 100_000);
        }
        assertArrayEquals(java.util.Arrays.copyOfRange(data, 50_000, 150_000), out.bytes.toByteArray());
    }

    @Test
    void theHandOffsIgnoreStreamsOfOtherClasses() {
        assertNull(ChannelTransfer.of(new PlainStream()));
        assertNull(ByteBufferWrite.of(new PlainStream()));
    }

    @Test
    void sendfileNeedsTomcatsOwnObjects() {
        assertNull(TomcatSendfile.of(mock(HttpServletRequest.class), mock(HttpServletResponse.class), Path.of("/x"),
                1 << 20));
    }

    @Test
    void switchedOffAndSmallBodiesAreCopied() throws Exception {
        assertEquals(Copy.NAME, choose(new BodyWriterChoice(false, false, new FileBody(4096)), new PlainStream(),
                1 << 20).name());
        assertEquals(Copy.NAME, choose(new BodyWriterChoice(false, true, new FileBody(4096)), new PlainStream(),
                100).name());
    }

    @Test
    void aFileShorterThanAtOpeningIsRefusedBeforeAHandOff() throws Exception {
        Path file = Files.write(dir.resolve("short.bin"), new byte[10]);
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ)) {
            FileBody.Shrank e = assertThrows(FileBody.Shrank.class, () -> BodyWriter.requireLength(ch, 5, 6));
            assertEquals(10, e.position);
            BodyWriter.requireLength(ch, 4, 6);
        }
    }
}
