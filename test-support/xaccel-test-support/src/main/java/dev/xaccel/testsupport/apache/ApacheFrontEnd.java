package dev.xaccel.testsupport.apache;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Map;

import dev.xaccel.testsupport.frontend.FrontEndServer;
import dev.xaccel.testsupport.frontend.ShippedFrontEnd;

/** Apache httpd 2.4 + mod_xsendfile with {@code docs/apache/xaccel.conf}: {@code xaccel.frontend=apache}. */
public final class ApacheFrontEnd extends ShippedFrontEnd {

    public ApacheFrontEnd() {
        super("apache", "docs/apache/xaccel.conf", "X-Sendfile");
    }

    @Override
    protected FrontEndServer server(Path prefix, Path template, Map<String, String> values, Path mediaRoot)
            throws IOException {
        return ApacheServer.builder(prefix).template(template).values(values).workersRead(mediaRoot).start();
    }

    /** mod_proxy keeps a pool per child process: sequential requests may use another child's connection. */
    @Override
    public boolean reusesUpstreamConnections() {
        return false;
    }
}
