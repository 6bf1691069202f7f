package dev.xaccel.suite;

import java.util.Map;

/**
 * The same delivery contract through the same front end, with {@code offload=never}: the filter serves every
 * byte itself (ranges, conditionals, HEAD) and the front end only proxies.
 */
public class DirectDeliveryIT extends DeliverySuite {

    @Override
    protected String suite() {
        return "direct";
    }

    @Override
    protected Map<String, String> filterParams() {
        return Map.of("offload", "never");
    }

    @Override
    protected boolean offloaded() {
        return false;
    }
}
