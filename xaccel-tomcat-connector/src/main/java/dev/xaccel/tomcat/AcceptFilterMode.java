package dev.xaccel.tomcat;

import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;

/** The values of the connector attribute {@value AcceptFilterNioEndpoint#ATTR_ACCEPT_FILTER}. */
public enum AcceptFilterMode {

    /** {@code httpready} on a plain HTTP connector, {@code tlsready} else {@code dataready} on TLS and AJP. */
    AUTO,
    /** FreeBSD/NetBSD {@code httpready}; Linux {@code TCP_DEFER_ACCEPT}. */
    HTTPREADY,
    /** FreeBSD/NetBSD {@code dataready}; Linux {@code TCP_DEFER_ACCEPT}. */
    DATAREADY,
    /** FreeBSD {@code tlsready}; Linux {@code TCP_DEFER_ACCEPT}. */
    TLSREADY,
    /** Leave the listening socket untouched. */
    NONE;

    /** The attribute name, {@value}; the endpoint's {@link AcceptFilterNioEndpoint#ATTR_ACCEPT_FILTER} is this. */
    static final String ATTRIBUTE = "acceptFilter";

    /** @return the attribute value, lower case */
    public String attributeValue() {
        return name().toLowerCase(Locale.ROOT);
    }

    /**
     * The BSD filters to try in order: the first one the kernel has wins. {@code auto} on a TLS connector tries
     * {@code tlsready} (recent FreeBSD) and falls back to {@code dataready}, as {@code httpready} cannot parse TLS.
     *
     * @param tls          whether the connector terminates TLS
     * @param plainDefault the {@code auto} filter of a plain connector ({@code httpready} for HTTP, {@code dataready}
     *                     for AJP)
     * @return the candidates, empty for {@link #NONE}
     */
    public List<AcceptFilter> candidates(boolean tls, AcceptFilter plainDefault) {
        switch (this) {
            case AUTO:
                return tls ? List.of(AcceptFilter.TLSREADY, AcceptFilter.DATAREADY) : List.of(plainDefault);
            case HTTPREADY:
                return List.of(AcceptFilter.HTTPREADY);
            case DATAREADY:
                return List.of(AcceptFilter.DATAREADY);
            case TLSREADY:
                return List.of(AcceptFilter.TLSREADY);
            default:
                return Collections.emptyList();
        }
    }

    /**
     * @param value the attribute value (case-insensitive, surrounding blanks ignored)
     * @return the mode
     * @throws IllegalArgumentException naming the attribute and the value if it is not one of the modes
     */
    public static AcceptFilterMode parse(String value) {
        if (value != null) {
            String v = value.trim().toUpperCase(Locale.ROOT);
            for (AcceptFilterMode mode : values()) {
                if (mode.name().equals(v)) {
                    return mode;
                }
            }
        }
        throw new IllegalArgumentException(Messages.get("endpoint.invalidAttribute", ATTRIBUTE, value, allowed()));
    }

    static String allowed() {
        return Arrays.stream(values()).map(AcceptFilterMode::attributeValue).collect(Collectors.joining("|"));
    }
}
