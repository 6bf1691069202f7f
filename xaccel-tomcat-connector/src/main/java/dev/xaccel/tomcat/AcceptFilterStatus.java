package dev.xaccel.tomcat;

/**
 * What applying the accept filter to a listening socket achieved.
 *
 * @param active      whether the kernel now holds connections until data arrives
 * @param effective   what was applied: a BSD filter name, {@code TCP_DEFER_ACCEPT}, or {@code none}
 * @param kernelValue what the kernel reports when read back: the BSD filter name, the Linux seconds (a
 *                    retransmission count, so 5 reads back as 7), empty when nothing is applied
 * @param message     the one log line describing the outcome
 * @param failed      whether a filter was wanted but could not be applied (logged as a warning; fails startup with
 *                    {@code acceptFilterFailOnError="true"})
 */
public record AcceptFilterStatus(boolean active, String effective, String kernelValue, String message,
        boolean failed) {

    /** Before the first bind. */
    static final AcceptFilterStatus NOT_BOUND =
            new AcceptFilterStatus(false, "none", "", Messages.get("status.notBound"), false);

    static AcceptFilterStatus failure(String message) {
        return new AcceptFilterStatus(false, "none", "", message, true);
    }
}
