package dev.xaccel.bench.setup;

import java.util.List;
import java.util.regex.Pattern;

import dev.xaccel.bench.server.StoreAccount;

/**
 * The remote setups' part of the benchmark's nginx.conf, taken <em>verbatim</em> from
 * {@code docs/nginx/xaccel-remote.conf.template} like the other setups' blocks ({@link BenchNginxConf#block}): its
 * {@code map} of the stores to upstreams, the {@code upstream} of the store, the single-range {@code map} and the
 * {@code map}s of the valid conditional headers (all in {@code http {}}) and its internal {@code /_xaccel/remote/}
 * location with the named locations of the store's errors (in a server of their own beside setup 3's, with its
 * {@code location /}, which proxies {@code /remote/files/…} to BenchServer with the marker: setup 3 is measured
 * without their regex location). Setup store adds one location of the harness's own:
 * {@code /store/NAME?<presigned query>} is rewritten into that very internal location, so it measures the same
 * proxying without the application's round trip.
 */
public final class BenchRemoteConf {

    /** The remote template. */
    static final String REMOTE_TEMPLATE = "xaccel-remote.conf.template";
    /** The public prefix of setup store. */
    public static final String STORE_PREFIX = "/store";

    static final Pattern UPSTREAM_MAP = Pattern.compile("^\\s*map\\s+\"\\$xaccel_remote_scheme");
    static final Pattern STORE_UPSTREAM = Pattern.compile("^\\s*upstream\\s+xaccel_store\\b");
    static final Pattern RANGE_MAP = Pattern
            .compile("^\\s*map\\s+\"\\$http_if_range\\|\\$http_range\"\\s+\\$xaccel_remote_range\\b");
    /** The conditional headers, each through its own {@code map} (only valid values reach the store). */
    static final List<String> CONDITIONALS = List.of("if_modified_since", "if_unmodified_since", "if_match",
            "if_none_match", "if_range");
    static final Pattern LOCATION = Pattern.compile("^\\s*location\\s+~\\s+\\^/_xaccel/remote/");
    static final List<String> ERROR_LOCATIONS = List.of("404", "412", "416", "502", "504");

    private BenchRemoteConf() {
    }

    /** {@code host:port} of the store, or an unused loopback address when no remote setup runs. */
    static String server(int storePort) {
        return "127.0.0.1:" + (storePort > 0 ? storePort : 9);
    }

    /** The blocks of {@code http {}}: the store map, its upstream, the range map, the conditionals' maps. */
    static String httpBlocks(String remote) {
        StringBuilder sb = new StringBuilder(block(remote, UPSTREAM_MAP)).append("\n\n")
                .append(block(remote, STORE_UPSTREAM)).append("\n\n").append(block(remote, RANGE_MAP));
        for (String header : CONDITIONALS) {
            sb.append("\n\n").append(block(remote, Pattern.compile("^\\s*map\\s+\\$http_" + header
                    + "\\s+\\$xaccel_remote_" + header + "\\b")));
        }
        return sb.toString();
    }

    /** The blocks of the remote setups' server: the internal location, its error locations, setup store's rewrite. */
    static String serverBlocks(String remote, int storePort) {
        StringBuilder sb = new StringBuilder(block(remote, LOCATION));
        for (String status : ERROR_LOCATIONS) {
            sb.append('\n').append(block(remote, Pattern.compile("^\\s*location\\s+@xaccel_remote_" + status + "\\b")));
        }
        sb.append("\n\n        # setup store: a presigned GET through the same internal location, "
                        + "without the application\n")
                .append("        location ").append(STORE_PREFIX).append("/ {\n")
                .append("            rewrite ^").append(STORE_PREFIX).append("/(.*)$ /_xaccel/remote/http/")
                .append(server(storePort)).append('/').append(StoreAccount.BUCKET).append("/$1 last;\n")
                .append("        }");
        return sb.toString();
    }

    /** The remote template filled: its store is the benchmark's. */
    static String fill(String template, BenchNginxConf.Params p, String listenPort) {
        return dev.xaccel.testsupport.TemplateRenderer.render(template, java.util.Map.of("NGINX_PORT", listenPort,
                "TOMCAT_PORT", Integer.toString(p.tomcatPort()), "MEDIA_ROOT", p.dataRoot().toString(), "PREFIX",
                p.prefix().toString(), "REMOTE_ORIGIN", "http://" + server(p.storePort()), "REMOTE_SERVER",
                server(p.storePort()), "CA_CERTIFICATES", "/etc/ssl/certs/ca-certificates.crt"));
    }

    private static String block(String text, Pattern first) {
        return BenchNginxConf.block(text, first, REMOTE_TEMPLATE);
    }
}
