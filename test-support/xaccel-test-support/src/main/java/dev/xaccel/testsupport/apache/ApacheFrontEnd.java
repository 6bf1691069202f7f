package dev.xaccel.testsupport.apache;

import java.nio.file.Path;

import dev.xaccel.testsupport.frontend.ShippedFrontEnd;

/** Apache httpd 2.4 + mod_xsendfile with {@code docs/apache/xaccel.conf}: {@code xaccel.frontend=apache}. */
public final class ApacheFrontEnd extends ShippedFrontEnd {

    public ApacheFrontEnd() {
        super("apache", "docs/apache/xaccel.conf", "docs/apache/xaccel-tls.conf", "X-Sendfile");
    }

    @Override
    protected ApacheServer.Builder builder(Path prefix) {
        return ApacheServer.builder(prefix);
    }

    /** mod_proxy keeps a pool per child process: sequential requests may use another child's connection. */
    @Override
    public boolean reusesUpstreamConnections() {
        return false;
    }
}
