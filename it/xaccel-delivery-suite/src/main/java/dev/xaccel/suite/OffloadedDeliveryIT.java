package dev.xaccel.suite;

import java.util.Map;

/**
 * The delivery contract through the front end with the filter in its default mode ({@code offload=auto}): the
 * front end sets the marker, the container sees its loopback address (trusted by default), the filter answers
 * with the offload header (X-Accel-Redirect for nginx) and the front end serves the bytes from the media root.
 */
public class OffloadedDeliveryIT extends DeliverySuite {

    @Override
    protected String suite() {
        return "offloaded";
    }

    @Override
    protected Map<String, String> filterParams() {
        return Map.of();
    }

    @Override
    protected boolean offloaded() {
        return true;
    }
}
