package dev.xaccel.tomcat.internal.os;

import java.util.Objects;

/**
 * A socket option as {@code setsockopt(2)} takes it: the level and the option number of one operating system, with
 * the C name for messages. Immutable; {@link OsFamily} hands out the ones the connector uses.
 *
 * @param name   the C name, for example {@code TCP_DEFER_ACCEPT}
 * @param level  the level, for example {@code IPPROTO_TCP} or {@code SOL_SOCKET}
 * @param option the option number at that level
 */
public record SocketOption(String name, int level, int option) {

    /**
     * @param name   the C name, for example {@code TCP_DEFER_ACCEPT}
     * @param level  the level, for example {@code IPPROTO_TCP} or {@code SOL_SOCKET}
     * @param option the option number at that level
     */
    public SocketOption {
        Objects.requireNonNull(name, "name");
    }

    /** @return the C name */
    @Override
    public String toString() {
        return name;
    }
}
