package dev.xaccel.suite;

import java.util.Map;

/**
 * {@link ZeroCopyIT} with {@code sendfile=true}: Tomcat's own sendfile gets large single ranges, by name (it opens
 * the file again after the filter's check: the opt-in for roots no untrusted party writes); small bodies and a
 * replaced stream are still copied from the filter's channel. Not an {@code *IT}: a Tomcat module (11, 10.1) runs
 * it with a subclass of its own.
 */
public abstract class TomcatSendfileSuite extends ZeroCopyIT {

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
