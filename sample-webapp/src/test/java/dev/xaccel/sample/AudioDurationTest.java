package dev.xaccel.sample;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class AudioDurationTest {

    @TempDir
    Path dir;

    /** RIFF/WAVE with a fmt chunk (16-bit mono at {@code rate}), optional extra chunks, then data. */
    static byte[] wav(int rate, int dataBytes, int actualBytes, byte[]... extraChunks) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.write(ascii("RIFF"));
        out.write(le(36 + dataBytes));
        out.write(ascii("WAVE"));
        out.write(ascii("fmt "));
        out.write(le(16));
        out.write(ByteBuffer.allocate(16).order(ByteOrder.LITTLE_ENDIAN).putShort((short) 1).putShort((short) 1)
                .putInt(rate).putInt(rate * 2).putShort((short) 2).putShort((short) 16).array());
        for (byte[] chunk : extraChunks) {
            out.write(chunk);
        }
        out.write(ascii("data"));
        out.write(le(dataBytes));
        out.write(new byte[actualBytes]);
        return out.toByteArray();
    }

    static byte[] ascii(String s) {
        return s.getBytes(StandardCharsets.US_ASCII);
    }

    static byte[] le(int v) {
        return ByteBuffer.allocate(4).order(ByteOrder.LITTLE_ENDIAN).putInt(v).array();
    }

    private Optional<Duration> of(String name, byte[] content) throws IOException {
        Path f = dir.resolve(name);
        Files.write(f, content);
        return AudioDuration.of(f);
    }

    @Test
    void aPlainWavHeader() throws IOException {
        assertEquals(Optional.of(Duration.ofSeconds(3)), of("a.wav", wav(11025, 3 * 22050, 3 * 22050)));
        assertEquals(Optional.of(Duration.ofMillis(1500)), of("B.WAV", wav(8000, 24000, 24000)));
    }

    @Test
    void otherChunksBeforeTheDataAreSkippedWithTheirPadding() throws IOException {
        byte[] list = new byte[8 + 5 + 1];                      // an odd-sized chunk and its pad byte
        System.arraycopy(ascii("LIST"), 0, list, 0, 4);
        System.arraycopy(le(5), 0, list, 4, 4);
        assertEquals(Optional.of(Duration.ofSeconds(2)), of("l.wav", wav(1000, 4000, 4000, list)));
    }

    @Test
    void aDataChunkLongerThanTheFileCountsWhatIsThere() throws IOException {
        assertEquals(Optional.of(Duration.ofSeconds(1)), of("t.wav", wav(1000, -1, 2000)));
    }

    @Test
    void unknownFormatsHaveNoDuration() throws IOException {
        assertEquals(Optional.empty(), of("a.mp3", wav(1000, 2000, 2000)));
        assertEquals(Optional.empty(), of("x.wav", "not a wave file at all".getBytes(StandardCharsets.US_ASCII)));
        assertEquals(Optional.empty(), of("e.wav", new byte[0]));
        assertEquals(Optional.empty(), AudioDuration.of(dir.resolve("missing.wav")));
    }
}
