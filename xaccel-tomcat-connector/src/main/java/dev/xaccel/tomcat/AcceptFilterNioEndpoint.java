package dev.xaccel.tomcat;

import java.io.IOException;
import java.io.OutputStream;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;

import org.apache.juli.logging.Log;
import org.apache.juli.logging.LogFactory;
import org.apache.tomcat.util.ExceptionUtils;
import org.apache.tomcat.util.net.Acceptor.AcceptorState;
import org.apache.tomcat.util.net.NioChannel;
import org.apache.tomcat.util.net.NioEndpoint;
import org.apache.tomcat.util.net.SocketBufferHandler;
import org.apache.tomcat.util.net.SocketProperties;

import dev.xaccel.tomcat.internal.sendfile.CheckedFileSocketWrapper;

/**
 * A {@link NioEndpoint} that applies a kernel accept filter to its listening socket each time it binds, so that a
 * connection reaches Tomcat's acceptor only once its first data (FreeBSD {@code httpready}: its whole request head)
 * has arrived.
 * <ul>
 * <li>Linux: {@code TCP_DEFER_ACCEPT} with {@link #setDeferAcceptSeconds(int) deferAcceptSeconds}.</li>
 * <li>FreeBSD, NetBSD: {@code SO_ACCEPTFILTER} with {@code httpready}, {@code dataready} or {@code tlsready}.</li>
 * <li>Elsewhere: one warning, and the connector runs without.</li>
 * </ul>
 * Because the kernel holds connections that send nothing, {@link #unlockAccept()} (pause, stop) sends a small
 * complete request instead of connecting silently as {@link NioEndpoint} does.
 * <p>
 * With {@link #setCheckedFileSendfile(String) checkedFileSendfile} (default {@code true}) and {@code useSendfile}
 * (Tomcat's, default {@code true}), its sockets are {@link CheckedFileSocketWrapper}s: Tomcat's sendfile from a
 * file channel the xaccel filter opened and checked, sent on the request's worker thread, instead of opening the
 * file again by name (the HTTP/1.1 protocol offers the channel's slot: {@link AcceptFilterHttp11NioProtocol}).
 */
public class AcceptFilterNioEndpoint extends NioEndpoint {

    /** Attribute name: {@code httpready|dataready|tlsready|none|auto}. */
    public static final String ATTR_ACCEPT_FILTER = AcceptFilterMode.ATTRIBUTE;
    /** Default of {@value #ATTR_ACCEPT_FILTER}: {@value}. */
    public static final String DEFAULT_ACCEPT_FILTER = "auto";
    /** Attribute name: Linux {@code TCP_DEFER_ACCEPT} seconds, 1 to {@value #MAX_DEFER_ACCEPT_SECONDS}. */
    public static final String ATTR_DEFER_ACCEPT_SECONDS = "deferAcceptSeconds";
    /**
     * Default of {@value #ATTR_DEFER_ACCEPT_SECONDS}: {@value}, as nginx's {@code deferred} and HAProxy's
     * {@code defer-accept}. Real clients send their request with the handshake's last ACK, so any value removes the
     * wake-up before data; a longer one (Apache httpd uses 30) also keeps silent connections out of Tomcat longer,
     * but they then occupy the kernel's SYN queue, which is bounded by {@code acceptCount}.
     */
    public static final int DEFAULT_DEFER_ACCEPT_SECONDS = 1;
    /** Largest accepted {@value #ATTR_DEFER_ACCEPT_SECONDS}. */
    public static final int MAX_DEFER_ACCEPT_SECONDS = 3600;
    /** Attribute name: fail startup when the filter cannot be applied. */
    public static final String ATTR_FAIL_ON_ERROR = "acceptFilterFailOnError";
    /** Default of {@value #ATTR_FAIL_ON_ERROR}: {@value} (warn and run without, as nginx, Apache and HAProxy do). */
    public static final boolean DEFAULT_FAIL_ON_ERROR = false;

    /** Attribute name: send a file the xaccel filter checked from its open channel, {@code true|false}. */
    public static final String ATTR_CHECKED_FILE_SENDFILE = "checkedFileSendfile";
    /** Default of {@value #ATTR_CHECKED_FILE_SENDFILE}: {@value}. */
    public static final String DEFAULT_CHECKED_FILE_SENDFILE = "true";

    /** The HTTP wake-up request: complete, so that {@code httpready} and {@code TCP_DEFER_ACCEPT} release it. */
    static final byte[] HTTP_WAKE_UP =
            "OPTIONS * HTTP/1.0\r\nUser-Agent: xaccel-tomcat wake-up\r\n\r\n".getBytes(StandardCharsets.US_ASCII);
    /** The AJP wake-up: a CPing packet (passes {@code dataready} and {@code TCP_DEFER_ACCEPT}). */
    static final byte[] AJP_CPING = { 0x12, 0x34, 0x00, 0x01, 0x0A };

    private static final Log log = LogFactory.getLog(AcceptFilterNioEndpoint.class);

    private final AcceptFilter plainDefault;
    private final byte[] wakeUpRequest;
    private final AcceptFilterInstaller installer;

    private volatile String acceptFilter = DEFAULT_ACCEPT_FILTER;
    private volatile int deferAcceptSeconds = DEFAULT_DEFER_ACCEPT_SECONDS;
    private volatile boolean failOnError = DEFAULT_FAIL_ON_ERROR;
    private volatile String checkedFileSendfile = DEFAULT_CHECKED_FILE_SENDFILE;
    private volatile boolean checkedFileSendfileOn = true;
    private volatile AcceptFilterStatus status = AcceptFilterStatus.NOT_BOUND;
    private String lastWarning;

    /** An HTTP endpoint: {@code auto} means {@code httpready} on plain connectors. */
    public AcceptFilterNioEndpoint() {
        this(AcceptFilter.HTTPREADY, HTTP_WAKE_UP);
    }

    /**
     * @param plainDefault  the filter {@code auto} means on a plain (non-TLS) connector
     * @param wakeUpRequest the bytes {@link #unlockAccept()} sends to wake the acceptor through the filter
     */
    protected AcceptFilterNioEndpoint(AcceptFilter plainDefault, byte[] wakeUpRequest) {
        this(plainDefault, wakeUpRequest, new AcceptFilterInstaller());
    }

    AcceptFilterNioEndpoint(AcceptFilter plainDefault, byte[] wakeUpRequest, AcceptFilterInstaller installer) {
        this.plainDefault = plainDefault;
        this.wakeUpRequest = wakeUpRequest.clone();
        this.installer = installer;
    }

    // ------------------------------------------------------------ attributes

    /** @param acceptFilter {@code httpready|dataready|tlsready|none|auto}; validated when the socket is bound */
    public void setAcceptFilter(String acceptFilter) {
        this.acceptFilter = acceptFilter;
    }

    /** @return the configured {@value #ATTR_ACCEPT_FILTER} */
    public String getAcceptFilter() {
        return acceptFilter;
    }

    /** @param seconds Linux {@code TCP_DEFER_ACCEPT} seconds, 1 to 3600; validated when the socket is bound */
    public void setDeferAcceptSeconds(int seconds) {
        this.deferAcceptSeconds = seconds;
    }

    /** @return the configured {@value #ATTR_DEFER_ACCEPT_SECONDS} */
    public int getDeferAcceptSeconds() {
        return deferAcceptSeconds;
    }

    /** @param failOnError whether a filter that cannot be applied fails the connector's startup */
    public void setAcceptFilterFailOnError(boolean failOnError) {
        this.failOnError = failOnError;
    }

    /** @return the configured {@value #ATTR_FAIL_ON_ERROR} */
    public boolean getAcceptFilterFailOnError() {
        return failOnError;
    }

    /** @param value {@code true|false}; validated when the socket is bound */
    public void setCheckedFileSendfile(String value) {
        this.checkedFileSendfile = value;
    }

    /** @return the configured {@value #ATTR_CHECKED_FILE_SENDFILE} */
    public String getCheckedFileSendfile() {
        return checkedFileSendfile;
    }

    /**
     * @return whether files the xaccel filter checked are sent from its open channel now: {@code checkedFileSendfile}
     *         and {@code useSendfile} are both on
     */
    public boolean isCheckedFileSendfileActive() {
        return checkedFileSendfileOn && getUseSendfile();
    }

    /** @return whether the kernel holds connections for this connector's listening socket now */
    public boolean isAcceptFilterActive() {
        return status.active();
    }

    /** @return what was applied: a BSD filter name, {@code TCP_DEFER_ACCEPT}, or {@code none} */
    public String getAcceptFilterEffective() {
        return status.effective();
    }

    /** @return the value read back from the kernel (BSD filter name, Linux seconds), empty when none */
    public String getAcceptFilterKernelValue() {
        return status.kernelValue();
    }

    /** @return the outcome of the last bind, including the logged message */
    public AcceptFilterStatus acceptFilterStatus() {
        return status;
    }

    // ------------------------------------------------------------- lifecycle

    /**
     * Validates the attributes (a setter that throws is only logged by Tomcat, so startup fails here), binds as
     * {@link NioEndpoint} does, then applies the accept filter. Called on every bind, including re-binds.
     */
    @Override
    protected void initServerSocket() throws Exception {
        AcceptFilterMode mode = AcceptFilterMode.parse(acceptFilter);
        int seconds = deferAcceptSeconds;
        if (seconds < 1 || seconds > MAX_DEFER_ACCEPT_SECONDS) {
            throw new IllegalArgumentException(Messages.get("endpoint.invalidAttribute", ATTR_DEFER_ACCEPT_SECONDS,
                    String.valueOf(seconds), "1.." + MAX_DEFER_ACCEPT_SECONDS));
        }
        checkedFileSendfileOn = parseBoolean(ATTR_CHECKED_FILE_SENDFILE, checkedFileSendfile);
        if (checkedFileSendfileOn && !canSetUpCheckedFileSockets(NioEndpoint.class)) {
            // Tomcat 10.1: every connection would fail with a linkage error; run as the stock endpoint instead
            log.warn(Messages.get("endpoint.checkedFileUnsupported", getName(), ATTR_CHECKED_FILE_SENDFILE));
            checkedFileSendfileOn = false;
        }
        super.initServerSocket();
        if (getUnixDomainSocketPath() != null) {
            status = new AcceptFilterStatus(false, "none", "", Messages.get("endpoint.unixDomainSocket", getName()),
                    false);
            log.info(status.message());
            return;
        }
        AcceptFilterStatus result =
                installer.install(getServerSocket(), getName(), mode, isSSLEnabled(), plainDefault, seconds);
        status = result;
        if (result.failed()) {
            if (failOnError) {
                throw new IllegalStateException(Messages.get("endpoint.failOnError", getName(), result.message()));
            }
            warnOnce(result.message());
        } else {
            log.info(result.message());
        }
    }

    /**
     * Whether {@code endpoint} (Tomcat's {@link NioEndpoint}) has what {@link #setSocketOptions} builds on:
     * {@code createChannel(SocketBufferHandler)}, which Tomcat 11 has and 10.1 does not.
     */
    static boolean canSetUpCheckedFileSockets(Class<?> endpoint) {
        try {
            endpoint.getDeclaredMethod("createChannel", SocketBufferHandler.class);
            return true;
        } catch (NoSuchMethodException e) {
            return false;
        }
    }

    private static boolean parseBoolean(String attribute, String value) {
        String v = value == null ? "" : value.trim();
        if ("true".equalsIgnoreCase(v) || "false".equalsIgnoreCase(v)) {
            return Boolean.parseBoolean(v);
        }
        throw new IllegalArgumentException(Messages.get("endpoint.invalidAttribute", attribute, value, "true|false"));
    }

    /**
     * Sets up an accepted connection as {@link NioEndpoint} does, with a {@link CheckedFileSocketWrapper} as its
     * socket wrapper while {@link #isCheckedFileSendfileActive()}.
     */
    @Override
    protected boolean setSocketOptions(SocketChannel socket) {
        if (!isCheckedFileSendfileActive()) {
            return super.setSocketOptions(socket);
        }
        CheckedFileSocketWrapper wrapper = null;
        try {
            NioChannel channel = getNioChannels() == null ? null : getNioChannels().pop();
            if (channel == null) {
                SocketProperties properties = getSocketProperties();
                channel = createChannel(new SocketBufferHandler(properties.getAppReadBufSize(),
                        properties.getAppWriteBufSize(), properties.getDirectBuffer()));
            }
            CheckedFileSocketWrapper created = new CheckedFileSocketWrapper(channel, this);
            channel.reset(socket, created);
            connections.put(socket, created);
            wrapper = created;
            socket.configureBlocking(false);
            if (getUnixDomainSocketPath() == null) {
                getSocketProperties().setProperties(socket.socket());
            }
            wrapper.setReadTimeout(getConnectionTimeout());
            wrapper.setWriteTimeout(getConnectionTimeout());
            wrapper.setKeepAliveLeft(getMaxKeepAliveRequests());
            getPoller().register(wrapper);
            return true;
        } catch (Throwable t) {
            ExceptionUtils.handleThrowable(t);
            log.error(Messages.get("endpoint.socketSetupFailed", getName()), t);
            if (wrapper == null) {
                destroySocket(socket);
            }
            return false;
        }
    }

    private synchronized void warnOnce(String message) {
        if (message.equals(lastWarning)) {
            if (log.isDebugEnabled()) {
                log.debug(message);
            }
        } else {
            lastWarning = message;
            log.warn(message);
        }
    }

    /**
     * Wakes the acceptor (on pause and stop). With a filter active, Tomcat's silent wake-up connection would be held
     * by the kernel and the acceptor would not stop cleanly, so this one sends a small complete request, as Apache
     * httpd's dummy connection does; the acceptor drops it since the endpoint is paused or stopping.
     */
    @Override
    protected void unlockAccept() {
        if (!status.active()) {
            super.unlockAccept();
            return;
        }
        if (acceptor == null || acceptor.getState() != AcceptorState.RUNNING) {
            return;
        }
        InetSocketAddress target = null;
        try {
            InetSocketAddress local = getLocalAddress();
            if (local == null) {
                super.unlockAccept();
                return;
            }
            target = wakeUpAddress(local);
            int timeout = getSocketProperties().getUnlockTimeout();
            try (Socket socket = new Socket()) {
                socket.setSoTimeout(timeout);
                socket.connect(target, timeout);
                OutputStream out = socket.getOutputStream();
                out.write(wakeUpRequest);
                out.flush();
                awaitAcceptorUnlocked(1000);
            }
        } catch (IOException e) {
            log.warn(Messages.get("endpoint.wakeUp.fail", getName(), target, e.toString()));
            super.unlockAccept();
        }
    }

    private void awaitAcceptorUnlocked(long millis) {
        long start = System.nanoTime();
        long deadline = start + millis * 1_000_000L;
        while (acceptor.getState() == AcceptorState.RUNNING && System.nanoTime() < deadline) {
            if (System.nanoTime() - start > 1_000_000L) {
                try {
                    Thread.sleep(1);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return;
                }
            }
        }
    }

    /** A wildcard listener is reached through the loopback address of its family. */
    static InetSocketAddress wakeUpAddress(InetSocketAddress local) throws IOException {
        InetAddress address = local.getAddress();
        if (!address.isAnyLocalAddress()) {
            return local;
        }
        byte[] loopback = address instanceof Inet6Address ? new byte[16] : new byte[] { 127, 0, 0, 1 };
        loopback[loopback.length - 1] = 1;
        return new InetSocketAddress(InetAddress.getByAddress(loopback), local.getPort());
    }
}
