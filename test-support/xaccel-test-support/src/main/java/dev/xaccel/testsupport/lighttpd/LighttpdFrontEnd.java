package dev.xaccel.testsupport.lighttpd;

import java.nio.file.Path;

import dev.xaccel.testsupport.frontend.ShippedFrontEnd;

/** lighttpd 1.4 (mod_proxy, X-Sendfile) with {@code docs/lighttpd/xaccel.conf}: {@code xaccel.frontend=lighttpd}. */
public final class LighttpdFrontEnd extends ShippedFrontEnd {

    public LighttpdFrontEnd() {
        super("lighttpd", "docs/lighttpd/xaccel.conf", "docs/lighttpd/xaccel-tls.conf", "X-Sendfile");
    }

    @Override
    protected LighttpdServer.Builder builder(Path prefix) {
        return LighttpdServer.builder(prefix);
    }

    /** mod_proxy closes the backend connection after each request. */
    @Override
    public boolean reusesUpstreamConnections() {
        return false;
    }

    /** {@code server.http-parseopts} "url-ctrls-reject" (on by default): 400, also for %0D%0A. */
    @Override
    public boolean acceptsControlCharactersInTargets() {
        return false;
    }
}
