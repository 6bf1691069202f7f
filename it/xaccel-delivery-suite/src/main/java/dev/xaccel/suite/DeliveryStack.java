package dev.xaccel.suite;

import dev.xaccel.testsupport.CloseAll;
import dev.xaccel.testsupport.frontend.FrontEnd;
import dev.xaccel.testsupport.media.MediaFixture;
import dev.xaccel.testsupport.nginx.NginxFrontEnd;
import dev.xaccel.testsupport.servlet.BearerAuthFilter;
import dev.xaccel.testsupport.servlet.RawAccelServlet;
import dev.xaccel.testsupport.servlet.ServletContainer;
import dev.xaccel.testsupport.servlet.SuiteApp;
import dev.xaccel.testsupport.servlet.WebApp;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One suite's world: its media tree, the container of {@link SuiteEnvironment} running {@link SuiteApp}'s
 * application (the auth filter, {@link StreamWrappingFilter}, the XAccelFilter declared as web.xml would, with
 * string init-params, the declared-API servlet at {@code /files/*}, a servlet that sets X-Accel-Redirect on its
 * own at {@code /raw}, {@link StaleHeadersServlet} at {@code /stale/*}, the receipts of {@link ReceiptLog} at
 * {@code /receipt-log}), and optionally a front end in front of it.
 */
public final class DeliveryStack implements AutoCloseable {

    /**
     * The front-end kind whose init-params a stack without a front end uses: X-Accel-Redirect to the internal
     * prefix.
     */
    private static final FrontEnd.Factory NGINX_PARAMS = new NginxFrontEnd.Factory();

    public final MediaFixture media;
    private final ServletContainer container;
    private final int port;
    private final FrontEnd frontEnd;
    private final FrontEnd.Factory kind;
    private final BearerAuthFilter auth;

    private DeliveryStack(MediaFixture media, ServletContainer container, int port, FrontEnd frontEnd,
            FrontEnd.Factory kind, BearerAuthFilter auth) {
        this.media = media;
        this.container = container;
        this.port = port;
        this.frontEnd = frontEnd;
        this.kind = kind;
        this.auth = auth;
    }

    /** The init-params every suite shares: the front end's location, one mapping onto the media root, a JMX name. */
    public static Map<String, String> baseParams(FrontEnd.Factory frontEnd, MediaFixture media, String suite) {
        Map<String, String> p = new LinkedHashMap<>(frontEnd.filterParams(media.media));
        p.put("mappings", SuiteApp.MAPPED_PREFIX + " => " + media.media + "/");
        p.put("jmxName", "dev.xaccel:type=XAccelFilter,context=/,name=e2e-" + suite);
        return p;
    }

    /** A fresh media tree, the environment's container and front end. */
    public static DeliveryStack start(String suite, Map<String, String> params, boolean withFrontEnd)
            throws Exception {
        return start(suite, MediaFixture.create(suite), params, withFrontEnd ? SuiteEnvironment.frontEnd() : null,
                false);
    }

    /**
     * @param frontEnd the front end to start in front of the container, or null for none (then the filter is
     *                 configured for nginx: X-Accel-Redirect to {@link SuiteApp#INTERNAL_PREFIX})
     * @param lenient  the container's lenient mode ({@link ServletContainer.Factory#create})
     */
    public static DeliveryStack start(String suite, MediaFixture media, Map<String, String> params,
            FrontEnd.Factory frontEnd, boolean lenient) throws Exception {
        FrontEnd.Factory kind = frontEnd != null ? frontEnd : NGINX_PARAMS;
        Map<String, String> all = baseParams(kind, media, suite);
        all.putAll(params);
        BearerAuthFilter auth = new BearerAuthFilter();
        WebApp app = SuiteApp.app(auth)
                .filter("wrap", new StreamWrappingFilter())
                .xaccelFilter(all)
                .servlet("/files/*", new DeclaredFileServlet(media.media))
                .servlet("/raw", new RawAccelServlet())
                .servlet("/stale/*", new StaleHeadersServlet(media.media))
                .servlet(ReceiptsIT.LOG_PATH, new ReceiptLogServlet());
        ServletContainer container = SuiteEnvironment.container().create(suite, lenient);
        try {
            int port = container.start(app);
            FrontEnd front = frontEnd == null ? null : frontEnd.start(suite, port, media.media);
            return new DeliveryStack(media, container, port, front, kind, auth);
        } catch (Exception | Error e) {
            container.close();
            throw e;
        }
    }

    /** The container's port. */
    public int containerPort() {
        return port;
    }

    /** The front end (fails when the stack has none). */
    public FrontEnd frontEnd() {
        if (frontEnd == null) {
            throw new IllegalStateException("this stack has no front end");
        }
        return frontEnd;
    }

    /** The front end's port. */
    public int frontEndPort() {
        return frontEnd().port();
    }

    /** The kind of front end the filter is configured for (nginx's parameters when the stack has none). */
    public FrontEnd.Factory frontEndKind() {
        return kind;
    }

    /** Remote ports of the authorized requests seen so far: one value per TCP connection. */
    public List<Integer> remotePorts() {
        return auth.remotePorts();
    }

    @Override
    public void close() {
        CloseAll.of(frontEnd, container);
    }
}
