package dev.xaccel.filter.internal.receipt;

import java.security.GeneralSecurityException;
import java.security.SecureRandom;
import java.util.HexFormat;
import java.util.concurrent.atomic.AtomicLong;

import javax.crypto.Cipher;
import javax.crypto.spec.SecretKeySpec;

/**
 * Receipt identifiers: one AES-128 block over (a random per-filter word, a counter), under a random per-filter key,
 * as 32 hex digits. Unguessable without the key, unique (the counter), cheap (one block, no random draw per
 * request), and the filter can tell an identifier it issued from an invented one by decrypting it: the word comes
 * back only from its own key. Thread-safe.
 */
public final class ReceiptIds {

    private static final HexFormat HEX = HexFormat.of();

    private final SecretKeySpec key;
    private final long word;
    private final AtomicLong counter = new AtomicLong();
    private final ThreadLocal<Cipher> encrypt;
    private final ThreadLocal<Cipher> decrypt;

    public ReceiptIds(SecureRandom random) {
        byte[] k = new byte[16];
        random.nextBytes(k);
        key = new SecretKeySpec(k, "AES");
        word = random.nextLong();
        encrypt = ThreadLocal.withInitial(() -> cipher(Cipher.ENCRYPT_MODE));
        decrypt = ThreadLocal.withInitial(() -> cipher(Cipher.DECRYPT_MODE));
    }

    private Cipher cipher(int mode) {
        try {
            // one block of 16 bytes: ECB of a single block is the block cipher itself
            Cipher c = Cipher.getInstance("AES/ECB/NoPadding");
            c.init(mode, key);
            return c;
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    /** A new identifier, never issued before by this instance. */
    public String next() {
        return id(draw());
    }

    /** A new counter, never drawn before by this instance: {@link #id} makes its identifier. */
    long draw() {
        return counter.incrementAndGet();
    }

    /** The identifier of a drawn counter. */
    String id(long drawn) {
        byte[] block = new byte[16];
        put(block, 0, word);
        put(block, 8, drawn);
        try {
            return HEX.formatHex(encrypt.get().doFinal(block));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    /**
     * Whether {@code id} is one this instance issued (issued at some time, pending or not).
     *
     * @param id 32 lower-case hex digits
     */
    public boolean issued(String id) {
        return counterOf(id) > 0;
    }

    /**
     * The counter {@code id} was made from, or -1 when this instance never issued it: another key's, invented, or
     * not yet drawn.
     */
    long counterOf(String id) {
        if (id.length() != 32 || !isHex(id)) {
            return -1;
        }
        try {
            byte[] block = decrypt.get().doFinal(HEX.parseHex(id));
            long c = get(block, 8);
            return get(block, 0) == word && c > 0 && c <= counter.get() ? c : -1;
        } catch (GeneralSecurityException e) {
            return -1;
        }
    }

    static boolean isHex(String s) {
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (!(c >= '0' && c <= '9' || c >= 'a' && c <= 'f')) {
                return false;
            }
        }
        return true;
    }

    private static void put(byte[] b, int at, long v) {
        for (int i = 7; i >= 0; i--) {
            b[at + i] = (byte) v;
            v >>>= 8;
        }
    }

    private static long get(byte[] b, int at) {
        long v = 0;
        for (int i = 0; i < 8; i++) {
            v = (v << 8) | (b[at + i] & 0xff);
        }
        return v;
    }
}
