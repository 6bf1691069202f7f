package dev.xaccel.tomcat;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Objects;

/**
 * A BSD accept filter: the name and argument of {@code struct accept_filter_arg { char af_name[16]; char
 * af_arg[240]; }} (256 bytes, no padding). Immutable. The Linux counterpart, {@code TCP_DEFER_ACCEPT}, is a number
 * of seconds and is kept apart (see {@link AcceptFilterNioEndpoint#setDeferAcceptSeconds(int)}).
 */
public final class AcceptFilter {

    /** Size of {@code af_name}, including its terminating NUL. */
    public static final int NAME_SIZE = 16;
    /** Size of {@code af_arg}, including its terminating NUL. */
    public static final int ARG_SIZE = 240;
    /** Size of {@code struct accept_filter_arg}. */
    public static final int STRUCT_SIZE = NAME_SIZE + ARG_SIZE;

    /** {@code accf_http}: holds a connection until a complete GET/HEAD request head has arrived. */
    public static final AcceptFilter HTTPREADY = new AcceptFilter("httpready");
    /** {@code accf_data}: holds a connection until data has arrived. */
    public static final AcceptFilter DATAREADY = new AcceptFilter("dataready");
    /** {@code accf_tls} (recent FreeBSD): holds a connection until a complete TLS record has arrived. */
    public static final AcceptFilter TLSREADY = new AcceptFilter("tlsready");

    private final String name;
    private final String arg;

    /**
     * @param name the filter name, 1 to 15 printable ASCII characters
     */
    public AcceptFilter(String name) {
        this(name, "");
    }

    /**
     * @param name the filter name, 1 to 15 printable ASCII characters
     * @param arg  the filter argument, at most 239 printable ASCII characters (empty for none)
     */
    public AcceptFilter(String name, String arg) {
        this.name = checked("name", name, NAME_SIZE - 1, false);
        this.arg = checked("arg", arg, ARG_SIZE - 1, true);
    }

    /** @return the filter name ({@code af_name}) */
    public String name() {
        return name;
    }

    /** @return the filter argument ({@code af_arg}), empty for none */
    public String arg() {
        return arg;
    }

    /**
     * @return the FreeBSD kernel module that provides this filter ({@code accf_http} for {@code httpready}), or
     *         {@code null} when unknown
     */
    public String kernelModule() {
        switch (name) {
            case "httpready":
                return "accf_http";
            case "dataready":
                return "accf_data";
            case "tlsready":
                return "accf_tls";
            case "dnsready":
                return "accf_dns";
            default:
                return null;
        }
    }

    /** @return the 256 bytes of {@code struct accept_filter_arg}, NUL-padded */
    public byte[] toStruct() {
        byte[] struct = new byte[STRUCT_SIZE];
        byte[] n = name.getBytes(StandardCharsets.US_ASCII);
        byte[] a = arg.getBytes(StandardCharsets.US_ASCII);
        System.arraycopy(n, 0, struct, 0, n.length);
        System.arraycopy(a, 0, struct, NAME_SIZE, a.length);
        return struct;
    }

    /**
     * Decodes what {@code getsockopt(SO_ACCEPTFILTER)} returned.
     *
     * @param struct the bytes (up to 256)
     * @return the filter, or {@code null} when the name is empty
     */
    public static AcceptFilter fromStruct(byte[] struct) {
        String n = cString(struct, 0, NAME_SIZE);
        if (n.isEmpty()) {
            return null;
        }
        return new AcceptFilter(n, cString(struct, NAME_SIZE, ARG_SIZE));
    }

    private static String cString(byte[] bytes, int offset, int size) {
        int end = offset;
        int limit = Math.min(bytes.length, offset + size);
        while (end < limit && bytes[end] != 0) {
            end++;
        }
        return end <= offset ? "" : new String(Arrays.copyOfRange(bytes, offset, end), StandardCharsets.US_ASCII);
    }

    private static String checked(String what, String value, int max, boolean emptyAllowed) {
        Objects.requireNonNull(value, what);
        if (!emptyAllowed && value.isEmpty()) {
            throw new IllegalArgumentException(Messages.get("filter.empty", what));
        }
        if (value.length() > max) {
            throw new IllegalArgumentException(Messages.get("filter.tooLong", what, value, String.valueOf(max)));
        }
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            if (c < 0x21 || c > 0x7e) {
                throw new IllegalArgumentException(Messages.get("filter.notPrintable", what, value));
            }
        }
        return value;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof AcceptFilter && ((AcceptFilter) o).name.equals(name) && ((AcceptFilter) o).arg.equals(arg);
    }

    @Override
    public int hashCode() {
        return name.hashCode() * 31 + arg.hashCode();
    }

    /** @return {@code name} or {@code name:arg} */
    @Override
    public String toString() {
        return arg.isEmpty() ? name : name + ":" + arg;
    }
}
