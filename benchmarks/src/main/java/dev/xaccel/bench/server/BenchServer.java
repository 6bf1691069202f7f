package dev.xaccel.bench.server;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import org.apache.catalina.Context;
import org.apache.catalina.LifecycleState;
import org.apache.catalina.connector.Connector;
import org.apache.catalina.servlets.DefaultServlet;
import org.apache.catalina.startup.Tomcat;

import dev.xaccel.filter.SignedLinks;
import dev.xaccel.filter.XAccel;
import dev.xaccel.testsupport.servlet.WebApp;
import dev.xaccel.testsupport.tomcat.EmbeddedTomcat;

/**
 * The Tomcat side of the benchmark setups, bound to 127.0.0.1 on free ports; a run starts it twice (the hop's JVM and
 * the others', {@code TomcatServer.Role}), each with every context:
 * <ul>
 * <li>{@code /stream/files/...}: {@link AuthFilter} (not wrapping the request, as for {@code /default}) + the real
 * {@code dev.xaccel.filter.XAccelFilter} in mapped mode with {@code offload=never} (the filter streams the file
 * itself: setups 1 (on the {@code --xaccel-protocol} connector), 2 and 15 (on the plain NIO connector));
 * {@code /sendfile} (setup 14) likewise with {@code sendfile=true};</li>
 * <li>{@code /accel/files/...}: the same with the request wrapped (as for {@code /bare}), {@code offload=auto},
 * {@code frontEnd=nginx},
 * {@code frontEndConfines=true} and {@code symlinks=never} (answers
 * {@code X-Accel-Redirect} when nginx sends {@code X-Sendfile-Type}: setups 3 and 13; {@code /receipts}, setup 16,
 * likewise);</li>
 * <li>{@code /default/...}: {@link AuthFilter} (not wrapping the request, so that sendfile is possible) + Tomcat's
 * {@code DefaultServlet} (setup 5);</li>
 * <li>{@code /cached/files/...}: the same as {@code /accel} with the location option {@code expires=60}
 * ({@code X-Accel-Expires: 60} + {@code Vary}), the backend of the cached-decision setup; its filter also
 * configures signed links ({@code signedLinkSecret} = {@code --link-secret}, prefix {@value #SIGNED_PREFIX}), and
 * {@code --links-out} receives one link per small file signed by that very {@code SignedLinks} instance, plus
 * {@code --links-out}{@code .expired} with one link that expired an hour ago;</li>
 * <li>{@code /_bench/stats}: connector counters and the filter MBeans' counters;</li>
 * <li>{@code /remote/files/...} (with {@code --store-endpoint}): the remote setups' application, which presigns a
 * GET of the store's object for every request ({@link RemoteServlet}).</li>
 * </ul>
 * The contexts answer on every connector: the plain NIO one, {@code xaccel} ({@code --xaccel-protocol} with the
 * {@code --plain-prop}s and {@code acceptFilter=none}: setup 1), the Unix socket ({@code --uds}: setup 13).
 * For the accept-filter workload two more connectors: {@code accept-plain} ({@code --af-protocol} or NIO, with the
 * {@code --af-plain-prop}s) and, when {@code --af-protocol} is given, {@code accept-filter} (with the
 * {@code --af-prop}s). When everything has started, {@code key=value} lines (pid, ports) are written
 * to the {@code --ready} file; any context or connector that fails to start makes the process exit with 2. The
 * contexts are declared like web.xml ({@link WebApp}) and deployed by the project's shared harness
 * ({@link EmbeddedTomcat#deploy}); the connectors, tuned per setup, are this class's own.
 */
public final class BenchServer {

    /** The filter under test; loaded by name so that the harness fails loudly when it is missing. */
    public static final String FILTER_CLASS = WebApp.XACCEL_FILTER_CLASS;
    /** Internal nginx prefix of the data root (the benchmark nginx.conf of BenchNginxConf uses it). */
    public static final String INTERNAL_PREFIX = "/_xaccel/media/";
    /** Public prefix of the signed links (the template location BenchNginxConf takes over serves it). */
    public static final String SIGNED_PREFIX = "/s/media/";
    /** Seconds the cached-decision setup lets nginx reuse a decision (the location's {@code expires=}). */
    public static final int CACHED_EXPIRES = 60;
    private static final String NIO = "org.apache.coyote.http11.Http11NioProtocol";
    /** trustedProxies of {@code /accel}: the default (loopback) plus Unix sockets, for setup 13. */
    /**
     * Who may connect to the Unix socket: nginx's workers may run as {@code nobody} (NginxUser); loopback bench
     * only.
     */
    static final String UDS_PERMISSIONS = "rw-rw-rw-";
    static final String ACCEL_TRUSTED_PROXIES = "127.0.0.0/8, ::1, unix";
    /**
     * The offload contexts are read only by nginx, whose internal locations add nosniff and CSP and compute the
     * validators from the file: set as the shipped snippets and the sample do, so that xaccel / bare compares
     * equal answers.
     */
    private static final String FRONT_END = "frontEnd";
    private static final String NGINX = "nginx";
    /**
     * The hop's contexts (setups 3, 13 and 16, and the JMH cases of the same request) say what their nginx does:
     * it is the only front end, its internal location confines at open time as the shipped one does
     * ({@code disable_symlinks on from=<data root>}, checked by BenchNginxConfTest), and the application follows no
     * link below its root. Together these let the filter hand off a request without a conditional or range by its
     * names alone, without a file-system call (docs/security.md, docs/performance.md).
     */
    public static final Map<String, String> HOP_PARAMS = Map.of(FRONT_END, NGINX, "frontEndConfines", "true",
            "symlinks", "never");

    private BenchServer() {
    }

    public static void main(String[] args) throws Exception {
        Map<String, List<String>> opts = parse(args);
        Path data = Path.of(required(opts, "data")).toRealPath();
        Path work = Path.of(required(opts, "work")).toAbsolutePath();
        String token = one(opts, "token", "bench-token");
        Path ready = Path.of(required(opts, "ready"));
        String maxConnections = one(opts, "max-connections", null);

        Files.createDirectories(work);
        Path empty = Files.createDirectories(work.resolve("empty-docbase"));

        Tomcat tomcat = new Tomcat();
        tomcat.setBaseDir(work.toString());

        ConnectorSampler sampler = new ConnectorSampler();
        // The connector nginx and the direct clients use; --plain-prop tunes it for a proxy
        // (maxKeepAliveRequests=-1, keepAliveTimeout above nginx's upstream keepalive_timeout) and for the filter's
        // direct writes (socket.appWriteBufSize=65536: a 64 KiB write leaves in one system call, docs/containers.md).
        Connector plain = connector(NIO, opts.getOrDefault("plain-prop", List.of()), maxConnections);
        tomcat.getService().addConnector(plain);
        tomcat.setConnector(plain);
        sampler.add("plain", plain);
        // setup 1: the same contexts on the xaccel connector (--xaccel-protocol, acceptFilter=none), tuned like the
        // plain one, so that the filter serving directly may hand the connector the file it opened (issue 23)
        String xaccelProtocol = one(opts, "xaccel-protocol", null);
        Connector xaccel = null;
        if (xaccelProtocol != null) {
            List<String> props = new ArrayList<>(opts.getOrDefault("plain-prop", List.of()));
            props.add("acceptFilter=none");
            xaccel = connector(xaccelProtocol, props, maxConnections);
            tomcat.getService().addConnector(xaccel);
            sampler.add("xaccel", xaccel);
        }
        // setup 13: the same contexts over a Unix domain socket, tuned like the plain connector
        String uds = one(opts, "uds", null);
        Connector unix = null;
        if (uds != null) {
            unix = new Connector(NIO);
            set(unix, "unixDomainSocketPath", uds);
            set(unix, "unixDomainSocketPathPermissions", UDS_PERMISSIONS);
            setAll(unix, opts.getOrDefault("plain-prop", List.of()));
            tomcat.getService().addConnector(unix);
            sampler.add("uds", unix);
        }

        // The accept-filter workload gets two connectors of its own, so that nothing else (nginx's upstream
        // keep-alive connections, other workloads) shows up in their counters: the same protocol class without
        // and with the accept filter.
        String afProtocol = one(opts, "af-protocol", null);
        Connector acceptPlain = connector(afProtocol == null ? NIO : afProtocol,
                opts.getOrDefault("af-plain-prop", List.of()), maxConnections);
        tomcat.getService().addConnector(acceptPlain);
        sampler.add("accept-plain", acceptPlain);
        Connector deferred = null;
        if (afProtocol != null) {
            deferred = connector(afProtocol, opts.getOrDefault("af-prop", List.of()), maxConnections);
            tomcat.getService().addConnector(deferred);
            sampler.add("accept-filter", deferred);
        }

        String mappings = "/files/ => " + data;
        String locations = data + " => " + INTERNAL_PREFIX;
        List<Context> contexts = new ArrayList<>();
        // the direct setups (1, 2, 14, 15) behind /default's auth filter, unwrapped: judged against DefaultServlet,
        // they pay for the same application in front of them
        contexts.add(filterContext(tomcat, "/stream", empty, auth(token, false), mappings, locations, "never",
                Map.of()));
        // setup 14: the same with Tomcat's sendfile by name (DefaultServlet's guarantee)
        contexts.add(filterContext(tomcat, "/sendfile", empty, auth(token, false), mappings, locations, "never",
                Map.of("sendfile", "true")));
        // setup 3 (TCP) and setup 13 (the Unix socket, which the filter trusts only by the word unix)
        contexts.add(filterContext(tomcat, "/accel", empty, auth(token, true), mappings, locations, "auto",
                with(HOP_PARAMS, Map.of("trustedProxies", ACCEL_TRUSTED_PROXIES))));
        // setup 16: /accel with delivery receipts; nginx's buffered receipt log, which the filter reads (nginx makes
        // the file when it starts, after this JVM: read from its beginning)
        Path receiptsFile = Files.createDirectories(work.resolve("receipts")).resolve("xaccel-receipts.log");
        Files.deleteIfExists(receiptsFile);
        contexts.add(filterContext(tomcat, "/receipts", empty, auth(token, true), mappings, locations, "auto",
                with(HOP_PARAMS, Map.of("receipts", receiptsFile.toString()))));
        String linkSecret = one(opts, "link-secret", null);
        Map<String, String> signed = linkSecret == null ? Map.of(FRONT_END, NGINX)
                : Map.of("signedLinkSecret", linkSecret, "signedLinkPrefix", SIGNED_PREFIX, "signedLinkTtl", "3600",
                        FRONT_END, NGINX);
        Context cached = filterContext(tomcat, "/cached", empty, auth(token, true), mappings,
                locations + " expires=" + CACHED_EXPIRES, "auto", signed);
        contexts.add(cached);

        // the auth filter unwrapped, so that DefaultServlet may use sendfile
        contexts.add(EmbeddedTomcat.deploy(tomcat, WebApp.at("/default").containerMimeMappings()
                .filter("auth", AuthFilter.class.getName(), auth(token, false))
                .defaultServlet(new DefaultServlet()), data));
        // setup 12: the same auth filter as /accel (so that xaccel / bare is the XAccelFilter's cost alone), no
        // XAccelFilter, a fixed X-Accel-Redirect
        contexts.add(EmbeddedTomcat.deploy(tomcat, WebApp.at(BareAccelServlet.CONTEXT)
                .filter("auth", AuthFilter.class.getName(), auth(token, true))
                .servlet("/files/*", new BareAccelServlet(gate(linkSecret))).defaultServlet(null), empty));
        contexts.add(EmbeddedTomcat.deploy(tomcat, WebApp.at("/_bench").servlet("/stats", new StatsServlet(sampler))
                .defaultServlet(null), empty));
        String storeEndpoint = one(opts, "store-endpoint", null);
        if (storeEndpoint != null) {
            contexts.add(remoteContext(tomcat, empty, token, locations, storeEndpoint));
        }

        tomcat.start();

        List<String> failures = new ArrayList<>();
        for (Context c : contexts) {
            if (c.getState() != LifecycleState.STARTED) {
                failures.add("context " + c.getPath() + " is " + c.getState());
            }
        }
        for (Connector c : tomcat.getService().findConnectors()) {
            if (c.getState() != LifecycleState.STARTED || c.getLocalPort() <= 0 && c != unix) {
                failures.add("connector " + c.getProtocolHandlerClassName() + " is " + c.getState());
            }
        }
        if (!failures.isEmpty()) {
            System.err.println("BenchServer: startup failed: " + String.join("; ", failures));
            System.exit(2);
        }

        String linksOut = one(opts, "links-out", null);
        if (linksOut != null) {
            writeSignedLinks(cached, data, Path.of(linksOut));
        }

        StringBuilder sb = new StringBuilder();
        sb.append("pid=").append(ProcessHandle.current().pid()).append('\n');
        sb.append("port=").append(plain.getLocalPort()).append('\n');
        sb.append("afPlainPort=").append(acceptPlain.getLocalPort()).append('\n');
        if (xaccel != null) {
            sb.append("xaccelPort=").append(xaccel.getLocalPort()).append('\n');
        }
        sb.append("cachedExpires=").append(CACHED_EXPIRES).append('\n');
        sb.append("receiptsFile=").append(receiptsFile).append('\n');
        if (unix != null) {
            sb.append("uds=").append(uds).append('\n');
        }
        if (deferred != null) {
            sb.append("afPort=").append(deferred.getLocalPort()).append('\n');
        }
        Path tmp = ready.resolveSibling(ready.getFileName() + ".tmp");
        Files.writeString(tmp, sb.toString(), StandardCharsets.UTF_8);
        Files.move(tmp, ready, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        System.out.print("BenchServer started\n" + sb);
        System.out.flush();
        tomcat.getServer().await();
    }

    /**
     * One link per {@code small-*.bin} of {@code data}, in name order, signed by the {@code SignedLinks} that the
     * {@code /cached} context's filter built from its init-params (what an application gets from
     * {@code XAccel.signedLinks(ServletContext)}), and one link that expired an hour ago.
     */
    private static void writeSignedLinks(Context ctx, Path data, Path out) throws Exception {
        SignedLinks links = XAccel.signedLinks(ctx.getServletContext());
        List<String> names = new ArrayList<>();
        try (Stream<Path> files = Files.list(data)) {
            files.map(f -> f.getFileName().toString()).filter(n -> n.startsWith("small-") && n.endsWith(".bin"))
                    .sorted().forEach(names::add);
        }
        if (names.isEmpty()) {
            throw new IllegalStateException("no small-*.bin in " + data);
        }
        StringBuilder sb = new StringBuilder();
        for (String n : names) {
            sb.append(links.sign(n)).append('\n');
        }
        Files.writeString(out, sb.toString(), StandardCharsets.UTF_8);
        Files.writeString(Path.of(out + ".expired"),
                links.sign(names.get(0), Instant.now().minusSeconds(3600)) + "\n", StandardCharsets.UTF_8);
    }

    /** Both maps' entries (their keys distinct). */
    private static Map<String, String> with(Map<String, String> a, Map<String, String> b) {
        Map<String, String> all = new LinkedHashMap<>(a);
        all.putAll(b);
        return all;
    }

    private static Connector connector(String protocol, List<String> props, String maxConnections) {
        Connector c = new Connector(protocol);
        c.setPort(0);
        set(c, "address", "127.0.0.1");
        if (maxConnections != null) {
            set(c, "maxConnections", maxConnections);
        }
        setAll(c, props);
        return c;
    }

    /** {@code name=value} each. */
    private static void setAll(Connector c, List<String> props) {
        for (String p : props) {
            int eq = p.indexOf('=');
            if (eq <= 0) {
                throw new IllegalArgumentException("--plain-prop/--af-prop want name=value, got [" + p + "]");
            }
            set(c, p.substring(0, eq), p.substring(eq + 1));
        }
    }

    private static void set(Connector c, String name, String value) {
        if (!c.setProperty(name, value)) {
            throw new IllegalArgumentException("connector property [" + name + "] not accepted by "
                    + c.getProtocolHandlerClassName() + " (value [" + value + "])");
        }
    }

    /**
     * A context of {@link AuthFilter} (with {@code auth}'s init-params) and the XAccelFilter in mapped mode, declared
     * as a web.xml would and deployed by the shared harness ({@link EmbeddedTomcat#deploy}); whatever the filters
     * leave is the default servlet's 404, so that Tomcat builds a filter chain for every path.
     */
    private static Context filterContext(Tomcat tomcat, String path, Path docBase, Map<String, String> auth,
            String mappings, String locations, String offload, Map<String, String> more) {
        Map<String, String> params = new LinkedHashMap<>();
        params.put("mappings", mappings);
        params.put("locations", locations);
        params.put("offload", offload);
        params.putAll(more);
        return EmbeddedTomcat.deploy(tomcat, WebApp.at(path).containerMimeMappings()
                .filter("auth", AuthFilter.class.getName(), auth)
                .xaccelFilter(params), docBase);
    }

    /**
     * The remote setups' application, {@code /remote}: {@link AuthFilter} (wrapping the request), the XAccelFilter
     * in declared mode with {@code offload=auto} and {@code remoteOrigins} the store, and {@link RemoteServlet} at
     * {@code /files/*}, which presigns with the secret of {@link StoreAccount#SECRET_ENV}.
     */
    private static Context remoteContext(Tomcat tomcat, Path docBase, String token, String locations,
            String storeEndpoint) {
        Map<String, String> params = new LinkedHashMap<>();
        params.put("locations", locations);
        params.put("offload", "auto");
        params.put("remoteOrigins", storeEndpoint);
        return EmbeddedTomcat.deploy(tomcat, WebApp.at("/remote").containerMimeMappings()
                .filter("auth", AuthFilter.class.getName(), auth(token, true))
                .xaccelFilter(params)
                .servlet("/files/*", new RemoteServlet(storeEndpoint, System.getenv(StoreAccount.SECRET_ENV))),
                docBase);
    }

    /** The init-params of {@link AuthFilter}. */
    private static Map<String, String> auth(String token, boolean wrap) {
        return Map.of(AuthFilter.PARAM_TOKEN, token, AuthFilter.PARAM_WRAP, Boolean.toString(wrap));
    }

    /**
     * The link secret as the filter reads it: {@code ${env:NAME}} (how TomcatServer passes it) from the
     * environment.
     */
    private static String gate(String linkSecret) {
        if (linkSecret != null && linkSecret.startsWith("${env:") && linkSecret.endsWith("}")) {
            return System.getenv(linkSecret.substring("${env:".length(), linkSecret.length() - 1));
        }
        return linkSecret;
    }

    private static Map<String, List<String>> parse(String[] args) {
        Map<String, List<String>> m = new LinkedHashMap<>();
        for (int i = 0; i < args.length; i++) {
            if (!args[i].startsWith("--") || i + 1 >= args.length) {
                throw new IllegalArgumentException("usage: --name value ..., got [" + args[i] + "]");
            }
            m.computeIfAbsent(args[i].substring(2), k -> new ArrayList<>()).add(args[++i]);
        }
        return m;
    }

    private static String one(Map<String, List<String>> opts, String name, String dflt) {
        List<String> v = opts.get(name);
        return v == null || v.isEmpty() ? dflt : v.get(v.size() - 1);
    }

    private static String required(Map<String, List<String>> opts, String name) {
        String v = one(opts, name, null);
        if (v == null) {
            throw new IllegalArgumentException("--" + name + " is required");
        }
        return v;
    }
}
