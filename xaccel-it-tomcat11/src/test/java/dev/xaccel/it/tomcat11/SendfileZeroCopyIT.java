package dev.xaccel.it.tomcat11;

import java.util.Map;

import dev.xaccel.suite.ZeroCopyIT;

/**
 * {@code sendfile=true}: Tomcat's own sendfile gets large single ranges, by name (it opens the file again after
 * the filter's check: the opt-in for roots no untrusted party writes); small bodies and a replaced stream are
 * still copied from the filter's channel.
 */
class SendfileZeroCopyIT extends ZeroCopyIT {

    @Override
    protected Map<String, String> filterParams() {
        return Map.of("offload", "never", "sendfile", "true");
    }

    @Override
    protected String expectedBodyWriter() {
        return "tomcat-sendfile";
    }

    @Override
    protected String suite() {
        return "zerocopy-sendfile";
    }
}
