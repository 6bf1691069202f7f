package dev.xaccel.testsupport.caddy;

import dev.xaccel.testsupport.frontend.FrontEndServer;
import dev.xaccel.testsupport.frontend.ShippedFrontEnd;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Map;

/** Caddy 2 with {@code docs/caddy/Caddyfile}, X-Accel-Redirect like nginx: {@code xaccel.frontend=caddy}. */
public final class CaddyFrontEnd extends ShippedFrontEnd {

    public CaddyFrontEnd() {
        super("caddy", "docs/caddy/Caddyfile", "X-Accel-Redirect");
    }

    @Override
    protected FrontEndServer server(Path prefix, Path template, Map<String, String> values, Path mediaRoot)
            throws IOException {
        return CaddyServer.builder(prefix).template(template).values(values).workersRead(mediaRoot).start();
    }

    @Override
    public boolean reusesUpstreamConnections() {
        return true;
    }
}
