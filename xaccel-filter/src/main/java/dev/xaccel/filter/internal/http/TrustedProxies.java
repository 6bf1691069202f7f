package dev.xaccel.filter.internal.http;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import dev.xaccel.filter.ConfigException;
import dev.xaccel.filter.internal.util.Messages;

/**
 * Immutable set of IPv4/IPv6 addresses and CIDR blocks (init-param {@code trustedProxies}), and whether
 * connections over a Unix domain socket are trusted (the entry {@value #UNIX}; see {@link FrontEndTrust}).
 * <p>
 * Only IP literals are accepted, both in the configuration and when matching
 * {@code ServletRequest.getRemoteAddr()}: this class never performs a DNS lookup. IPv4-mapped IPv6
 * addresses ({@code ::ffff:a.b.c.d}) are treated as the IPv4 address. Host bits below the prefix length are
 * ignored ({@code 10.1.2.3/8} equals {@code 10.0.0.0/8}).
 */
public final class TrustedProxies {

    /**
     * The entry that trusts every connection over a Unix domain socket of the container: such a connection has no
     * remote address, the socket file's permissions decide who can connect ({@link FrontEndTrust}).
     */
    public static final String UNIX = "unix";

    private static final TrustedProxies NONE = new TrustedProxies(List.of(), false, "");

    private final Block[] blocks;
    private final boolean unixSocket;
    private final String text;
    /**
     * The last address {@link #matches} trusted: a front end connects from one address, so the next request's
     * equal string is trusted without parsing it again. Written plainly: a String is immutable, and a reader
     * that misses the write only parses.
     */
    private String lastTrusted;

    private TrustedProxies(List<Block> blocks, boolean unixSocket, String text) {
        this.blocks = blocks.toArray(new Block[0]);
        this.unixSocket = unixSocket;
        this.text = text;
    }

    /**
     * Parses a comma and/or whitespace separated list of IP literals, CIDR blocks and the word {@value #UNIX}
     * (any case). An empty list trusts nobody.
     *
     * @throws ConfigException naming {@code param} and the bad entry
     */
    public static TrustedProxies parse(String param, String value) throws ConfigException {
        if (value == null || value.isBlank()) {
            return NONE;
        }
        List<Block> blocks = new ArrayList<>();
        List<String> canonical = new ArrayList<>();
        boolean unixSocket = false;
        for (String entry : value.trim().split("[,\\s]+")) {
            if (entry.isEmpty()) {
                continue;
            }
            if (entry.equalsIgnoreCase(UNIX)) {
                if (!unixSocket) {
                    unixSocket = true;
                    canonical.add(UNIX);
                }
                continue;
            }
            Block b = parseBlock(entry);
            if (b == null) {
                throw ConfigException.invalid(param, entry, Messages.get("config.cidr"));
            }
            blocks.add(b);
            canonical.add(entry);
        }
        return new TrustedProxies(blocks, unixSocket, String.join(", ", canonical));
    }

    /** {@code true} when {@code remoteAddr} is an IP literal inside one of the blocks. */
    public boolean matches(String remoteAddr) {
        if (remoteAddr == null || blocks.length == 0) {
            return false;
        }
        if (remoteAddr.equals(lastTrusted)) {
            return true;
        }
        byte[] addr = normalize(parseIp(remoteAddr.trim()));
        if (addr == null) {
            return false;
        }
        for (Block b : blocks) {
            if (b.contains(addr)) {
                lastTrusted = remoteAddr;
                return true;
            }
        }
        return false;
    }

    /** {@code true} when the list names {@value #UNIX}: connections over a Unix domain socket are trusted. */
    public boolean trustsUnixSocket() {
        return unixSocket;
    }

    /** Neither an address nor {@value #UNIX}: nobody is trusted. */
    public boolean isEmpty() {
        return blocks.length == 0 && !unixSocket;
    }

    @Override
    public String toString() {
        return "[" + text + "]";
    }

    private static Block parseBlock(String entry) {
        String addrPart = entry;
        int bits = -1;
        int slash = entry.indexOf('/');
        if (slash >= 0) {
            addrPart = entry.substring(0, slash);
            String bitsPart = entry.substring(slash + 1);
            if (bitsPart.isEmpty() || bitsPart.length() > 3 || !bitsPart.chars().allMatch(c -> c >= '0' && c <= '9')) {
                return null;
            }
            bits = Integer.parseInt(bitsPart);
        }
        if (addrPart.indexOf('%') >= 0) {
            return null; // zone ids make no sense in configuration
        }
        byte[] addr = parseIp(addrPart);
        if (addr == null) {
            return null;
        }
        int max = addr.length * 8;
        if (bits < 0) {
            bits = max;
        } else if (bits > max) {
            return null;
        }
        if (addr.length == 16 && isV4Mapped(addr) && bits >= 96) {
            addr = v4Of(addr);
            bits -= 96;
        }
        return new Block(addr, bits);
    }

    /** IPv4-mapped IPv6 becomes IPv4; everything else unchanged. */
    private static byte[] normalize(byte[] addr) {
        if (addr != null && addr.length == 16 && isV4Mapped(addr)) {
            return v4Of(addr);
        }
        return addr;
    }

    private static boolean isV4Mapped(byte[] a) {
        for (int i = 0; i < 10; i++) {
            if (a[i] != 0) {
                return false;
            }
        }
        return a[10] == (byte) 0xff && a[11] == (byte) 0xff;
    }

    private static byte[] v4Of(byte[] a) {
        return new byte[] {a[12], a[13], a[14], a[15]};
    }

    /**
     * Parses an IPv4 or IPv6 literal without any name resolution.
     *
     * @return 4 or 16 bytes, or {@code null} when {@code s} is not a literal
     */
    public static byte[] parseIp(String s) {
        if (s == null || s.isEmpty()) {
            return null;
        }
        if (s.indexOf(':') >= 0 || s.startsWith("[")) {
            return parseV6(s);
        }
        return parseV4(s);
    }

    /** Four dotted decimal octets (no leading zeros, no empty part); read in place, per request. */
    private static byte[] parseV4(String s) {
        byte[] out = new byte[4];
        int start = 0;
        for (int i = 0; i < 4; i++) {
            int end = s.indexOf('.', start);
            if ((end < 0) != (i == 3)) {
                return null;
            }
            end = end < 0 ? s.length() : end;
            int v = parseDecOctet(s, start, end);
            if (v < 0) {
                return null;
            }
            out[i] = (byte) v;
            start = end + 1;
        }
        return out;
    }

    private static int parseDecOctet(String s, int start, int end) {
        int len = end - start;
        if (len == 0 || len > 3 || (len > 1 && s.charAt(start) == '0')) {
            return -1;
        }
        int v = 0;
        for (int i = start; i < end; i++) {
            char c = s.charAt(i);
            if (c < '0' || c > '9') {
                return -1;
            }
            v = v * 10 + (c - '0');
        }
        return v <= 255 ? v : -1;
    }

    private static byte[] parseV6(String s) {
        String t = s;
        if (t.startsWith("[")) {
            if (!t.endsWith("]")) {
                return null;
            }
            t = t.substring(1, t.length() - 1);
        }
        int zone = t.indexOf('%');
        if (zone >= 0) {
            t = t.substring(0, zone);
        }
        t = t.toLowerCase(Locale.ROOT);
        int dbl = t.indexOf("::");
        if (dbl >= 0 && dbl != t.lastIndexOf("::")) {
            return null;
        }
        List<Integer> head = new ArrayList<>(8);
        List<Integer> tail = new ArrayList<>(8);
        if (dbl >= 0) {
            if (!parseGroups(t.substring(0, dbl), head, false)
                    || !parseGroups(t.substring(dbl + 2), tail, true)) {
                return null;
            }
            if (head.size() + tail.size() > 7) {
                return null;
            }
        } else {
            if (!parseGroups(t, head, true) || head.size() != 8) {
                return null;
            }
        }
        byte[] out = new byte[16];
        int i = 0;
        for (int w : head) {
            out[i++] = (byte) (w >>> 8);
            out[i++] = (byte) w;
        }
        i = 16 - tail.size() * 2;
        for (int w : tail) {
            out[i++] = (byte) (w >>> 8);
            out[i++] = (byte) w;
        }
        return out;
    }

    /** Appends 16-bit words; an embedded IPv4 is only allowed as the very last group when {@code last}. */
    private static boolean parseGroups(String part, List<Integer> out, boolean last) {
        if (part.isEmpty()) {
            return true;
        }
        String[] groups = part.split(":", -1);
        for (int g = 0; g < groups.length; g++) {
            String grp = groups[g];
            if (grp.indexOf('.') >= 0) {
                if (!last || g != groups.length - 1) {
                    return false;
                }
                byte[] v4 = parseV4(grp);
                if (v4 == null) {
                    return false;
                }
                out.add(((v4[0] & 0xff) << 8) | (v4[1] & 0xff));
                out.add(((v4[2] & 0xff) << 8) | (v4[3] & 0xff));
                continue;
            }
            if (grp.isEmpty() || grp.length() > 4) {
                return false;
            }
            int w = 0;
            for (int k = 0; k < grp.length(); k++) {
                int d = Character.digit(grp.charAt(k), 16);
                if (d < 0) {
                    return false;
                }
                w = (w << 4) | d;
            }
            out.add(w);
        }
        return out.size() <= 8;
    }

    private static final class Block {
        private final byte[] network;
        private final int bits;

        public Block(byte[] network, int bits) {
            this.network = network;
            this.bits = bits;
        }

        public boolean contains(byte[] addr) {
            if (addr.length != network.length) {
                return false;
            }
            int full = bits / 8;
            for (int i = 0; i < full; i++) {
                if (addr[i] != network[i]) {
                    return false;
                }
            }
            int rest = bits % 8;
            if (rest == 0) {
                return true;
            }
            int mask = (0xff << (8 - rest)) & 0xff;
            return (addr[full] & mask) == (network[full] & mask);
        }
    }
}
