package dev.xaccel.filter.internal.http;

import java.util.logging.Level;
import java.util.logging.Logger;

import jakarta.servlet.ServletRequest;

import dev.xaccel.filter.InitParams;
import dev.xaccel.filter.internal.util.Messages;
import dev.xaccel.filter.internal.util.ThrottledLog;

/**
 * Whether a request's connection comes from a trusted front end ({@code offload=auto}): over TCP, when its remote
 * address is in {@code trustedProxies}; over a Unix domain socket of the container, when {@code trustedProxies}
 * names {@value TrustedProxies#UNIX}, and never otherwise (fail closed).
 * <p>
 * A Unix domain socket connection has no remote address: Tomcat's NIO connector (10.1, 11) reports
 * {@code 127.0.0.1} for both ends and port {@code 0} for both, so an address match would trust such a connection
 * by accident (the default {@code trustedProxies} is loopback). No TCP or UDP connection has port 0 at either
 * end, so remote and local port both 0 identify the Unix socket; its address is never compared. Who may connect
 * to the socket is decided by the socket file's permissions (and those of its directory): only a process that can
 * open it for writing, i.e. the front end's user, reaches the application — the argument is written down in
 * {@code docs/security.md}.
 */
public final class FrontEndTrust {

    private static final Logger LOG = Logger.getLogger(FrontEndTrust.class.getName());
    /** A marked request over an untrusted Unix socket: the setting that is probably missing, at most once a minute. */
    private static final ThrottledLog UNTRUSTED_UNIX_LOG = new ThrottledLog(LOG, Level.WARNING);

    private FrontEndTrust() {
    }

    /** The connection of {@code req} is from a trusted front end. */
    public static boolean trusted(TrustedProxies proxies, ServletRequest req) {
        if (!isUnixSocket(req)) {
            return proxies.matches(req.getRemoteAddr());
        }
        if (proxies.trustsUnixSocket()) {
            return true;
        }
        UNTRUSTED_UNIX_LOG.log(() -> Messages.get("filter.unixSocketUntrusted", InitParams.TRUSTED_PROXIES,
                TrustedProxies.UNIX));
        return false;
    }

    /** The request arrived over a Unix domain socket: remote and local port are both 0 (no TCP/UDP peer has 0). */
    public static boolean isUnixSocket(ServletRequest req) {
        return req.getRemotePort() == 0 && req.getLocalPort() == 0;
    }
}
