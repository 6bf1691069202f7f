package dev.xaccel.sample.api;

import org.glassfish.jersey.jsonb.JsonBindingFeature;
import org.glassfish.jersey.server.ResourceConfig;
import org.glassfish.jersey.server.ServerProperties;

import dev.xaccel.filter.jaxrs.XAccelFeature;

/** The Jersey application behind {@code /api/*}: resources, JSON-B, and the xaccel feature. */
public class SampleApplication extends ResourceConfig {

    public SampleApplication() {
        register(ItemsResource.class);
        register(AuthResource.class);
        register(StatsResource.class);
        register(FeedTokenResource.class);
        register(FormBodies.class);
        register(JsonBindingFeature.class);
        register(XAccelFeature.class);
        property(ServerProperties.WADL_FEATURE_DISABLE, true);
    }
}
