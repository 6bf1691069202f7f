package dev.xaccel.testsupport.caddy;

import dev.xaccel.testsupport.frontend.ShippedFrontEnd;
import java.nio.file.Path;
import java.util.List;

/** Caddy 2 with {@code docs/caddy/Caddyfile}, X-Accel-Redirect like nginx: {@code xaccel.frontend=caddy}. */
public final class CaddyFrontEnd extends ShippedFrontEnd {

    public CaddyFrontEnd() {
        super("caddy", "docs/caddy/Caddyfile", "docs/caddy/Caddyfile-tls", "X-Accel-Redirect");
    }

    @Override
    protected CaddyServer.Builder builder(Path prefix) {
        return CaddyServer.builder(prefix);
    }

    /** Caddyfile-tls keeps the Caddyfile's cleartext site beside its TLS one. */
    @Override
    protected List<String> tlsPorts() {
        return List.of("TLS_PORT", CaddyServer.FRONT_PORT);
    }

    @Override
    public boolean reusesUpstreamConnections() {
        return true;
    }
}
