package dev.xaccel.filter.internal.body;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.List;

import dev.xaccel.filter.internal.http.ByteRange;
import dev.xaccel.filter.internal.util.Messages;

/**
 * Writes a body out of an open file: one range copied in bounded chunks, or {@code multipart/byteranges}. What is
 * written comes from the channel the filter opened, never from the file's name. Thread-safe.
 */
public final class FileBody {

    private static final SecureRandom RANDOM = new SecureRandom();

    private final int bufferSize;

    /** @param bufferSize copy buffer size in bytes, at least 1 */
    public FileBody(int bufferSize) {
        if (bufferSize < 1) {
            throw new IllegalArgumentException(Messages.get("sender.badBufferSize", bufferSize));
        }
        this.bufferSize = bufferSize;
    }

    /** The file ended before the length it had when it was opened. Carries no path: it may reach a log. */
    public static final class Shrank extends IOException {
        private static final long serialVersionUID = 1L;
        public final long position;

        public Shrank(long position) {
            super(Messages.get("sender.fileShrankCommitted"));
            this.position = position;
        }
    }

    /** Copies {@code length} bytes from {@code start}; {@link Shrank} when the file ends earlier. */
    public void copy(FileChannel channel, long start, long length, OutputStream out) throws IOException {
        ByteBuffer buffer = ByteBuffer.allocate((int) Math.min(bufferSize, Math.max(1, length)));
        transfer(channel, start, length, buffer,
                chunk -> out.write(chunk.array(), chunk.position(), chunk.remaining()));
    }

    /** Where {@link #transfer} puts each chunk read; it must have taken the chunk's bytes when it returns. */
    @FunctionalInterface
    public interface Chunks {
        public void write(ByteBuffer chunk) throws IOException;
    }

    /**
     * Reads {@code length} bytes from {@code start} into {@code buffer}, chunk by chunk, each handed to {@code out}
     * flipped (from position 0); {@link Shrank} when the file ends earlier.
     */
    public static void transfer(FileChannel channel, long start, long length, ByteBuffer buffer, Chunks out)
            throws IOException {
        long position = start;
        long remaining = length;
        while (remaining > 0) {
            buffer.clear();
            if (remaining < buffer.capacity()) {
                buffer.limit((int) remaining);
            }
            int n = channel.read(buffer, position);
            if (n < 0) {
                throw new Shrank(position);
            }
            buffer.flip();
            out.write(buffer);
            position += n;
            remaining -= n;
        }
    }

    /**
     * The {@code multipart/byteranges} body of several ranges, ready to be written: its type (with the boundary)
     * and length are known before a byte is sent.
     *
     * @param type the file's content type, repeated in every part
     */
    public Multipart multipart(List<ByteRange> ranges, long size, String type) {
        String boundary = boundary();
        List<byte[]> partHeaders = new ArrayList<>(ranges.size());
        long total = 0;
        for (ByteRange r : ranges) {
            String h = "\r\n--" + boundary + "\r\nContent-Type: " + type + "\r\nContent-Range: "
                    + r.contentRange(size) + "\r\n\r\n";
            byte[] bytes = h.getBytes(StandardCharsets.ISO_8859_1);
            partHeaders.add(bytes);
            total += bytes.length + r.length();
        }
        byte[] trailer = ("\r\n--" + boundary + "--\r\n").getBytes(StandardCharsets.ISO_8859_1);
        return new Multipart("multipart/byteranges; boundary=" + boundary, total + trailer.length, ranges,
                partHeaders, trailer);
    }

    /**
     * A planned {@code multipart/byteranges} body.
     *
     * @param contentType the body's type, with its boundary
     * @param length      the body's length in bytes
     */
    public record Multipart(String contentType, long length, List<ByteRange> ranges, List<byte[]> partHeaders,
            byte[] trailer) {

        /** Writes the parts out of the open file. */
        public void write(FileBody body, FileChannel channel, OutputStream out) throws IOException {
            for (int i = 0; i < ranges.size(); i++) {
                out.write(partHeaders.get(i));
                body.copy(channel, ranges.get(i).start(), ranges.get(i).length(), out);
            }
            out.write(trailer);
            out.flush();
        }

        /** Writes the parts out of a small file's bytes in memory. */
        public void write(byte[] content, OutputStream out) throws IOException {
            for (int i = 0; i < ranges.size(); i++) {
                out.write(partHeaders.get(i));
                out.write(content, (int) ranges.get(i).start(), (int) ranges.get(i).length());
            }
            out.write(trailer);
            out.flush();
        }
    }

    private static String boundary() {
        byte[] bytes = new byte[12];
        RANDOM.nextBytes(bytes);
        StringBuilder sb = new StringBuilder("xaccel-");
        for (byte b : bytes) {
            sb.append(Character.forDigit((b >> 4) & 0xf, 16)).append(Character.forDigit(b & 0xf, 16));
        }
        return sb.toString();
    }
}
