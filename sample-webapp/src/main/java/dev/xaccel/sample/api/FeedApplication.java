package dev.xaccel.sample.api;

import org.glassfish.jersey.server.ResourceConfig;
import org.glassfish.jersey.server.ServerProperties;

/**
 * The Jersey application behind {@code /feeds/*}: only {@link FeedsResource}. A servlet of its own, because
 * {@code /feeds/} is public for the authentication filter (a feed checks its own token), and nothing of
 * {@code /api/} may become reachable under it.
 */
public class FeedApplication extends ResourceConfig {

    public FeedApplication() {
        register(FeedsResource.class);
        property(ServerProperties.WADL_FEATURE_DISABLE, true);
        // an error status without an entity stays empty (no container error page with details)
        property(ServerProperties.RESPONSE_SET_STATUS_OVER_SEND_ERROR, true);
    }
}
