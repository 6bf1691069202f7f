package dev.xaccel.sample.demolib;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/** Writes a RIFF/WAVE file: 16-bit signed PCM, mono. */
final class WavWriter {

    static final int HEADER_BYTES = 44;

    private WavWriter() {
    }

    static byte[] header(int sampleRate, int samples) {
        int dataBytes = samples * 2;
        ByteBuffer b = ByteBuffer.allocate(HEADER_BYTES).order(ByteOrder.LITTLE_ENDIAN);
        b.put(ascii("RIFF")).putInt(36 + dataBytes).put(ascii("WAVE"));
        b.put(ascii("fmt ")).putInt(16)
                .putShort((short) 1)            // PCM
                .putShort((short) 1)            // mono
                .putInt(sampleRate)
                .putInt(sampleRate * 2)         // byte rate
                .putShort((short) 2)            // block align
                .putShort((short) 16);          // bits per sample
        b.put(ascii("data")).putInt(dataBytes);
        return b.array();
    }

    /** Writes header and samples (each clamped to the 16-bit range). */
    static void write(OutputStream out, int sampleRate, Signal signal, int samples) throws IOException {
        out.write(header(sampleRate, samples));
        ByteBuffer buf = ByteBuffer.allocate(64 * 1024).order(ByteOrder.LITTLE_ENDIAN);
        for (int i = 0; i < samples; i++) {
            double v = signal.next();
            int s = (int) Math.round(v * 32767.0);
            s = Math.max(-32768, Math.min(32767, s));
            buf.putShort((short) s);
            if (!buf.hasRemaining()) {
                out.write(buf.array(), 0, buf.position());
                buf.clear();
            }
        }
        out.write(buf.array(), 0, buf.position());
    }

    private static byte[] ascii(String s) {
        return s.getBytes(java.nio.charset.StandardCharsets.US_ASCII);
    }

    /** A mono signal in [-1, 1], one sample per call. */
    interface Signal {
        double next();
    }
}
