package dev.xaccel.sample;

import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;

/**
 * The playing time of an audio file, for a podcast feed's {@code <itunes:duration>}: read from a WAV (RIFF/WAVE)
 * header, the format of the demo library (data bytes / byte rate of its {@code fmt } chunk). Other formats would
 * need a parser of their own (MP3 frames, MP4 boxes): for them the duration is unknown and the feed leaves it out.
 */
public final class AudioDuration {

    /** The header bytes read: the {@code fmt } and {@code data} chunks come first in any usual WAV file. */
    private static final int HEADER_LIMIT = 64 * 1024;

    private AudioDuration() {
    }

    /** The duration, or empty when the file is not a readable WAV file. */
    public static Optional<Duration> of(Path file) {
        if (!"wav".equals(Library.extension(file))) {
            return Optional.empty();
        }
        try (InputStream in = Files.newInputStream(file)) {
            return ofWav(in.readNBytes(HEADER_LIMIT), Files.size(file));
        } catch (IOException e) {
            return Optional.empty();
        }
    }

    /**
     * @param head     the first bytes of the file
     * @param fileSize its size (a {@code data} chunk that claims more than the file holds is cut to the file)
     */
    static Optional<Duration> ofWav(byte[] head, long fileSize) {
        ByteBuffer b = ByteBuffer.wrap(head).order(ByteOrder.LITTLE_ENDIAN);
        if (head.length < 12 || !"RIFF".equals(ascii(head, 0)) || !"WAVE".equals(ascii(head, 8))) {
            return Optional.empty();
        }
        long byteRate = 0;
        int pos = 12;
        while (pos + 8 <= head.length) {
            String id = ascii(head, pos);
            long size = Integer.toUnsignedLong(b.getInt(pos + 4));
            int data = pos + 8;
            if ("fmt ".equals(id) && size >= 16 && data + 12 <= head.length) {
                byteRate = Integer.toUnsignedLong(b.getInt(data + 8));
            } else if ("data".equals(id)) {
                if (byteRate == 0) {
                    return Optional.empty();
                }
                long bytes = Math.min(size, Math.max(0, fileSize - data));
                return Optional.of(Duration.ofMillis(bytes * 1000 / byteRate));
            }
            long next = data + size + (size & 1);      // chunks are padded to an even size
            if (next > head.length) {
                return Optional.empty();
            }
            pos = (int) next;
        }
        return Optional.empty();
    }

    private static String ascii(byte[] b, int at) {
        return new String(b, at, 4, StandardCharsets.US_ASCII);
    }
}
