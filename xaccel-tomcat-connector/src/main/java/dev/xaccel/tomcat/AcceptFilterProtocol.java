package dev.xaccel.tomcat;

/**
 * The accept filter attributes of {@link AcceptFilterHttp11NioProtocol} and {@link AcceptFilterAjpNioProtocol}, as
 * plain setters that {@code server.xml} reaches (Tomcat's introspection sees these default methods), delegating to
 * the {@link AcceptFilterNioEndpoint}. The read-only ones show up as attributes of the {@code ProtocolHandler}
 * MBean.
 */
public interface AcceptFilterProtocol {

    /** @return the endpoint that applies the filter */
    AcceptFilterNioEndpoint acceptFilterEndpoint();

    /** @param value {@code httpready|dataready|tlsready|none|auto} (default {@code auto}) */
    default void setAcceptFilter(String value) {
        acceptFilterEndpoint().setAcceptFilter(value);
    }

    /** @return the configured {@code acceptFilter} */
    default String getAcceptFilter() {
        return acceptFilterEndpoint().getAcceptFilter();
    }

    /** @param seconds Linux {@code TCP_DEFER_ACCEPT} seconds (default 1) */
    default void setDeferAcceptSeconds(int seconds) {
        acceptFilterEndpoint().setDeferAcceptSeconds(seconds);
    }

    /** @return the configured {@code deferAcceptSeconds} */
    default int getDeferAcceptSeconds() {
        return acceptFilterEndpoint().getDeferAcceptSeconds();
    }

    /** @param failOnError fail startup when the filter cannot be applied (default false) */
    default void setAcceptFilterFailOnError(boolean failOnError) {
        acceptFilterEndpoint().setAcceptFilterFailOnError(failOnError);
    }

    /** @return the configured {@code acceptFilterFailOnError} */
    default boolean getAcceptFilterFailOnError() {
        return acceptFilterEndpoint().getAcceptFilterFailOnError();
    }

    /** @return whether the kernel currently holds connections for this connector */
    default boolean isAcceptFilterActive() {
        return acceptFilterEndpoint().isAcceptFilterActive();
    }

    /** @return what was applied: a BSD filter name, {@code TCP_DEFER_ACCEPT}, or {@code none} */
    default String getAcceptFilterEffective() {
        return acceptFilterEndpoint().getAcceptFilterEffective();
    }

    /** @return the value the kernel reports (BSD filter name, Linux seconds), empty when none */
    default String getAcceptFilterKernelValue() {
        return acceptFilterEndpoint().getAcceptFilterKernelValue();
    }
}
