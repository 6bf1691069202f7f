package dev.xaccel.filter;

import java.util.Map;

/**
 * The delivery contract through nginx with the filter in its default mode ({@code offload=auto}): nginx
 * sets the marker, Tomcat sees nginx's loopback address (trusted by default), the filter answers with
 * X-Accel-Redirect and nginx serves the bytes from the internal location.
 */
class OffloadedDeliveryIT extends AbstractDeliveryIT {

    @Override
    String suite() {
        return "offloaded";
    }

    @Override
    Map<String, String> filterParams() {
        return Map.of();
    }

    @Override
    boolean offloaded() {
        return true;
    }
}
