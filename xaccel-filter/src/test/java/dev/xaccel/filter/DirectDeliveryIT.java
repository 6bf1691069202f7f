package dev.xaccel.filter;

import java.util.Map;

/**
 * The same delivery contract through the same nginx, with {@code offload=never}: the filter serves every
 * byte itself (ranges, conditionals, HEAD) and nginx only proxies.
 */
class DirectDeliveryIT extends AbstractDeliveryIT {

    @Override
    String suite() {
        return "direct";
    }

    @Override
    Map<String, String> filterParams() {
        return Map.of("offload", "never");
    }

    @Override
    boolean offloaded() {
        return false;
    }
}
