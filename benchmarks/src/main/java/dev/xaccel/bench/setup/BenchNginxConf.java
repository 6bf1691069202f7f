package dev.xaccel.bench.setup;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.ToIntFunction;
import java.util.regex.Pattern;

import dev.xaccel.bench.server.BenchServer;
import dev.xaccel.testsupport.TemplateRenderer;

/**
 * The benchmark's nginx.conf: one nginx for setups 2, 3, 4, 6, 7, 8, 12, 13 and 16 (and the front of 9 and 11).
 * Setups 3, 6, 7 and 16 take their blocks
 * <em>verbatim</em> from the configurations we ship in {@code docs/nginx/}, and so do the {@code http {}} lines
 * {@code proxy_buffer_size}/{@code proxy_busy_buffers_size} and the {@code disable_symlinks} line of setup 8: the
 * template is filled by the project's one renderer ({@link TemplateRenderer}: its {@code ${NAME}} placeholders,
 * nginx's own variables left alone), and each block is cut out structurally, from the first line that matches its
 * anchor through the {@code }} that closes its braces (or the {@code ;} that ends a one-line directive), so lines
 * added to or removed from a template's blocks are taken over as they are.
 * <p>
 * {@link #template} is the one place the configuration is written: the listen ports are left as placeholders
 * ({@link #PORT_PLACEHOLDERS}) for the shared {@code NginxServer}, which fills them with free ports;
 * {@link #render} fills them with given ones, so tests render exactly what the benchmark runs.
 */
public final class BenchNginxConf {

    /** The base template: setup 3's internal location and the proxy buffer lines of {@code http {}}. */
    public static final String XACCEL_TEMPLATE = "xaccel.conf.template";
    /** The cached-decision template (setup 6). */
    public static final String CACHED_TEMPLATE = "xaccel-cached-auth.conf.template";
    /** The signed-link template (setup 7). */
    public static final String SIGNED_TEMPLATE = "xaccel-signed-links.conf.template";
    /** The public prefix of setup 6, the template's {@code PUBLIC_PREFIX}. */
    public static final String CACHED_PREFIX = "/cached/files/";

    /** The blocks taken from the templates, by the regular expression their first line matches. */
    public static final Pattern INTERNAL_LOCATION = Pattern.compile("^\\s*location\\s+\\^~\\s+"
            + Pattern.quote(BenchServer.INTERNAL_PREFIX) + "\\s");
    public static final Pattern PROXY_BUFFER_SIZE = Pattern.compile("^\\s*proxy_buffer_size\\s");
    public static final Pattern PROXY_BUSY_BUFFERS_SIZE = Pattern.compile("^\\s*proxy_busy_buffers_size\\s");
    public static final Pattern DISABLE_SYMLINKS = Pattern.compile("^\\s*disable_symlinks\\s");
    public static final Pattern CACHED_UPSTREAM = Pattern.compile("^\\s*upstream\\s+xaccel_app\\b");
    public static final Pattern CACHED_ZONE = Pattern.compile("^\\s*proxy_cache_path\\s");
    public static final Pattern CACHED_SERVER = Pattern.compile("^\\s*server\\s*\\{");
    public static final Pattern SIGNED_LOCATION = Pattern.compile("^\\s*location\\s+\\^~\\s+/s/media/\\s");

    /** The placeholders of the listen ports in {@link #template}, in the order of {@link Ports}' components. */
    public static final List<String> PORT_PLACEHOLDERS = List.of("PROXIED_PORT", "XACCEL_PORT", "STATIC_PORT",
            "CACHED_PORT", "SIGNED_PORT", "CONFINED_PORT", "BARE_PORT", "UDS_PORT", "RECEIPTS_SERVER_PORT",
            "REMOTE_PORT");

    /**
     * Everything the configuration depends on but the listen ports. Who nginx's workers run as is not in it: the
     * shared {@code NginxServer} decides that ({@code NginxUser}), and it runs nginx in the foreground.
     *
     * @param nginxVersion e.g. {@code 1.22.1}, for the header comment
     * @param cores        what {@code worker_processes auto} means here, for the header comment
     * @param prefix       nginx's own directory: pid file, error log, temp paths ({@code -p})
     * @param tomcatPort   the BenchServer's connector (setups 2, 6 and the remote setups' application)
     * @param hopPort      the hop's BenchServer's connector (setups 3, 12 and 16; 13 reaches it by its socket)
     * @param dataRoot     the data directory, absolute, without trailing slash
     * @param linkSecret   the signed-link secret shared with the filter
     * @param storePort    the S3 store of the remote setups, or 0 when none runs
     */
    public record Params(String nginxVersion, int cores, Path prefix, int tomcatPort, int hopPort, Path dataRoot,
            String linkSecret, int storePort) {
    }

    /**
     * The listen ports (all on 127.0.0.1) of setups 2, 3, 4, 6, 7, 8, 12 (bare), 13 (uds), 16 (receipts) and the
     * remote setups 9 and 11.
     */
    public record Ports(int proxied, int xaccel, int statik, int cached, int signed, int confined, int bare,
            int uds, int receipts, int remote) {

        /** The ports of {@link #PORT_PLACEHOLDERS}, as {@code port} says for each. */
        static Ports of(ToIntFunction<String> port) {
            List<Integer> p = PORT_PLACEHOLDERS.stream().map(port::applyAsInt).toList();
            return new Ports(p.get(0), p.get(1), p.get(2), p.get(3), p.get(4), p.get(5), p.get(6), p.get(7),
                    p.get(8), p.get(9));
        }

        /** The values of {@link #PORT_PLACEHOLDERS}. */
        Map<String, String> values() {
            List<Integer> p = List.of(proxied, xaccel, statik, cached, signed, confined, bare, uds, receipts, remote);
            Map<String, String> values = new LinkedHashMap<>();
            for (int i = 0; i < p.size(); i++) {
                values.put(PORT_PLACEHOLDERS.get(i), Integer.toString(p.get(i)));
            }
            return values;
        }
    }

    /** The blocks of the templates the configuration takes over, filled and cut out. */
    private record Blocks(String bufferSize, String busyBuffersSize, String internalLocation, String confinement,
            String cachedUpstream, String cachedZone, String cachedServer, String signedLocation,
            String receiptLogFormat, String hideReceipt) {

        static Blocks of(Path templates, Params p) {
            String xaccel = fill(read(templates.resolve(XACCEL_TEMPLATE)), p, placeholder("XACCEL_PORT"));
            String cached = fill(read(templates.resolve(CACHED_TEMPLATE)), p, placeholder("CACHED_PORT"));
            String signed = fill(read(templates.resolve(SIGNED_TEMPLATE)), p, placeholder("SIGNED_PORT"));
            String internal = block(xaccel, INTERNAL_LOCATION, XACCEL_TEMPLATE);
            Blocks b = new Blocks(block(xaccel, PROXY_BUFFER_SIZE, XACCEL_TEMPLATE),
                    block(xaccel, PROXY_BUSY_BUFFERS_SIZE, XACCEL_TEMPLATE), internal,
                    block(internal, DISABLE_SYMLINKS, "the internal location of " + XACCEL_TEMPLATE),
                    block(cached, CACHED_UPSTREAM, CACHED_TEMPLATE), block(cached, CACHED_ZONE, CACHED_TEMPLATE),
                    block(cached, CACHED_SERVER, CACHED_TEMPLATE), block(signed, SIGNED_LOCATION, SIGNED_TEMPLATE),
                    block(xaccel, ReceiptSetup.LOG_FORMAT, XACCEL_TEMPLATE),
                    block(xaccel, ReceiptSetup.HIDE_HEADER, XACCEL_TEMPLATE));
            b.check();
            return b;
        }

        /** What the setups rely on, so that a template change that breaks a setup is named, not measured. */
        private void check() {
            expect(internalLocation, "internal;", "the " + BenchServer.INTERNAL_PREFIX + " location of "
                    + XACCEL_TEMPLATE);
            expect(cachedServer, "auth_request /_xaccel_auth", "the server block of " + CACHED_TEMPLATE);
            expect(signedLocation, "secure_link_md5", "the /s/media/ location of " + SIGNED_TEMPLATE);
        }

        /** The directive {@code words} in {@code block}, outside comments (a {@code #} that starts a token). */
        private static void expect(String block, String words, String what) {
            String directives = block.replaceAll("(?m)(^|\\s)#.*$", "$1");
            if (!Pattern.compile("(^|[\\s;{])" + words.replace(" ", "\\s+")).matcher(directives).find()) {
                throw new IllegalStateException(what + " has no " + words + " (template changed?)");
            }
        }
    }

    private BenchNginxConf() {
    }

    /** The complete nginx.conf of the benchmark, with the blocks of the templates in {@code templates}. */
    public static String render(Path templates, Params p, Ports ports) {
        return TemplateRenderer.render(template(templates, p), ports.values());
    }

    /**
     * {@link #render}'s nginx.conf with {@code ${PROXIED_PORT}}, {@code ${XACCEL_PORT}}, ... where the listen
     * ports go ({@link #PORT_PLACEHOLDERS}); no other {@code ${NAME}} is left.
     */
    public static String template(Path templates, Params p) {
        Blocks b = Blocks.of(templates, p);
        String remote = BenchRemoteConf.fill(read(templates.resolve(BenchRemoteConf.REMOTE_TEMPLATE)), p,
                placeholder("REMOTE_PORT"));
        String ng = p.prefix().toString();
        String data = p.dataRoot().toString();
        return """
                # Generated by benchmarks/run (dev.xaccel.bench.setup.BenchNginxConf). One nginx (Debian %s) \
                for setups 2-4, 6-9, 11-13 and 16.
                worker_processes auto;          # = %d here
                pid %s/nginx.pid;
                error_log %s/logs/error.log warn;
                events { worker_connections 4096; }
                http {
                    default_type application/octet-stream;
                    access_log off;
                    sendfile on;
                    tcp_nopush off;             # Debian's 'on' costs 25-40%% for large files on loopback (shared notes)
                    keepalive_requests 100000;
                    client_body_temp_path %s/client_body;
                    proxy_temp_path %s/proxy_temp;     # setup 2 spills large proxied responses here (default buffering)
                    fastcgi_temp_path %s/fastcgi;
                    uwsgi_temp_path %s/uwsgi;
                    scgi_temp_path %s/scgi;
                    # verbatim from docs/nginx/%s (all three templates set them): long X-Accel-Redirect headers
                %s
                %s
                    # verbatim from the same template: the receipt lines' format (setup 16)
                %s

                    upstream tomcat {
                        server 127.0.0.1:%d;
                        keepalive 64;
                    }
                    # the hop's setups (3, 12, 16) reach a BenchServer JVM of their own (BenchDriver): what one
                    # application pays for the hop, without the other setups' code in its JIT's profile
                    upstream tomcat_hop {
                        server 127.0.0.1:%d;
                        keepalive 64;
                    }

                    # remote setups: the store map, the store's upstream and the range map verbatim from
                    # docs/nginx/%s
                %s

                    # (2) nginx proxies the streaming Tomcat: context /stream has offload=never; default proxy buffering
                    server {
                        listen 127.0.0.1:${PROXIED_PORT};
                        location / {
                %s        }
                    }

                    # (3) xaccel: the same proxy to context /accel (offload=auto) plus the marker header, and the \
                internal
                    #     location for the data root verbatim from docs/nginx/%s; nothing else, so that
                    #     setups 12, 13 and 16 differ from it in one thing each
                    server {
                        listen 127.0.0.1:${XACCEL_PORT};
                        location / {
                %s            proxy_set_header X-Sendfile-Type X-Accel-Redirect;
                        }
                %s
                    }

                    # (9) and (11) the remote setups: setup 3's location / towards upstream tomcat (remote-offload
                    #     asks /remote/files/NAME through it), the internal /_xaccel/remote/ location and its error
                    #     locations verbatim from docs/nginx/%s, and setup store's /store/. A server of their
                    #     own: nginx tries every regex location for a request that matched a plain prefix; setup 3 is
                    #     measured without that work
                    server {
                        listen 127.0.0.1:${REMOTE_PORT};
                        location / {
                %s            proxy_set_header X-Sendfile-Type X-Accel-Redirect;
                        }
                %s
                    }

                    # (4) nginx static: the same directory, no backend, no auth
                    server {
                        listen 127.0.0.1:${STATIC_PORT};
                        location /files/ {
                            alias %s/;
                        }
                    }

                    # (6) cached decisions: upstream, cache zone and server block verbatim from
                    #     docs/nginx/%s (PUBLIC_PREFIX=%s; context /cached has the
                    #     location option expires=%d). The template's access_log is not taken over: logging is off
                    #     for every setup.
                %s
                %s
                %s

                    # (7) signed links: the secure_link location verbatim from docs/nginx/%s;
                    #     links signed by dev.xaccel.filter.SignedLinks (the /cached filter's signedLinkSecret, \
                same secret)
                    server {
                        listen 127.0.0.1:${SIGNED_PORT};
                %s
                    }

                    # (8) nginx static confined at open time: (4) plus the disable_symlinks line of the internal \
                location
                    #     of docs/nginx/%s, nothing else (no backend, no auth): what the confinement costs
                    server {
                        listen 127.0.0.1:${CONFINED_PORT};
                        location /files/ {
                %s
                            alias %s/;
                        }
                    }
                %s}
                """.formatted(p.nginxVersion(), p.cores(), ng, ng, ng, ng, ng, ng, ng,
                XACCEL_TEMPLATE, b.bufferSize(), b.busyBuffersSize(), b.receiptLogFormat(), p.tomcatPort(),
                p.hopPort(), BenchRemoteConf.REMOTE_TEMPLATE, BenchRemoteConf.httpBlocks(remote),
                PROXY,
                XACCEL_TEMPLATE, HOP_PROXY, b.internalLocation(),
                BenchRemoteConf.REMOTE_TEMPLATE, PROXY, BenchRemoteConf.serverBlocks(remote, p.storePort()),
                data,
                CACHED_TEMPLATE, CACHED_PREFIX, BenchServer.CACHED_EXPIRES, b.cachedUpstream(), b.cachedZone(),
                b.cachedServer(),
                SIGNED_TEMPLATE, b.signedLocation(),
                XACCEL_TEMPLATE, b.confinement(), data,
                HopSetups.nginxServers(HOP_PROXY, b.internalLocation(), HopSetups.socketOfNginxPrefix(p.prefix()),
                        p.linkSecret())
                        + ReceiptSetup.nginxServer(HOP_PROXY, b.hideReceipt(), ReceiptSetup.internalLocation(
                                b.internalLocation(), ReceiptSetup.include(p.prefix()))));
    }

    /** The harness's own proxy lines of setups 2 and 3 (inside {@code location /}). */
    private static final String PROXY = """
                        proxy_pass http://tomcat;
                        proxy_http_version 1.1;
                        proxy_set_header Connection "";
                        proxy_set_header Host $host;
                        proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
                        proxy_set_header X-Forwarded-Proto $scheme;
            """;

    /** The same towards the hop's BenchServer ({@code upstream tomcat_hop}): setups 3, 12 and 16. */
    static final String HOP_PROXY = PROXY.replace("proxy_pass http://tomcat;", "proxy_pass http://tomcat_hop;");

    /**
     * A template filled for one server of the benchmark, its {@code NGINX_PORT} being {@code listenPort} (a
     * placeholder of {@link #PORT_PLACEHOLDERS}: the port is filled in later). {@code PREFIX} is named only in the
     * templates' comments.
     */
    static String fill(String template, Params p, String listenPort) {
        return TemplateRenderer.render(template, Map.of("NGINX_PORT", listenPort, "TOMCAT_PORT",
                Integer.toString(p.tomcatPort()), "MEDIA_ROOT", p.dataRoot().toString(), "PUBLIC_PREFIX",
                CACHED_PREFIX, "LINK_SECRET", p.linkSecret(), "PREFIX", p.prefix().toString()));
    }

    /** {@code ${NAME}}: a placeholder left in the text for the next rendering. */
    private static String placeholder(String name) {
        return "${" + name + "}";
    }

    /**
     * The block of {@code text} that starts at the first line matching {@code firstLine}: that line through the
     * line of the {@code }} that closes its braces, or of the {@code ;} that ends it when it opens none. Braces
     * and semicolons inside comments, quoted strings and {@code ${var}} do not count. No line separator at the end.
     *
     * @throws IllegalStateException when no line matches or the block does not end (template changed?)
     */
    public static String block(String text, Pattern firstLine, String source) {
        int start = -1;
        for (int pos = 0; pos < text.length(); ) {
            int eol = lineEnd(text, pos);
            if (firstLine.matcher(text.substring(pos, eol)).find()) {
                start = pos;
                break;
            }
            pos = eol + 1;
        }
        if (start < 0) {
            throw new IllegalStateException("no block matching /" + firstLine + "/ in " + source
                    + " (template changed?)");
        }
        int end = blockEnd(text, start);
        if (end < 0) {
            throw new IllegalStateException("the block /" + firstLine + "/ of " + source + " does not end");
        }
        return text.substring(start, lineEnd(text, end));
    }

    /** The index of the character that ends the block or directive starting at {@code start}, or -1. */
    private static int blockEnd(String text, int start) {
        int depth = 0;
        boolean tokenStart = true;
        for (int i = start; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c == '#' && tokenStart) {
                i = lineEnd(text, i) - 1;
                continue;
            }
            if (c == '"' || c == '\'') {
                i = quoteEnd(text, i);
                if (i < 0) {
                    return -1;
                }
            } else if (c == '\\') {
                i++;
            } else if (c == '$' && i + 1 < text.length() && text.charAt(i + 1) == '{') {
                i = text.indexOf('}', i);
                if (i < 0) {
                    return -1;
                }
            } else if (c == '{') {
                depth++;
            } else if (c == '}') {
                if (--depth <= 0) {
                    return i;
                }
            } else if (c == ';' && depth == 0) {
                return i;
            }
            tokenStart = Character.isWhitespace(c) || c == ';' || c == '{' || c == '}';
        }
        return -1;
    }

    private static int quoteEnd(String text, int open) {
        char q = text.charAt(open);
        for (int i = open + 1; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c == '\\') {
                i++;
            } else if (c == q) {
                return i;
            }
        }
        return -1;
    }

    private static int lineEnd(String text, int pos) {
        int eol = text.indexOf('\n', pos);
        return eol < 0 ? text.length() : eol;
    }

    private static String read(Path file) {
        try {
            return Files.readString(file, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the shipped nginx template " + file, e);
        }
    }
}
